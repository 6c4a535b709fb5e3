"""tf.variable_scope and tf.get_variable: named variable reuse, as TF 1.x's variable store."""

import contextlib
import functools
import inspect
import threading

from engine.framework import dtypes
from engine.framework.graph import add_to_collection, get_default_graph, init_scope
from engine.framework.graph_keys import GraphKeys
from engine.ops import init_ops, partitioned_variables
from engine.platform import tf_logging
from engine.ops.variables import (Variable, VariableAggregation, VariableSynchronization,
                                  resource_variables_enabled)
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import as_shape

AUTO_REUSE = object()
_local = threading.local()


class VariableScope:
    """A variable scope: its name, reuse flag, defaults, and the name scope it opened."""

    def __init__(self, reuse, name="", initializer=None, dtype=dtypes.float32,
                 use_resource=None, name_scope="", regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, constraint=None):
        self._name, self._reuse, self._initializer = name, reuse, initializer
        self._dtype, self._use_resource, self._name_scope = dtype, use_resource, name_scope
        self._regularizer, self._caching_device = regularizer, caching_device
        self._partitioner, self._custom_getter = partitioner, custom_getter
        self._constraint = constraint

    @property
    def name(self):
        return self._name

    @property
    def original_name_scope(self):
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def dtype(self):
        return self._dtype

    @property
    def use_resource(self):
        return self._use_resource

    @property
    def regularizer(self):
        return self._regularizer

    @property
    def partitioner(self):
        return self._partitioner

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    @property
    def custom_getter(self):
        return self._custom_getter

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def reuse_variables(self):
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtype

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None, **kwargs):
        if reuse is None:
            reuse = self._reuse
        if initializer is None:
            initializer = self._initializer
        if use_resource is None:
            use_resource = self._use_resource
        if dtype is None:
            dtype = self._dtype
        if regularizer is None:
            regularizer = self._regularizer
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        full_name = f"{self._name}/{name}" if self._name else name

        def true_getter(name, shape=None, dtype=dtypes.float32, initializer=None,
                        regularizer=None, reuse=None, trainable=None, collections=None,
                        caching_device=None, partitioner=None, validate_shape=True,
                        use_resource=None, constraint=None, **kwargs):
            # TensorFlow's _true_getter: a scalar shape ignores the partitioner, and reuse
            # finds a partitioned variable without one.
            is_scalar = isinstance(shape, (list, tuple)) and not shape
            if (partitioner is not None and not is_scalar) or (
                    reuse is True and name in var_store._partitioned_vars):
                return var_store.get_partitioned_variable(
                    name, partitioner, shape, dtype, initializer, regularizer, reuse,
                    trainable, collections, validate_shape, use_resource)
            return var_store.get_variable(name, shape, dtype, initializer, reuse,
                                          trainable, collections, validate_shape,
                                          use_resource, regularizer=regularizer)

        arguments = dict(name=full_name, shape=shape, dtype=dtype, initializer=initializer,
                         regularizer=regularizer, reuse=reuse, trainable=trainable,
                         collections=collections, caching_device=caching_device,
                         partitioner=partitioner, validate_shape=validate_shape,
                         use_resource=use_resource)
        with get_default_graph().name_scope(None):
            if custom_getter is None:
                return true_getter(**arguments)
            if not callable(custom_getter):
                raise ValueError(f"Passed a custom_getter which is not callable: "
                                 f"{custom_getter}")
            # What TensorFlow hands a custom getter: every argument, trainable resolved, and
            # the arguments added later (constraint, synchronization, aggregation) too.
            arguments.update(trainable=True if trainable is None else trainable,
                             synchronization=VariableSynchronization.AUTO,
                             aggregation=VariableAggregation.NONE)
            parameters = _parameters(custom_getter)
            if "constraint" in parameters or any(
                    p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
                arguments["constraint"] = constraint
            return custom_getter(getter=true_getter, **arguments)


def _chained_getter(custom_getter, old_getter):
    """TensorFlow's _maybe_wrap_custom_getter: a scope's getter calls its parent's, which calls
    the true getter."""
    if custom_getter is None or old_getter is None:
        return custom_getter or old_getter

    def wrapped_custom_getter(getter, *args, **kwargs):
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)

    return wrapped_custom_getter


