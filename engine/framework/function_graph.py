"""A FunctionDef as a graph of its own, as TensorFlow's InstantiateFunction makes it.

A FunctionDef body names tensors in its own syntax: a function argument by its name (`x`, or
`x:i` for the i-th tensor of a list argument), another node's output as
`node:output_arg_name:index` (the index within that output argument), a control input as
`^node`; `ret` maps each output argument to such a name. TensorFlow turns it into a graph
(tensorflow/core/framework/function.cc, FunctionInstantiationHelper) where:
- each argument is an `_Arg` node named after it (`x`; `x_0`, `x_1`, ... for a list), with
  attrs `T` and `index`;
- each body node keeps its name, its inputs flat (`node` for output 0, `node:k`), control
  inputs last;
- each output is a `_Retval` node named `<output arg>_RetVal` (`_RetVal_0`, ... for a list),
  with attrs `T` and `index`.
Readers, views and the engine's inliner all see function bodies through this one conversion.

>>> from engine.proto import function_pb2
>>> f = function_pb2.FunctionDef()
>>> f.signature.name = "twice"
>>> arg = f.signature.input_arg.add(name="x", type=1)
>>> out = f.signature.output_arg.add(name="y", type=1)
>>> node = f.node_def.add(name="double", op="AddV2", input=["x", "x"])
>>> node.attr["T"].type = 1
>>> f.ret["y"] = "double:z:0"
>>> [(n.name, n.op, list(n.input)) for n in function_body_graph(f).node]
[('x', '_Arg', []), ('double', 'AddV2', ['x', 'x']), ('y_RetVal', '_Retval', ['double'])]
"""

from engine.framework import op_registry, tensorflow_op_list
from engine.proto import attr_value_pb2, graph_pb2

ARG_OP, RET_OP = "_Arg", "_Retval"
# Attrs whose value names a function the node calls (functional control flow, calls, tf.data).
CALL_ATTRS = ("f", "body", "cond", "then_branch", "else_branch", "branches")


class FunctionGraphError(ValueError):
    """A FunctionDef whose body cannot be read as a graph; the message says what and where."""


def function_body_graph(function_def, library=None, call_attrs=None, op_defs=None):
    """The GraphDef of `function_def`'s body: `_Arg` and `_Retval` nodes around the body's
    nodes, every input flat. `library` (name -> FunctionDef) gives the signatures of the
    functions the body calls by op name; `call_attrs` (name -> AttrValue) fills a polymorphic
    function's attrs (`$T` placeholders) as a call instantiates it; `op_defs` (op name ->
    OpDef, e.g. a meta graph's stripped_op_list) gives OpDefs first; then the engine's, then
    TensorFlow's (tensorflow_op_list), so that any op's outputs resolve exactly."""
    return _Instantiation(function_def, library or {}, call_attrs or {}, op_defs or {}).graph()


def called_functions(node_def, library_names=()):
    """The names of the functions a node calls: any func-valued attr (a list of them too),
    and its op when the op is a library function."""
    names = []
    for value in node_def.attr.values():
        if value.HasField("func"):
            names.append(value.func.name)
        elif value.HasField("list"):
            names.extend(item.name for item in value.list.func)
    if node_def.op in library_names:
        names.append(node_def.op)
    return [name for name in names if name]


def reachable_functions(graph_def, library):
    """The library functions the graph still calls, and those they call (Grappler prunes
    the rest; a session gives its optimizer only these, so a library of 10^5 functions
    costs a run what it calls, not a copy of every function per run signature)."""
    names = set(library)
    stack = [name for node in graph_def.node for name in called_functions(node, names)]
    kept = set()
    while stack:
        name = stack.pop()
        if name in names and name not in kept:
            kept.add(name)
            for node in library[name].node_def:
                stack.extend(called_functions(node, names))
    return [library[name] for name in sorted(kept)]


