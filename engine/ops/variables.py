"""tf.Variable: ref variables (VariableV2, TF 1.x's default) and resource variables (VarHandleOp)."""

import enum

from engine.framework import dtypes
from engine.framework.graph import (GraphKeys, add_to_collections, get_collection,
                                    get_default_graph, init_scope)
from engine.framework.graph import get_default_session
from engine.ops import array_ops, math_ops
from engine.ops import state_ops, variable_creator
from engine.ops.array_ops import identity
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import group, no_op
from engine.ops.convert import convert_to_tensor, register_tensor_conversion_function
from engine.ops.op_def_library import apply_op
from engine.proto import attr_value_pb2
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import as_shape, unknown_shape

_USE_RESOURCE = [False]


def enable_resource_variables():
    _USE_RESOURCE[0] = True


def disable_resource_variables():
    _USE_RESOURCE[0] = False


def resource_variables_enabled():
    return _USE_RESOURCE[0]


class _VariableMeta(type):
    """tf.Variable(...) builds a RefVariable, or a ResourceVariable when asked for one."""

    def __call__(cls, *args, **kwargs):
        if cls is Variable and variable_creator.creator_stack():
            return variable_creator.create_variable(_base_creator, args, kwargs)
        if cls is Variable:
            use_resource = kwargs.pop("use_resource", None)
            if use_resource is None:
                use_resource = _USE_RESOURCE[0]
            cls = ResourceVariable if use_resource else RefVariable
        else:
            kwargs.pop("use_resource", None)
        return type.__call__(cls, *args, **kwargs)


def _base_creator(use_resource=None, expected_shape=None,
                  experimental_enable_variable_lifting=None, **kwargs):
    """The creator under all of tf.variable_creator_scope's: a RefVariable or ResourceVariable."""
    if use_resource is None:
        use_resource = _USE_RESOURCE[0]
    if use_resource:
        return type.__call__(ResourceVariable, **kwargs)
    return type.__call__(RefVariable, expected_shape=expected_shape, **kwargs)


class Variable(metaclass=_VariableMeta):
    """What both variable kinds share: conversion, operators, eval, collections."""

    def _init_collections(self, collections, trainable):
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError(f"collections argument to Variable constructor must be a list, "
                             f"tuple, or set. Got {collections} of type {type(collections)}")
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        return collections

    @property
    def initializer(self):
        return self._initializer_op

    def _set_save_slice_info(self, save_slice_info):
        self._save_slice_info = save_slice_info

    def _get_save_slice_info(self):
        return getattr(self, "_save_slice_info", None)

    @property
    def initial_value(self):
        return self._initial_value

    @property
    def trainable(self):
        return self._trainable

    @property
    def graph(self):
        return self.op.graph

    @property
    def device(self):
        return self.op.device

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def eval(self, session=None):
        return self._graph_element.eval(session=session)

    def initialized_value(self):
        return self.value()

    def load(self, value, session=None):
        session = session or get_default_session()
        if session is None:
            raise ValueError("Either session argument should be provided or default session "
                             "should be established")
        session.run(self.initializer, {self.initializer.inputs[1]: value})

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} "
                f"dtype={self.dtype.name}>")

    __str__ = __repr__

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __iter__(self):
        raise TypeError("'Variable' object is not iterable.")

    def __getitem__(self, key):
        return self.value()[key]

    def _as_graph_element(self):
        return self._graph_element

    @staticmethod
    def _conversion(v, dtype=None, name=None, as_ref=False):
        if dtype is not None and not dtype.is_compatible_with(v.dtype):
            raise ValueError(f"Incompatible type conversion requested to type '{dtype.name}' for "
                             f"variable of type '{v.dtype.name}' (Variable: {v}).")
        return v._ref() if as_ref else v.value()


def _overload_operators():
    names = ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
             "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
             "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__and__",
             "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__neg__", "__abs__",
             "__invert__", "__lt__", "__le__", "__gt__", "__ge__"]
    for name in names:
        def method(self, *args, _name=name):
            return getattr(self.value(), _name)(*args)
        method.__name__ = name
        setattr(Variable, name, method)


_overload_operators()