class _VariableStore:
    """The variables get_variable made in one graph, by full name."""

    def __init__(self):
        self._vars = {}
        self._partitioned_vars = {}
        self.scope_counts = {}  # full scope name -> times opened (TF's variable_scopes_count)

    def unique_scope_name(self, parent_name, prefix):
        """`prefix`, or `prefix_1`, `prefix_2`, ...: the first not yet opened under parent."""
        name = f"{parent_name}/{prefix}" if parent_name else prefix
        if self.scope_counts.get(name, 0) == 0:
            return prefix
        idx = 1
        while self.scope_counts.get(f"{name}_{idx}", 0) > 0:
            idx += 1
        return f"{prefix}_{idx}"

    def close_subscopes(self, scope_name):
        """Leaving a scope forgets the scopes opened inside it, as TensorFlow's store does."""
        prefix = scope_name + "/"
        for key in self.scope_counts:
            if key.startswith(prefix):
                self.scope_counts[key] = 0

    def get_partitioned_variable(self, name, partitioner, shape, dtype, initializer,
                                 regularizer, reuse, trainable, collections, validate_shape,
                                 use_resource):
        """TensorFlow's _VariableStore._get_partitioned_variable: the parts `name/part_<i>`
        (each a get_variable with its slice's shape and PartitionInfo) as one
        PartitionedVariable."""
        pv = partitioned_variables
        dtype = dtypes.as_dtype(dtype)
        if name in self._vars:
            raise ValueError("A partitioner was provided, but an unpartitioned version of the "
                             "variable was found: %s.  Perhaps a variable of the same name "
                             "was already created without partitioning?" % name)
        shape = as_shape(shape)
        if isinstance(initializer, Tensor):
            shape = shape.merge_with(initializer.get_shape())
        partitions = None
        if not reuse or partitioner:
            partitions = pv.call_partitioner(partitioner, shape, dtype)
        if name in self._partitioned_vars:
            if reuse is False or reuse is None:
                raise ValueError("Partitioned variable with name %s already exists. Did you "
                                 "mean to set reuse=True or reuse=tf.AUTO_REUSE in VarScope?"
                                 % name)
            existing = self._partitioned_vars[name]
            if not shape.is_compatible_with(existing.get_shape()):
                raise ValueError("Trying to reuse partitioned variable %s, but specified shape "
                                 "%s and found shape %s." % (name, shape, existing.get_shape()))
            if partitions is not None and existing._get_partitions() != partitions:
                raise ValueError("Trying to reuse partitioned variable %s, but specified "
                                 "partitions %s and found partitions %s." %
                                 (name, partitions, existing._get_partitions()))
            return existing
        if reuse is True:
            raise ValueError("PartitionedVariable %s does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=False or "
                             "reuse=tf.AUTO_REUSE in VarScope?" % name)
        slice_dim, num_slices = pv.slice_dim_and_num_slices(partitions)
        full_shape = shape.as_list()
        parts = []
        graph = get_default_graph()
        for i, (var_offset, var_shape) in enumerate(
                pv.iter_slices(full_shape, num_slices, slice_dim)):
            partition_info = pv.PartitionInfo(full_shape, var_offset)
            part_name = "%s/part_%d" % (name, i)
            with graph.name_scope(part_name + "/PartitionedInitializer"):
                if initializer is None or callable(initializer):
                    init, init_shape = initializer, var_shape
                else:
                    init = pv.slice_initializer(initializer, dtype, var_offset, var_shape)
                    dtype, init_shape = init.dtype.base_dtype, None
            with graph.name_scope(None):
                part = self.get_variable(part_name, init_shape, dtype, init, reuse, trainable,
                                         collections, validate_shape, use_resource,
                                         regularizer=regularizer, partition_info=partition_info)
            part._set_save_slice_info(pv.SaveSliceInfo(name, full_shape, var_offset,
                                                       var_shape))
            parts.append(part)
        partitioned = pv.PartitionedVariable(name, shape, dtype, parts, partitions)
        self._partitioned_vars[name] = partitioned
        return partitioned

    def get_variable(self, name, shape, dtype, initializer, reuse, trainable, collections,
                     validate_shape, use_resource, regularizer=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype)
        shape = None if shape is None else as_shape(shape)
        if name in self._vars:
            if reuse is False or reuse is None:
                raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to "
                                 f"set reuse=True or reuse=tf.AUTO_REUSE in VarScope? "
                                 f"Originally defined at:\n\n")
            found = self._vars[name]
            if shape is not None and not shape.is_compatible_with(found.shape):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} "
                                 f"and found shape {found.shape}.")
            if dtype != found.dtype.base_dtype:
                raise ValueError(f"Trying to share variable {name}, but specified dtype "
                                 f"{dtype.name} and found dtype {found.dtype.base_dtype.name}.")
            return found
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with "
                             f"tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             f"VarScope?")
        if initializer is None:
            if dtype.is_floating:
                initializer = init_ops.glorot_uniform_initializer()
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = init_ops.zeros_initializer()
            else:
                raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype!r} "
                                 f"is required")
        with init_scope():
            if isinstance(initializer, type):
                initializer = initializer()
            if callable(initializer):
                if shape is None or not shape.is_fully_defined():
                    raise ValueError(f"Shape of a new variable ({name}) must be fully defined, "
                                     f"but instead was {shape}.")
                shape_list = shape.as_list()

                takes_partition_info = "partition_info" in _parameters(initializer)

                def init_val():
                    if takes_partition_info:
                        return initializer(shape_list, dtype=dtype,
                                           partition_info=partition_info)
                    return initializer(shape_list, dtype=dtype)
                variable_dtype = dtype
            else:
                init_val, variable_dtype = initializer, None
        if use_resource is None:
            use_resource = resource_variables_enabled()
        variable = Variable(initial_value=init_val, name=name, trainable=trainable,
                            collections=collections, dtype=variable_dtype,
                            validate_shape=validate_shape, use_resource=use_resource)
        self._vars[name] = variable
        # TensorFlow calls the regularizer once where get_variable was called, to see
        # whether it gives a loss (those nodes stay in the graph, unused), then again under
        # "<name>/Regularizer/" for the loss it collects.
        if regularizer and regularizer(variable) is not None:
            with get_default_graph().name_scope(name + "/Regularizer/"):
                add_to_collection(GraphKeys.REGULARIZATION_LOSSES, regularizer(variable))
        return variable


