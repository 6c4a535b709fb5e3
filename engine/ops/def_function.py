"""tf.function in graph mode: a Python function traced into a FunctionDef once per input
signature and called through PartitionedCall / StatefulPartitionedCall, as tf.compat.v1 with
v2 behaviour disabled does.

The tracing graph is tf.data's (engine/data/tracing.py: FunctionGraph captures outer tensors as
placeholders, function_def_from_ops writes the FunctionDef). Python control flow runs at trace
time (there is no autograph); tf.cond and tf.while_loop build their ops in the function body.
Variables a traced function creates are made in the outermost graph (TensorFlow lifts them out
of the function with init_scope), and only on the first trace. Stateful ops of a body run in
the order the Python code made them, as TensorFlow's automatic control dependencies order
them.
"""

import functools
import inspect
import itertools
import weakref

import numpy as np

from engine.data.tracing import FunctionGraph, function_def_from_ops
from engine.framework import dtypes
from engine.framework.graph import GraphKeys, get_default_graph
from engine.framework.operation import Operation
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.ops import nest
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.ops.variable_creator import variable_creator_scope
from engine.ops.variables import Variable
from engine.framework.type_spec import TensorSpec

# TensorFlow numbers functions with its process-wide uid; ours count this process's functions.
_UIDS = itertools.count(1)
_CONCRETE_BY_NAME = {}  # FunctionDef name -> ConcreteFunction, for the call ops' gradient


def function(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
             experimental_relax_shapes=False, experimental_compile=None,
             experimental_implements=None, experimental_follow_type_hints=None,
             jit_compile=None, reduce_retracing=False):
    """tf.function (tf.compat.v1.function): `func` compiled into graph functions."""
    def decorate(python_function):
        return functools.update_wrapper(
            Function(python_function, getattr(python_function, "__name__", "function"),
                     input_signature,
                     reduce_retracing=reduce_retracing or experimental_relax_shapes),
            python_function)
    return decorate if func is None else decorate(func)