class RefVariable(Variable):
    """A TF 1.x variable: VariableV2 "<name>", "<name>/initial_value", "/Assign", "/read"."""

    def __init__(self, initial_value=None, trainable=None, collections=None,
                 validate_shape=True, caching_device=None, name=None, variable_def=None,
                 dtype=None, expected_shape=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        trainable = True if trainable is None else trainable
        collections = self._init_collections(collections, trainable)
        init_from_fn = callable(initial_value)
        self._trainable = trainable
        self._constraint = constraint
        graph = get_default_graph()
        with init_scope():
            with graph.name_scope(name or "Variable") as scope:
                if init_from_fn:
                    true_name = scope[:-1]
                    attr = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
                        s=[f"loc:@{true_name}".encode()]))
                    with graph._attr_scope({"_class": attr}):
                        with graph.name_scope("Initializer"), graph.device(None):
                            value = initial_value()
                            self._initial_value = convert_to_tensor(
                                value, name="initial_value", dtype=dtype)
                        var_shape = (self._initial_value.shape if validate_shape
                                     else unknown_shape())
                        self._variable = state_ops.variable_op_v2(
                            var_shape, self._initial_value.dtype.base_dtype, name=scope)
                else:
                    self._initial_value = convert_to_tensor(initial_value, name="initial_value",
                                                            dtype=dtype)
                    var_shape = self._initial_value.shape if validate_shape else unknown_shape()
                    self._variable = state_ops.variable_op_v2(
                        var_shape, self._initial_value.dtype.base_dtype, name=scope)
                self._name = self._variable.name
                if validate_shape and not self._initial_value.shape.is_fully_defined():
                    raise ValueError(f"initial_value must have a shape specified: "
                                     f"{self._initial_value}")
                self._initializer_op = state_ops.assign(
                    self._variable, self._initial_value, validate_shape=validate_shape).op
                with graph.colocate_with(self._variable.op):
                    self._snapshot = identity(self._variable, name="read")
        self._graph_element = self._variable
        self._shape = self._variable.shape
        add_to_collections(collections, self)

    @property
    def name(self):
        return self._name

    @property
    def op(self):
        return self._variable.op

    @property
    def dtype(self):
        return self._variable.dtype

    def value(self):
        return self._snapshot

    def read_value(self):
        return identity(self._variable, name="read")

    def _ref(self):
        return self._variable

    def set_shape(self, shape):
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)
        self._shape = self._variable.shape

    def assign(self, value, use_locking=False, name=None, read_value=True):
        assign = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return assign if read_value else assign.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        assign = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return assign if read_value else assign.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        assign = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return assign if read_value else assign.op

    def is_initialized(self, name=None):
        return state_ops.is_variable_initialized(self._variable, name=name)


VariableV1 = Variable


class ResourceVariable(Variable):
    """A resource variable: VarHandleOp "<name>", "/Initializer", "/IsInitialized", "/Assign",
    "/Read"; reads are ReadVariableOp nodes."""

    # TensorFlow's BaseResourceVariable is a core.Tensor (tensor_util.is_tf_type): tf.tuple
    # gates it by its op and reads it under the gate.
    is_tensor_like = True

    def __init__(self, initial_value=None, trainable=None, collections=None,
                 validate_shape=True, caching_device=None, name=None, dtype=None,
                 variable_def=None, import_scope=None, constraint=None, distribute_strategy=None,
                 synchronization=None, aggregation=None, shape=None, handle=None,
                 experimental_enable_variable_lifting=None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        trainable = True if trainable is None else trainable
        collections = self._init_collections(collections, trainable)
        self._trainable = trainable
        self._constraint = constraint
        graph = get_default_graph()
        with init_scope():
            with graph.name_scope(name or "Variable") as scope:
                handle_name = scope[:-1]
                attr = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
                    s=[f"loc:@{handle_name}".encode()]))
                with graph._attr_scope({"_class": attr}):
                    with graph.name_scope("Initializer"), graph.device(None):
                        if callable(initial_value):
                            initial_value = initial_value()
                        initial_value = convert_to_tensor(initial_value, name="initial_value",
                                                          dtype=dtype)
                    var_shape = initial_value.shape if shape is None else as_shape(shape)
                    self._handle = apply_op(
                        "VarHandleOp", shape=var_shape, dtype=initial_value.dtype.base_dtype,
                        shared_name=handle_name, debug_name=scope, name=scope,
                        container=graph._container or "")
                self._dtype = initial_value.dtype.base_dtype
                self._shape = var_shape
                self._initial_value = initial_value
                with graph.name_scope("IsInitialized"):
                    self._is_initialized_op = apply_op("VarIsInitializedOp",
                                                       resource=self._handle)
                with graph.name_scope("Assign") as assign_scope, \
                        graph.colocate_with(None, ignore_existing=True), \
                        graph.device(self._handle.device):
                    self._initializer_op = apply_op("AssignVariableOp", resource=self._handle,
                                                    value=initial_value, name=assign_scope)
                with graph.name_scope("Read"), graph.device(self._handle.device):
                    self._graph_element = self._read_variable_op()
        self._name = self._handle.name
        add_to_collections(collections, self)

    @property
    def name(self):
        return self._name

    @property
    def handle(self):
        return self._handle

    @property
    def op(self):
        return self._handle.op

    @property
    def dtype(self):
        return self._dtype

    def _read_variable_op(self):
        read = apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype)
        # TensorFlow knows a read's shape from the handle's shape data; ours is the variable's.
        read.set_shape(self._shape)
        return read

    def value(self):
        with get_default_graph().colocate_with(None, ignore_existing=True):
            return self._read_variable_op()

    def read_value(self):
        with get_default_graph().name_scope("Read"):
            value = self._read_variable_op()
        return identity(value)

    def _ref(self):
        return self._handle

    def _lazy_read(self, op):
        return _UnreadVariable(self, op)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        value = convert_to_tensor(value, dtype=self._dtype)
        op = apply_op("AssignVariableOp", resource=self._handle, value=value,
                      validate_shape=True, name=name)
        return self._lazy_read(op) if read_value else op

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        delta = convert_to_tensor(delta, dtype=self._dtype)
        op = apply_op("AssignAddVariableOp", resource=self._handle, value=delta, name=name)
        return self._lazy_read(op) if read_value else op

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        delta = convert_to_tensor(delta, dtype=self._dtype)
        op = apply_op("AssignSubVariableOp", resource=self._handle, value=delta, name=name)
        return self._lazy_read(op) if read_value else op

    def is_initialized(self, name=None):
        return apply_op("VarIsInitializedOp", resource=self._handle, name=name)

    def sparse_read(self, indices, name=None):
        """The rows `indices` of the variable, read by one ResourceGather node."""
        graph = get_default_graph()
        with graph.name_scope("Gather" if name is None else name) as scope:
            value = apply_op("ResourceGather", resource=self._handle, indices=indices,
                             dtype=self._dtype, name=scope)
        if self._shape.ndims is not None:
            value.set_shape(value.op.inputs[1].shape.concatenate(self._shape[1:]))
        return value

    def _as_graph_element(self):
        return self._graph_element