def recursive_call(name, library):
    """The chain of calls by which function `name` calls itself (`["f", "g", "f"]`), or None:
    such a function can be neither inlined (that would never end) nor run.

    >>> from engine.proto import function_pb2
    >>> f = function_pb2.FunctionDef()
    >>> f.signature.name = "f"
    >>> _ = f.node_def.add(name="again", op="f")
    >>> recursive_call("f", {"f": f})
    ['f', 'f']
    """
    names = set(library)
    if name not in library:
        return None
    # Depth first without Python recursion: a chain of 1,000 functions each calling the
    # next was a RecursionError here. Each stack entry: a function and its callees to visit.
    path, on_path, done = [name], {name}, set()
    stack = [iter(_callees(library[name], names))]
    while stack:
        callee = next(stack[-1], None)
        if callee is None:
            stack.pop()
            finished = path.pop()
            on_path.discard(finished)
            done.add(finished)
            continue
        if callee == name:
            return path + [callee]
        if callee in on_path or callee in done or callee not in library:
            continue
        path.append(callee)
        on_path.add(callee)
        stack.append(iter(_callees(library[callee], names)))
    return None


def _callees(function_def, names):
    for node in function_def.node_def:
        yield from called_functions(node, names)


def recursion_message(chain):
    """The error's words for a function calling itself through `chain`."""
    return (f"Function {chain[0]} calls itself ({' -> '.join(chain)}): a recursive function can "
            f"be neither inlined nor run")