class Function:
    """A polymorphic function: one ConcreteFunction per input signature and graph."""

    def __init__(self, python_function, name, input_signature=None, reduce_retracing=False):
        self._python_function = python_function
        self._reduce_retracing = reduce_retracing
        self._name = name
        self._input_signature = (None if input_signature is None
                                 else tuple(nest.flatten(input_signature)) and
                                 tuple(input_signature))
        self._signature = inspect.signature(python_function)
        self._cache = {}
        self._created_variables = None  # the variables the first trace made
        self._bound = weakref.WeakKeyDictionary()

    python_function = property(lambda self: self._python_function)
    input_signature = property(lambda self: self._input_signature)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            method = self._python_function.__get__(instance, owner)
            bound = self._bound[instance] = functools.update_wrapper(
                Function(method, self._name, self._input_signature,
                         self._reduce_retracing), self._python_function)
        return bound

    def __call__(self, *args, **kwargs):
        concrete, flat = self._concrete(args, kwargs)
        return concrete._call_flat(flat)

    def get_concrete_function(self, *args, **kwargs):
        if not args and not kwargs and self._input_signature is not None:
            args = self._input_signature
        return self._concrete(args, kwargs)[0]

    def experimental_get_tracing_count(self):
        return len(self._cache)

    def concrete_functions(self, graph=None):
        """The traces made in `graph` (the default graph), in the order they were made: what
        tf.saved_model.save keeps of a tf.function (TensorFlow's
        _list_all_concrete_functions_for_serialization), its input_signature's traced first."""
        graph = graph or get_default_graph()
        if self._input_signature is not None:
            self.get_concrete_function()
        return [concrete for key, concrete in self._cache.items() if key[0] == id(graph)]

    def _concrete(self, args, kwargs):
        """(ConcreteFunction, flat tensor arguments) for a call with `args`, `kwargs`."""
        graph = get_default_graph()
        if self._input_signature is not None:
            values = self._cast_to_signature(args, kwargs)
            specs = [TensorSpec(s.shape, s.dtype, s.name) for s in
                     nest.flatten(list(self._input_signature))]
            key = (id(graph), "signature")
            names = self._parameter_names(len(self._input_signature))
            structure = list(self._input_signature)
            leaf_names = _leaf_names(names, structure)
            flat_values = nest.flatten(values)
            bound = None
        else:
            bound = self._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            names = list(bound.arguments)
            structure = [nest.map_structure(_numpy_as_tensor, bound.arguments[n])
                         for n in names]
            leaf_names = self._bound_leaf_names(names, structure)
            flat_values = nest.flatten(structure)
            specs = [_leaf_spec(v) for v in flat_values]
            key = (id(graph), tuple(_leaf_key(v) for v in flat_values),
                   _structure_key(structure))
            if self._reduce_retracing and key not in self._cache:
                key, specs = self._relaxed(key, specs)
        concrete = self._cache.get(key)
        if concrete is None:
            traced = self._trace(graph, names, structure, specs, leaf_names, bound)
            if self._created_variables:
                # As TensorFlow does: the function that runs is traced again, where making a
                # variable is an error (so only a variable made once, on the first call, works).
                traced = self._trace(graph, names, structure, specs, leaf_names, bound)
            name = f"__inference_{_function_name(self._name)}_{next(_UIDS)}"
            concrete = self._cache[key] = ConcreteFunction(name, *traced)
            concrete._input_signature = tuple(nest.pack_sequence_as(structure, [
                TensorSpec(s.shape, s.dtype, s.name or leaf) if isinstance(s, TensorSpec) else s
                for s, leaf in zip(specs, leaf_names)]))
        flat = [v for v, s in zip(flat_values, specs) if isinstance(s, TensorSpec)]
        return concrete, flat

    def _relaxed(self, key, specs):
        """reduce_retracing (experimental_relax_shapes): the trace whose shapes this call's
        fit, else specs whose shapes are what this call and an earlier trace of the same
        structure and dtypes share (differing dims unknown, differing ranks unknown rank)."""
        candidates = [k for k in self._cache if k[0] == key[0] and k[2] == key[2]
                      and len(k[1]) == len(key[1])
                      and all(_same_kind(a, b) for a, b in zip(k[1], key[1]))]
        for cached in candidates:
            if all(_fits(new, old) for new, old in zip(key[1], cached[1])):
                return cached, [_spec_of(leaf, spec) for leaf, spec in zip(cached[1], specs)]
        if not candidates:
            return key, specs
        relaxed = tuple(_relax(new, old) for new, old in zip(key[1], candidates[-1][1]))
        return (key[0], relaxed, key[2]), [_spec_of(leaf, spec)
                                            for leaf, spec in zip(relaxed, specs)]

    def _bound_leaf_names(self, names, structure):
        """The placeholder name of each leaf: its parameter's name; `<name>_<i>` for the
        i-th of *args; the key for **kwargs."""
        result = []
        for name, value in zip(names, structure):
            kind = self._signature.parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                for index, item in enumerate(value):
                    result.extend([f"{name}_{index}"] * len(nest.flatten(item)))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                for key in sorted(value):
                    result.extend([str(key)] * len(nest.flatten(value[key])))
            else:
                result.extend([name] * len(nest.flatten(value)))
        return result

    def parameter_names(self):
        """The names of the positional parameters (a method's `self` left out)."""
        return [p.name for p in self._signature.parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def parameter_defaults(self):
        """The default values of the last positional parameters that have one."""
        defaults = [p.default for p in self._signature.parameters.values()
                    if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                    and p.default is not p.empty]
        return tuple(defaults)

    def _parameter_names(self, count):
        names = self.parameter_names()
        return (names + [f"args_{i}" for i in range(len(names), count)])[:count]

    def _cast_to_signature(self, args, kwargs):
        if kwargs:
            bound = self._signature.bind_partial(*args, **kwargs)
            values = list(bound.arguments.values())
        else:
            values = list(args)
        signature = list(self._input_signature)
        if len(values) != len(signature):
            raise TypeError(f"Binding inputs to tf.function failed: expected "
                            f"{len(signature)} arguments, got {len(values)}")
        converted = []
        for value, spec in zip(values, signature):
            flat_specs, flat_values = nest.flatten(spec), nest.flatten(value)
            out = []
            for v, s in zip(flat_values, flat_specs):
                if isinstance(v, TensorSpec):  # get_concrete_function(spec): no call
                    out.append(v)
                    continue
                tensor = convert_to_tensor(v, dtype_hint=s.dtype) if not isinstance(v, Tensor) \
                    else v
                if not s.is_compatible_with(tensor):
                    parameters = ", ".join(
                        f"{n}: {sp!r}" for n, sp in zip(self._parameter_names(len(signature)),
                                                         signature))
                    raise TypeError(
                        f"Binding inputs to tf.function failed due to `Can not cast "
                        f"{TensorSpec(tensor.shape, tensor.dtype)!r} to {s!r}`. Received "
                        f"args: {tuple(args)!r} and kwargs: {kwargs!r} for signature: "
                        f"({parameters}).")
                out.append(tensor)
            converted.append(nest.pack_sequence_as(spec, out))
        return converted

    def _trace(self, outer, names, structure, specs, leaf_names, bound):
        graph = FunctionGraph(outer)
        _share_variable_state(graph, outer)
        created = []

        def lift_variables(next_creator, **kwargs):
            if self._created_variables is not None:
                raise ValueError(
                    "tf.function only supports singleton tf.Variables created on the first "
                    "call. Make sure the tf.Variable is only created once or created outside "
                    "tf.function. See https://www.tensorflow.org/guide/function#creating_tf"
                    "variables for more information.")
            kwargs["use_resource"] = True  # TensorFlow's lifted variables are resource ones
            with _outermost(graph).as_default(), get_default_graph().control_dependencies(None):
                variable = next_creator(**kwargs)
            created.append(variable)
            return variable

        with graph.as_default(), variable_creator_scope(lift_variables):
            placeholders, flat_args = [], []
            for spec, value, leaf_name in zip(specs, nest.flatten(structure), leaf_names):
                if isinstance(spec, TensorSpec):
                    placeholder = apply_op("Placeholder", name=spec.name or leaf_name,
                                           dtype=spec.dtype, shape=spec.shape)
                    placeholders.append(placeholder)
                    flat_args.append(placeholder)
                else:
                    flat_args.append(value)
            packed = nest.pack_sequence_as(structure, flat_args)
            if bound is not None:
                for name, value in zip(names, packed):
                    bound.arguments[name] = value
                result = self._python_function(*bound.args, **bound.kwargs)
            else:
                result = self._python_function(*packed)
            flat_result = nest.flatten(result)
            for value in flat_result:
                if isinstance(value, Operation):
                    raise TypeError(
                        f"To be compatible with tf.function, Python functions must return "
                        f"zero or more Tensors or ExtensionTypes or None values; in "
                        f"compilation of {self._python_function}, found return value of type "
                        f"Operation, which is not a Tensor or ExtensionType.")
            stateful = _order_stateful_ops(graph)
            outputs = []
            with graph.control_dependencies(stateful):
                for value in flat_result:
                    for tensor in _components(value):
                        outputs.append(apply_op("Identity", name="Identity", input=tensor))
        if self._created_variables is None:
            self._created_variables = created
        return graph, placeholders, outputs, result, flat_result


class ConcreteFunction:
    """One traced body: its FunctionDef in the library, graph, inputs and outputs."""

    def __init__(self, name, graph, placeholders, outputs, structured_outputs, flat_result):
        self._function_name = name
        self.graph = graph
        self._placeholders = placeholders
        self._capture_count = len(graph.captures)
        self.outputs = outputs
        self._flat_result = flat_result
        self.structured_outputs = nest.pack_sequence_as(
            structured_outputs, _rebuild(flat_result, iter(outputs)))
        out_names = ["identity" if i == 0 else f"identity_{i}" for i in range(len(outputs))]
        arguments = [(p.op, p.op.name) for p in self.inputs]
        self.function_def = function_def_from_ops(name, graph.get_operations(), arguments,
                                                  list(zip(outputs, out_names)))
        # TensorFlow's attrs: where the function was built, each argument's user-given name
        # (a capture's: the outer op's) and known shape.
        self.function_def.attr["_construction_context"].s = b"kEagerRuntime"
        outer_names = [outer.op.name for outer in self.captured_inputs]
        for index, placeholder in enumerate(self.inputs):
            attrs = self.function_def.arg_attr[index].attr
            user_name = (placeholder.op.name if index < len(placeholders)
                         else outer_names[index - len(placeholders)])
            attrs["_user_specified_name"].s = user_name.encode()
            shape = placeholder.shape
            if placeholder.dtype != dtypes.resource:
                attrs["_output_shapes"].list.shape.add().CopyFrom(shape.as_proto())
        graph.outer._add_function(self.function_def)
        _CONCRETE_BY_NAME[name] = self
        self._backward = None
        self._input_signature = ()

    @property
    def name(self):
        """The FunctionDef's name, as bytes (TensorFlow's ConcreteFunction.name)."""
        return self._function_name.encode()

    @property
    def inputs(self):
        """The body's placeholders: the arguments, then the captured outer tensors."""
        return self._placeholders + [p for _, p in self.graph.captures[:self._capture_count]]

    @property
    def structured_input_signature(self):
        """(the arguments, TensorSpecs for tensors, Python values as given; {})."""
        return self._input_signature, {}

    @property
    def variables(self):
        """The variables the body reads (by their captured handles)."""
        by_handle = {}
        outer = _outermost(self.graph)
        for variable in (outer.get_collection(GraphKeys.GLOBAL_VARIABLES)
                         + outer.get_collection(GraphKeys.LOCAL_VARIABLES)):
            handle = getattr(variable, "_handle", None)
            if handle is not None:
                by_handle.setdefault(handle.name, variable)
        return tuple(by_handle[t.name] for t in self.captured_inputs if t.name in by_handle)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def captured_inputs(self):
        return [outer for outer, _ in self.graph.captures[:self._capture_count]]

    def __call__(self, *args):
        flat = [convert_to_tensor(a) for a in nest.flatten(list(args))]
        return self._call_flat(flat)

    def _call_flat(self, args):
        stateful = self.function_def.signature.is_stateful
        op_type = "StatefulPartitionedCall" if stateful else "PartitionedCall"
        inputs = [convert_to_tensor(a) for a in args] + self.captured_inputs
        out_types = [t.dtype for t in self.outputs]
        results = apply_op(op_type, args=inputs, Tout=out_types, f=self._function_name)
        if isinstance(results, Operation):
            results = []
        for result, output in zip(results, self.outputs):
            result.set_shape(output.shape)
        return nest.pack_sequence_as(self.structured_outputs,
                                     _rebuild(self._flat_result, iter(results)))


def _components(value):
    """The tensors a returned value is made of: a tensor, a variable's value, an
    IndexedSlices' values, indices (and dense shape); none for a Python value."""
    if isinstance(value, Variable):
        return [value.value()]
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, IndexedSlices):
        parts = [value.values, value.indices]
        return parts + ([value.dense_shape] if value.dense_shape is not None else [])
    return []