def _parameters(function):
    try:
        return inspect.signature(function).parameters
    except (TypeError, ValueError):
        return {}


def _store():
    graph = get_default_graph()
    if graph._variable_scope_stores is None:
        graph._variable_scope_stores = (_VariableStore(), [VariableScope(False)])
    return graph._variable_scope_stores


def get_variable_scope():
    return _store()[1][-1]


def _get_default_variable_store():
    return _store()[0]


def stored_variables():
    """The default variable store's variables by full name (get_variable's), as
    tf.train.init_from_checkpoint looks names up in them."""
    return _store()[0]._vars


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 **kwargs):
    store, scopes = _store()
    return scopes[-1].get_variable(store, name, shape=shape, dtype=dtype,
                                   initializer=initializer, regularizer=regularizer,
                                   trainable=trainable, collections=collections,
                                   caching_device=caching_device, partitioner=partitioner,
                                   validate_shape=validate_shape, use_resource=use_resource,
                                   custom_getter=custom_getter, constraint=constraint)


def get_partitioned_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                             trainable=True, collections=None, partitioner=None,
                             validate_shape=True, use_resource=None):
    """TensorFlow's variable_scope._get_partitioned_variable: always a PartitionedVariable
    (create_partitioned_variables' way in)."""
    store, scopes = _store()
    scope = scopes[-1]
    partitioner = partitioner if partitioner is not None else scope.partitioner
    if partitioner is None:
        raise ValueError("No partitioner was specified")
    full_name = "/".join(part for part in (scope.name, name) if part)
    with get_default_graph().name_scope(None):
        return store.get_partitioned_variable(
            full_name, partitioner, shape, dtype if dtype is not None else scope.dtype,
            initializer if initializer is not None else scope.initializer,
            regularizer if regularizer is not None else scope.regularizer, scope.reuse,
            trainable, collections, validate_shape,
            use_resource if use_resource is not None else scope.use_resource)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, **kwargs):
    """tf.get_local_variable: get_variable into LOCAL_VARIABLES, never trainable."""
    from engine.framework.graph import GraphKeys
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=False, collections=collections,
                        partitioner=partitioner, validate_shape=validate_shape,
                        use_resource=use_resource)