class _Instantiation:
    def __init__(self, function_def, library, call_attrs, op_defs):
        self.function_def, self.library, self.op_defs = function_def, library, op_defs
        self.signature = function_def.signature
        self.attrs = dict(call_attrs)
        for attr in self.signature.attr:
            if attr.name not in self.attrs and attr.HasField("default_value"):
                self.attrs[attr.name] = attr.default_value
        self.bodies = {node.name: node for node in function_def.node_def}
        self.args = {}        # arg name -> the _Arg node names of its tensors
        self.arg_types = {}   # arg name -> its dtypes (None where unknown)

    def graph(self):
        graph = graph_pb2.GraphDef()
        for index, (arg, dtype, name) in enumerate(self._arg_nodes()):
            node = graph.node.add(name=name, op=ARG_OP)
            if dtype is not None:
                node.attr["T"].type = _ref(dtype) if arg.is_ref else dtype
            node.attr["index"].i = index
        for body in self.function_def.node_def:
            node = graph.node.add()
            node.CopyFrom(body)
            for key, value in body.attr.items():
                node.attr[key].CopyFrom(self._substitute(value, body))
            data = [self.tensor(name, body) for name in body.input if not name.startswith("^")]
            control = [name for name in body.input if name.startswith("^")]
            del node.input[:]
            node.input.extend(data + control)
        index = 0
        for ret in self.signature.output_arg:
            if ret.name not in self.function_def.ret:
                raise FunctionGraphError(
                    f"function {self.signature.name}: return {ret.name} missing")
            source = self.function_def.ret[ret.name]
            dtypes = self._dtypes(ret, self.attrs)
            node_name, first = _split(self.tensor(source, None))
            for i, dtype in enumerate(dtypes):
                name = f"{ret.name}_RetVal" + (f"_{i}" if len(dtypes) > 1 else "")
                node = graph.node.add(name=name, op=RET_OP, input=[_join(node_name, first + i)])
                if dtype is not None:
                    node.attr["T"].type = _ref(dtype) if ret.is_ref else dtype
                node.attr["index"].i = index
                index += 1
        return graph

    def _arg_nodes(self):
        for arg in self.signature.input_arg:
            dtypes = self._dtypes(arg, self.attrs)
            names = [arg.name if len(dtypes) == 1 else f"{arg.name}_{i}"
                     for i in range(len(dtypes))]
            self.args[arg.name] = names
            for dtype, name in zip(dtypes, names):
                yield arg, dtype, name

    def tensor(self, reference, reader):
        """A body's tensor reference (`x`, `x:i`, `node:out_arg:i`, or a flat `node:k`) as a
        flat tensor name of the instantiated graph."""
        parts = reference.split(":")
        if parts[0] in self.args and parts[0] not in self.bodies:
            index = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            names = self.args[parts[0]]
            if index >= len(names):
                raise FunctionGraphError(self._where(reader, f"input {reference} is not found"))
            return names[index]
        if parts[0] not in self.bodies:
            raise FunctionGraphError(self._where(reader, f"input {reference} is not found"))
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            return _join(parts[0], int(parts[1])) if parts[1].isdigit() else parts[0]
        node_name, out_name, index = parts[0], parts[1], parts[2]
        if not index.isdigit():
            raise FunctionGraphError(self._where(reader, f"input {reference} is not found"))
        return _join(node_name, self._output_offset(node_name, out_name, reader) + int(index))

    def _output_offset(self, node_name, out_name, reader):
        body = self.bodies[node_name]
        op_def = self._op_def(body.op)
        if op_def is None:
            # An op TensorFlow does not know either (a custom op): its outputs' sizes are
            # unknown, so each output argument is taken as one tensor, in the order the body
            # names them.
            return self._unknown_op_offset(node_name, out_name)
        attrs = {key: self._substitute(value, body) for key, value in body.attr.items()}
        for attr in op_def.attr:
            if attr.name not in attrs and attr.HasField("default_value"):
                attrs[attr.name] = attr.default_value
        offset = 0
        for arg in op_def.output_arg:
            if arg.name == out_name:
                return offset
            offset += len(self._dtypes(arg, attrs))
        raise FunctionGraphError(self._where(
            reader, f"node {node_name} ({body.op}) has no output named {out_name!r}"))

    def _unknown_op_offset(self, node_name, out_name):
        seen = []
        for body in self.function_def.node_def:
            for name in list(body.input) + list(self.function_def.ret.values()):
                parts = name.split(":")
                if len(parts) == 3 and parts[0] == node_name and parts[1] not in seen:
                    seen.append(parts[1])
        return seen.index(out_name) if out_name in seen else 0

    def _op_def(self, op_type):
        if op_type in self.library:
            return self.library[op_type].signature
        return (self.op_defs.get(op_type) or op_registry.lookup(op_type)
                or tensorflow_op_list.lookup(op_type))

    def _dtypes(self, arg, attrs):
        """The dtypes (DataType enums, None where unknown) of one argument's tensors."""
        if arg.type_list_attr:
            value = attrs.get(arg.type_list_attr)
            return list(value.list.type) if value is not None else [None]
        dtype = arg.type or None
        if dtype is None and arg.type_attr in attrs:
            dtype = attrs[arg.type_attr].type
        count = 1
        if arg.number_attr:
            value = attrs.get(arg.number_attr)
            count = value.i if value is not None else 1
        return [dtype] * count

    def _substitute(self, value, node):
        # A polymorphic body read without a call keeps its placeholders as written.
        return substitute_placeholders(value, self.attrs, missing=lambda name: None)

    def _where(self, node, what):
        place = f", node {node.name}" if node is not None else ""
        return f"function {self.signature.name}{place}: {what}"


def substitute_placeholders(value, attrs, missing):
    """`value` (an AttrValue) with its placeholders (`$T`, in it or in a func's attrs) replaced
    by `attrs` (name -> AttrValue), as instantiating a function does. A placeholder `attrs`
    lacks is `missing(name)`'s to answer: an AttrValue, None to keep it as written, or an
    error raised."""
    if value.placeholder:
        if value.placeholder in attrs:
            return attrs[value.placeholder]
        replacement = missing(value.placeholder)
        return value if replacement is None else replacement
    if value.HasField("func") and any(v.placeholder for v in value.func.attr.values()):
        result = attr_value_pb2.AttrValue()
        result.CopyFrom(value)
        for key, inner in value.func.attr.items():
            result.func.attr[key].CopyFrom(substitute_placeholders(inner, attrs, missing))
        return result
    return value


def _ref(dtype):
    return dtype + 100 if dtype < 100 else dtype  # DT_FLOAT -> DT_FLOAT_REF, as MakeRefType


def _split(tensor):
    node, _, index = tensor.partition(":")
    return node, int(index) if index else 0


def _join(node, index):
    return node if index == 0 else f"{node}:{index}"