class _UnreadVariable(ResourceVariable):
    """What a resource assign returns: reads after the assign; named after the assign op."""

    def __init__(self, parent, parent_op):  # noqa: D107  (no super().__init__: shares state)
        self._parent, self._parent_op = parent, parent_op
        self._handle, self._dtype, self._shape = parent._handle, parent._dtype, parent._shape
        self._trainable, self._initial_value = parent._trainable, parent._initial_value
        self._initializer_op = parent._initializer_op
        with get_default_graph().control_dependencies([parent_op]):
            self._graph_element = self._read_variable_op()

    @property
    def name(self):
        return self._parent_op.name

    @property
    def op(self):
        return self._parent_op

    def value(self):
        with get_default_graph().control_dependencies([self._parent_op]):
            return self._read_variable_op()


register_tensor_conversion_function(Variable, Variable._conversion, 100)


# -- collections and initializers --

def global_variables(scope=None):
    return get_collection(GraphKeys.GLOBAL_VARIABLES, scope)




def local_variables(scope=None):
    return get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def trainable_variables(scope=None):
    return get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def model_variables(scope=None):
    return get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    return get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    if var_list:
        return group(*[v.initializer for v in var_list], name=name)
    return no_op(name=name)


def global_variables_initializer():
    return variables_initializer(global_variables())


def local_variables_initializer():
    return variables_initializer(local_variables())


def is_variable_initialized(variable):
    return state_ops.is_variable_initialized(variable)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    import os

    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = [op.outputs[0] for op in get_default_graph().get_operations()
                        if op.type in ("Variable", "VariableV2", "AutoReloadVariable")]
    graph = get_default_graph()
    with graph.name_scope(name):
        if var_list:
            init_vars = [state_ops.is_variable_initialized(v) for v in var_list]
        local_device = os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING",
                                      "/cpu:0")
        with graph.device(local_device):
            if not var_list:
                return constant([], dtype=dtypes.string)
            variables_mask = math_ops.logical_not(array_ops.stack(init_vars))
            variable_names_tensor = constant([v.op.name for v in var_list])
            return array_ops.boolean_mask(variable_names_tensor, variables_mask)


def assert_variables_initialized(var_list=None):
    if var_list is None:
        var_list = global_variables() + local_variables()
    ranks = [array_ops.rank(state_ops.is_variable_initialized(v)) for v in var_list]
    return math_ops.reduce_all(array_ops.stack(ranks))


__all__ = ["Variable", "RefVariable", "ResourceVariable", "Tensor"]


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are made to agree (taken, not used: one device)."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a distributed variable's per-replica updates combine (TF 1.x's names, with
    ONLY_FIRST_TOWER an alias of ONLY_FIRST_REPLICA)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3