def no_regularizer(_):
    """A regularizer that adds no loss (a variable_scope's regularizer=tf.no_regularizer)."""
    return None


@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """tf.variable_op_scope: the deprecated variable_scope with `values` first."""
    tf_logging.warn("tf.variable_op_scope(values, name, default_name) is deprecated, use "
                    "tf.variable_scope(name, default_name, values)")
    with variable_scope(name_or_scope, default_name=default_name, values=values,
                        initializer=initializer, regularizer=regularizer,
                        caching_device=caching_device, partitioner=partitioner,
                        custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                        use_resource=use_resource, constraint=constraint) as scope:
        yield scope


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None,
                   regularizer=None, caching_device=None, partitioner=None,
                   custom_getter=None, reuse=None, dtype=None, use_resource=None,
                   constraint=None, auxiliary_name_scope=True):
    """Opens a variable scope (and a name scope for the ops built inside)."""
    store, scopes = _store()
    parent = scopes[-1]
    graph = get_default_graph()
    if reuse is False:
        reuse = None
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    saved_counts = None
    if isinstance(name_or_scope, VariableScope):
        scope_name = name_or_scope.name
        name_scope = name_or_scope.original_name_scope
        base = name_or_scope
        saved_counts = dict(store.scope_counts)
    else:
        if name_or_scope is not None:
            relative = name_or_scope
        else:
            relative = store.unique_scope_name(parent.name, default_name)
        scope_name = f"{parent.name}/{relative}" if parent.name else relative
        name_scope = None
        base = parent
    store.scope_counts[scope_name] = store.scope_counts.get(scope_name, 0) + 1
    # AUTO_REUSE stays the scope's reuse (get or create), inherited by its sub-scopes as
    # TensorFlow's; made True here, a tf.layers call's first build under it found nothing.
    if reuse is None:
        new_reuse = base.reuse if isinstance(name_or_scope, VariableScope) else parent.reuse
    else:
        new_reuse = reuse
    if parent.reuse is True:
        new_reuse = True
    if auxiliary_name_scope:
        # A captured VariableScope re-entered opens a new name scope named as its last
        # component (relative, uniquified), as TensorFlow's; its original_name_scope stays.
        # A new scope's name scope is its whole relative name ("w0/Adam" for an optimizer's
        # slot, not "Adam", which would take the name the optimizer's own scope needs).
        # A scope named by default_name opens the name scope default_name, made unique by the
        # graph apart from the variable scope's name ("layer_2/" beside variables "layer_1/").
        if isinstance(name_or_scope, VariableScope):
            last = scope_name.split("/")[-1]
        else:
            last = relative if name_or_scope is not None else default_name
        ns = graph.name_scope(last) if last else contextlib.nullcontext(
            graph.get_name_scope() + "/" if graph.get_name_scope() else "")
    else:
        ns = contextlib.nullcontext(graph.get_name_scope() + "/" if graph.get_name_scope()
                                    else "")
    with ns as opened:
        scope = VariableScope(
            new_reuse, name=scope_name,
            initializer=initializer if initializer is not None else base.initializer,
            dtype=dtype if dtype is not None else base.dtype,
            use_resource=use_resource if use_resource is not None else base.use_resource,
            name_scope=name_scope or opened,
            regularizer=regularizer if regularizer is not None else base.regularizer,
            partitioner=partitioner if partitioner is not None else base.partitioner,
            custom_getter=_chained_getter(custom_getter, base.custom_getter))
        scopes.append(scope)
        try:
            yield scope
        finally:
            scopes.pop()
            if saved_counts is not None:
                store.scope_counts = saved_counts
            else:
                store.close_subscopes(scope_name)


def create_partitioned_variables(shape, slicing, initializer, dtype=dtypes.float32,
                                 trainable=True, collections=None, name=None, reuse=None):
    """The parts of a new variable (deprecated: get_variable with a partitioner), in a
    variable scope `name`, else "PartitionedVariable" made unique."""
    if len(shape) != len(slicing):
        raise ValueError("The 'shape' and 'slicing' of a partitioned Variable must have the "
                         f"length: shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with variable_scope(name, "PartitionedVariable", reuse=reuse):
        return list(get_partitioned_variable(
            None, shape=as_shape(shape), dtype=dtype, initializer=initializer,
            trainable=trainable, partitioner=lambda **unused_kwargs: slicing,
            collections=collections))