def _rebuild(flat_result, tensors):
    """The returned values again, from `tensors` (the call's outputs, in _components' order)."""
    flat = []
    for value in flat_result:
        if isinstance(value, (Tensor, Variable)):
            flat.append(next(tensors))
        elif isinstance(value, IndexedSlices):
            values, indices = next(tensors), next(tensors)
            dense_shape = next(tensors) if value.dense_shape is not None else None
            flat.append(IndexedSlices(values, indices, dense_shape))
        else:
            flat.append(value)
    return flat


def concrete_function_named(name):
    return _CONCRETE_BY_NAME.get(name)


def register_function_name(name, concrete):
    """Another FunctionDef name (the forward function a gradient made) of `concrete`."""
    _CONCRETE_BY_NAME[name] = concrete


# The collections a function graph shares with its outer graph (TensorFlow's FuncGraph
# ALLOWLIST_COLLECTIONS); it gets a copy of the others.
_SHARED_COLLECTIONS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES,
                       GraphKeys.TRAINABLE_VARIABLES)


def _share_variable_state(graph, outer):
    """As TensorFlow's FuncGraph: the outer graph's variable store and variable scopes (so
    tf.get_variable inside finds the variables of an earlier trace) and its variable
    collections, by reference."""
    if outer._variable_scope_stores is None:
        from engine.ops import variable_scope
        with outer.as_default():
            variable_scope._store()
    graph._variable_scope_stores = outer._variable_scope_stores
    for key in outer.get_all_collection_keys():
        if key not in _SHARED_COLLECTIONS:
            graph._collections[key] = list(outer.get_collection(key))
    for key in _SHARED_COLLECTIONS:
        graph._collections[key] = outer.get_collection_ref(key)


