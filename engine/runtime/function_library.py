"""Functions: a FunctionDefLibrary's bodies instantiated as plans, cached per (name, attrs).

A FunctionDef body names its inputs as TensorFlow's function library does: a function
argument by its name ("x", or "x:i" for the i-th tensor of a list argument), another node's
output as `node:output_arg_name:index` (index within that output arg), a control input as
`^node`; `ret` maps each output arg to such a name; node attrs may be placeholders (`$T`,
AttrValue.placeholder) filled from the call's attrs. Instantiation rewrites the body into a
GraphDef of plain tensor names (`node:k`, k the flat output index), each argument a
Placeholder the plan feeds (an _Arg, as TensorFlow's InstantiateFunction makes), the
outputs its fetches, and its stateful nodes and control outputs its targets, then plans it
(engine/runtime/plan.py) and binds an Executor for it once per library, that is per session.

Function-call nodes (an op type naming a library function) and the functional ops
(engine/kernels/cpu/functional.py: PartitionedCall, If, While, Case and their stateless
forms) run bodies through `FunctionLibrary.call`.
"""

import sys
import threading

from engine.framework import dtypes, errors, op_registry
from engine.framework.function_graph import (recursion_message, recursive_call,
                                             substitute_placeholders)
from engine.runtime.plan import NodeInfo, build, input_ref_flags
from engine.proto import node_def_pb2

LIBRARY_KEY = "function_library"  # where a session's library lives in its session_state


class FunctionLibrary:
    """The functions one graph carries, instantiated on demand."""

    def __init__(self, functions, resources=None, rng_factory=None, session_state=None,
                 max_loop_iterations=None, executor_class=None):
        self.functions = dict(functions)
        # The engine's Executor, handed in by it: a body runs on one as any plan does.
        self.executor_class = executor_class
        self.resources, self.rng_factory = resources, rng_factory
        self.session_state = session_state if session_state is not None else {}
        self.max_loop_iterations = max_loop_iterations
        self._instances = {}

    def __contains__(self, name):
        return name in self.functions

    def signature(self, name):
        return self.functions[name].signature

    def instantiate(self, name, attrs=None):
        """The Instance of function `name` for the call's attrs (an AttrValue map)."""
        attrs = attrs or {}
        key = (name, tuple(sorted((k, v.SerializeToString(deterministic=True))
                                  for k, v in attrs.items() if not k.startswith("_"))))
        instance = self._instances.get(key)
        if instance is None:
            if name not in self.functions:
                raise errors.NotFoundError(None, None, f"Function {name} is not defined.")
            chain = recursive_call(name, self.functions)
            if chain:  # each call would instantiate and run the next, without end
                raise errors.InvalidArgumentError(None, None, recursion_message(chain))
            instance = self._instances[key] = Instance(self, self.functions[name], attrs)
        return instance

    def call(self, name, attrs, args, step_id=0):
        return self.instantiate(name, attrs).call(args, step_id)


class Instance:
    """One instantiated function body: its plan, bound executor and output order."""

    def __init__(self, library, function_def, call_attrs):
        self.name = function_def.signature.name
        signature = function_def.signature
        attrs = _function_attrs(signature, call_attrs)
        nodes, order, arg_tensors = {}, [], []
        for arg in signature.input_arg:
            for i, dtype in enumerate(_arg_dtypes(arg, attrs)):
                name = arg.name if i == 0 else f"{arg.name}/_{i}"
                placeholder = node_def_pb2.NodeDef(name=name, op="Placeholder")
                placeholder.attr["dtype"].type = dtype.as_datatype_enum
                nodes[name] = NodeInfo(name, "Placeholder", placeholder, [], [], [dtype])
                order.append(name)
                arg_tensors.append(f"{name}:0")
        bodies = {node.name: node for node in function_def.node_def}
        resolve = _Resolver(library, signature, attrs, bodies)
        targets = []
        for body_node in function_def.node_def:
            info = resolve.node(body_node)
            nodes[info.name] = info
            order.append(info.name)
            if info.is_stateful:
                targets.append(info.name)
        targets.extend(function_def.control_ret.values())
        self.output_names = [resolve.tensor(function_def.ret[arg.name])
                             for arg in signature.output_arg]
        fetches = sorted(set(self.output_names))
        position = {name: i for i, name in enumerate(fetches)}
        self.output_positions = [position[name] for name in self.output_names]
        self.arg_tensors = arg_tensors
        self.plan = build(nodes, order, arg_tensors, fetches, sorted(set(targets)))
        self.executor = library.executor_class(self.plan, library.resources, library.rng_factory,
                                 library.session_state,
                                 max_loop_iterations=library.max_loop_iterations,
                                 library=list(library.functions.values()))
        fed = set(self.plan.feed_names)
        self._feed_order = [arg_tensors.index(name) for name in self.plan.feed_names
                            if name in fed]

    def call(self, args, step_id=0):
        """The function's outputs (a list) for `args` (one value per flat argument)."""
        if len(args) != len(self.arg_tensors):
            raise errors.InvalidArgumentError(
                None, None, f"Function {self.name} expects {len(self.arg_tensors)} arguments, "
                            f"got {len(args)}")
        level = getattr(_nesting, "level", 0) + 1
        _nesting.level = level
        _make_room_for(level)
        try:
            results = self.executor.run([args[i] for i in self._feed_order], step_id)
        finally:
            _nesting.level = level - 1
        return [_as_value(results[p]) for p in self.output_positions]