def _outermost(graph):
    while isinstance(graph, FunctionGraph):
        graph = graph.outer
    return graph


def _order_stateful_ops(graph):
    """TensorFlow's automatic control dependencies, in short: each op that touches a resource
    runs after the op before it on that resource, and every stateful op before the outputs."""
    last_on_resource, stateful = {}, []
    for op in graph.get_operations():
        if op.type == "Placeholder" or op._get_control_flow_context() is not None:
            continue  # v1 control flow orders the ops of a cond or loop itself
        for tensor in op.inputs:
            if tensor.dtype.base_dtype == dtypes.resource:
                previous = last_on_resource.get(tensor.name)
                if previous is not None and previous not in op.control_inputs:
                    op._add_control_input(previous)
                last_on_resource[tensor.name] = op
        if op.op_def.is_stateful:
            stateful.append(op)
    return stateful


def _leaf_names(names, structure):
    result = []
    for name, value in zip(names, structure):
        count = len(nest.flatten(value))
        result.extend([name] * count)
    return result


def _numpy_as_tensor(value):
    """A NumPy array argument is a tensor to tf.function (traced per dtype and shape)."""
    return convert_to_tensor(value) if isinstance(value, np.ndarray) else value


def _leaf_spec(value):
    if isinstance(value, TensorSpec):
        return value
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    return value