# Each nested function call runs its body's executor inside the caller's: 9 Python frames a
# level. TensorFlow runs a chain of 1,000 functions each calling the next; under Python's
# default limit of 1,000 frames the engine stopped near 110 (RecursionError). The limit is
# raised as calls nest, FRAMES_PER_CALL a level, up to MAX_RECURSION_LIMIT (1,250 levels; a
# thread's 8 MB stack holds that); deeper is the RecursionError, one line from the CLI.
FRAMES_PER_CALL = 16
MAX_RECURSION_LIMIT = 20_000
_nesting = threading.local()


def _make_room_for(level):
    wanted = min(MAX_RECURSION_LIMIT, 1000 + level * FRAMES_PER_CALL)
    if wanted > sys.getrecursionlimit():
        sys.setrecursionlimit(wanted)


def _as_value(value):
    """A fetched 0-d value back to an ndarray (fetches give NumPy scalars)."""
    import numpy as np
    return np.asarray(value) if isinstance(value, np.generic) else value


class _Resolver:
    """Body NodeDefs to NodeInfos over flat tensor names."""

    def __init__(self, library, signature, attrs, bodies):
        self.library, self.attrs, self.bodies = library, attrs, bodies
        self.args = {}
        for arg in signature.input_arg:
            count = len(_arg_dtypes(arg, attrs))
            self.args[arg.name] = [arg.name if i == 0 else f"{arg.name}/_{i}"
                                   for i in range(count)]
        self._op_defs = {}

    def op_def(self, op_type):
        op_def = self._op_defs.get(op_type)
        if op_def is None:
            op_def = (self.library.signature(op_type) if op_type in self.library
                      else op_registry.get(op_type))
            self._op_defs[op_type] = op_def
        return op_def

    def node(self, body_node):
        node_def = node_def_pb2.NodeDef()
        node_def.CopyFrom(body_node)
        for key, value in list(node_def.attr.items()):
            node_def.attr[key].CopyFrom(_substitute(value, self.attrs))
        op_def = self.op_def(node_def.op)
        op_registry.add_default_attrs(node_def, op_def)
        data, control = [], []
        for name in body_node.input:
            if name.startswith("^"):
                control.append(name[1:])
            else:
                data.append(self.tensor(name))
        del node_def.input[:]
        node_def.input.extend(data + ["^" + c for c in control])
        inputs = [_split(t) for t in data]
        is_function = node_def.op in self.library
        return NodeInfo(node_def.name, node_def.op, node_def, inputs, control,
                        op_registry.output_dtypes(op_def, node_def.attr),
                        input_ref_flags(op_def, node_def), device=node_def.device,
                        is_stateful=bool(op_def.is_stateful) and not is_function)

    def tensor(self, name):
        """'node:out_arg:i' or 'arg' / 'arg:i' as a flat tensor name 'node:k'."""
        parts = name.split(":")
        if parts[0] in self.args and parts[0] not in self.bodies:
            index = int(parts[1]) if len(parts) > 1 else 0
            return f"{self.args[parts[0]][index]}:0"
        if len(parts) == 1:
            return f"{parts[0]}:0"
        if len(parts) == 2:
            return name
        node_name, out_name, index = parts
        body = self.bodies.get(node_name)
        if body is None:
            raise errors.InvalidArgumentError(None, None, f"Function input '{name}' names no node")
        op_def = self.op_def(body.op)
        attrs = {k: _substitute(v, self.attrs) for k, v in body.attr.items()}
        for attr in op_def.attr:
            if attr.name not in attrs and attr.HasField("default_value"):
                attrs[attr.name] = attr.default_value
        offset = 0
        for arg in op_def.output_arg:
            if arg.name == out_name:
                return f"{node_name}:{offset + int(index)}"
            offset += _arg_count(arg, attrs)
        raise errors.InvalidArgumentError(
            None, None, f"Node '{node_name}' ({body.op}) has no output named '{out_name}'")


def _split(tensor):
    node, _, index = tensor.rpartition(":")
    return node, int(index)


def _function_attrs(signature, call_attrs):
    """The call's attrs by name, with the signature's defaults (AttrValues)."""
    attrs = {k: v for k, v in call_attrs.items()}
    for attr in signature.attr:
        if attr.name not in attrs and attr.HasField("default_value"):
            attrs[attr.name] = attr.default_value
    return attrs


def _substitute(value, attrs):
    """An AttrValue with placeholders ($T) replaced by the call's attrs; one the call lacks is
    TensorFlow's InvalidArgumentError."""
    return substitute_placeholders(value, attrs, missing=_undefined_attr)


def _undefined_attr(name):
    raise errors.InvalidArgumentError(
        None, None, f"Attr {name} is not defined in the function call")


def _arg_count(arg, attrs):
    if arg.number_attr:
        return attrs[arg.number_attr].i
    if arg.type_list_attr:
        return len(attrs[arg.type_list_attr].list.type)
    return 1


def _arg_dtypes(arg, attrs):
    """The DTypes of one signature argument given the call's attrs."""
    if arg.type_list_attr:
        return [dtypes.as_dtype(t) for t in _attr(attrs, arg.type_list_attr).list.type]
    if arg.type:
        dtype = dtypes.as_dtype(arg.type)
    else:
        dtype = dtypes.as_dtype(_attr(attrs, arg.type_attr).type)
    return [dtype] * (_attr(attrs, arg.number_attr).i if arg.number_attr else 1)


def _attr(attrs, name):
    if name not in attrs:
        raise errors.InvalidArgumentError(
            None, None, f"Attr {name} is not defined in the function call")
    return attrs[name]


def library_of(executor_nodes, extra=None):
    """The functions visible to a plan: those of the graph its ops belong to, and `extra`."""
    functions = {}
    for node in executor_nodes:
        op = node.op
        if op is not None:
            functions.update(op.graph._functions)
            break
    if extra is not None:
        functions.update({f.signature.name: f for f in getattr(extra, "function", extra)})
    return functions