def _leaf_key(value):
    if isinstance(value, (Tensor, TensorSpec)):
        shape = value.shape
        return ("tensor", value.dtype, None if shape.ndims is None else tuple(shape.as_list()))
    if isinstance(value, Variable):
        return ("variable", id(value))
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    return ("python", type(value), value)


def _same_kind(a, b):
    if a[0] == "tensor" and b[0] == "tensor":
        return a[1] == b[1]
    return a == b


def _fits(new, old):
    """Whether leaf key `new` fits a trace made for leaf key `old`."""
    if new[0] != "tensor":
        return new == old
    if old[2] is None:
        return True
    return new[2] is not None and len(new[2]) == len(old[2]) and all(
        o is None or n == o for n, o in zip(new[2], old[2]))


def _relax(new, old):
    if new[0] != "tensor" or new == old:
        return new
    if new[2] is None or old[2] is None or len(new[2]) != len(old[2]):
        return ("tensor", new[1], None)
    return ("tensor", new[1], tuple(n if n == o else None for n, o in zip(new[2], old[2])))


def _spec_of(leaf, spec):
    if leaf[0] != "tensor":
        return spec
    return TensorSpec(TensorShape(None if leaf[2] is None else list(leaf[2])), leaf[1],
                      spec.name)


def _structure_key(structure):
    if isinstance(structure, dict):
        return ("dict", tuple((k, _structure_key(structure[k])) for k in sorted(structure)))
    if isinstance(structure, (list, tuple)):
        return (type(structure).__name__, tuple(_structure_key(s) for s in structure))
    return None


def _function_name(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


__all__ = ["function", "Function", "ConcreteFunction", "TensorSpec"]
