"""A SavedModel's SavedObjectGraph: its Python objects by path, their functions with each concrete
function's argument specs, and what each signature calls, read without TensorFlow.

`saved_model_cli show --all` loads the model with TensorFlow (5-10 s) to list the root
object's functions; the same facts are in the meta graph's object_graph_def: each object's
children by Python name, each tf.function's concrete functions, each concrete function's
canonicalized input signature (a StructuredValue: TensorSpecs, Python values such as
`training=True`). Options are ordered as saved_model_cli orders them: by the name a load gives
each concrete function, the cleaned name and then the order TensorFlow's loader creates them in
(function_deserialization._sort_function_defs, a topological sort of the library).

>>> from engine.proto import struct_pb2
>>> spec = struct_pb2.StructuredValue(tensor_spec_value={
...     "name": "x", "dtype": 1, "shape": {"dim": [{"size": -1}]}})
>>> value_text(spec), value_text(struct_pb2.StructuredValue(bool_value=True))
("TensorSpec(shape=(None,), dtype=tf.float32, name='x')", 'True')
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from engine.framework import dtypes
from parsers.checkpoint_names import first_paths
from parsers.functions import call_attrs

_INFERENCE_NAME = re.compile(r"^__inference_(.*)_\d+$")  # function_deserialization's regex


@dataclass(frozen=True)
class Argument:
    """One argument of a concrete function: `name` (a TensorSpec's own name, else the Python
    parameter's, "" when neither is known), `type_name` (Python's: "TensorSpec", "bool",
    "NoneType", ...) and `value` (its repr as TensorFlow prints it)."""

    name: str
    type_name: str
    value: str

    @property
    def text(self):
        """`x: TensorSpec(...)`, `training=True`, or the value alone."""
        if self.type_name == "TensorSpec":
            return f"{self.name}: {self.value}"
        return f"{self.name}={self.value}" if self.name else self.value


@dataclass(frozen=True)
class ConcreteOption:
    """One concrete function of a saved function: the library function's name, its positional
    arguments and its keyword arguments (in the saved order)."""

    function: str
    args: tuple[Argument, ...]
    kwargs: tuple[Argument, ...]

    @property
    def call_text(self):
        return "(" + ", ".join(a.text for a in self.args + self.kwargs) + ")"


@dataclass(frozen=True)
class SavedFunction:
    """A tf.function (or a bare concrete function) of the object graph, at `path` (Python
    attribute names joined by dots: `layer_with_weights-0.__call__`)."""

    path: str
    node_id: int
    options: tuple[ConcreteOption, ...]


@dataclass(frozen=True)
class SavedObject:
    """One object: its path ("" for the root), its kind (the SavedObject oneof: user_object,
    variable, function, bare_concrete_function, constant, resource, asset, captured_tensor)
    and what says most about it (a user object's identifier, a variable's name)."""

    node_id: int
    path: str
    kind: str
    detail: str


class SavedObjects:
    """The SavedObjectGraph of one meta graph; `library_graph` (a GraphDef whose library holds
    the concrete functions) lets `signature_calls` follow calls into the bodies."""

    def __init__(self, object_graph_def, graph_def=None):
        self.proto = object_graph_def
        self.graph_def = graph_def
        self.paths = _first_paths(object_graph_def)
        self._load_order = None
        self._functions = None

    @property
    def objects(self):
        """Every object reachable from the root, in node order, with its first path."""
        found = []
        for node_id, node in enumerate(self.proto.nodes):
            if node_id not in self.paths:
                continue
            kind = node.WhichOneof("kind") or ""
            found.append(SavedObject(node_id, self.paths[node_id], kind, _detail(node, kind)))
        return found

    def kind_counts(self):
        """How many objects of each kind, most first."""
        counts = defaultdict(int)
        for item in self.objects:
            counts[item.kind] += 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def functions(self, root_only=False):
        """Every saved function by path (sorted), or only the root object's, as
        saved_model_cli lists them (its `Function Name`s)."""
        if self._functions is None:
            self._functions = self._saved_functions()
        return [f for f in self._functions if not (root_only and "." in f.path)]

    def _saved_functions(self):
        found = []
        ids = {path: node_id for node_id, path in self.paths.items()}
        for node_id, path in self.paths.items():
            node = self.proto.nodes[node_id]
            kind = node.WhichOneof("kind")
            if kind not in ("function", "bare_concrete_function"):
                continue
            parent = ids.get(path.rpartition(".")[0]) if "." in path else None
            if (kind == "bare_concrete_function" and parent is not None
                    and self.proto.nodes[parent].WhichOneof("kind") == "function"):
                continue  # a tf.function's `trace_N`: one of its options, listed with it
            found.append(SavedFunction(path, node_id, self._options(node, kind)))
        return sorted(found, key=lambda f: f.path)

    def concrete_function_paths(self):
        """Library function name -> the paths of the saved functions it is an option of."""
        paths = defaultdict(list)
        for function in self.functions():
            for option in function.options:
                paths[option.function].append(function.path)
        return dict(paths)

    def signatures(self):
        """Signature key -> the concrete function its wrapper is (the root's `signatures`)."""
        root = self.proto.nodes[0] if self.proto.nodes else None
        for child in root.children if root is not None else ():
            if child.local_name == "signatures":
                found = {}
                for entry in self.proto.nodes[child.node_id].children:
                    node = self.proto.nodes[entry.node_id]
                    if node.WhichOneof("kind") == "bare_concrete_function":
                        found[entry.local_name] = node.bare_concrete_function.concrete_function_name
                    elif node.WhichOneof("kind") == "function" and node.function.concrete_functions:
                        found[entry.local_name] = node.function.concrete_functions[0]
                return found
        return {}

    def signature_calls(self, function_name):
        """The saved functions a signature wrapper (or any library function) calls: each
        (path, concrete function) its calls reach first, depth first, not looking inside them."""
        library = {f.signature.name: f for f in self.graph_def.library.function} \
            if self.graph_def is not None else {}
        owners = self.concrete_function_paths()
        found, seen, stack = [], {function_name}, [function_name]
        while stack:
            function_def = library.get(stack.pop())
            if function_def is None:
                continue
            callees = [callee for node in function_def.node_def
                       for _, callee in call_attrs(node, library)]
            for callee in reversed(callees):
                if callee in seen:
                    continue
                seen.add(callee)
                if callee in owners:
                    found.extend((path, callee) for path in owners[callee])
                else:
                    stack.append(callee)
        return sorted(found, key=lambda item: (item[0], item[1]))

    def variable_names(self):
        """Object path (`/`-joined, as checkpoint keys spell it) -> the variable's own name,
        for each variable the graph records one for."""
        names = {}
        for node_id, path in self.paths.items():
            node = self.proto.nodes[node_id]
            if node.WhichOneof("kind") == "variable" and node.variable.name:
                names[path.replace(".", "/")] = node.variable.name
        return names

    def _options(self, node, kind):
        if kind == "bare_concrete_function":
            names = [node.bare_concrete_function.concrete_function_name]
            spec = node.bare_concrete_function.function_spec
        else:
            names = list(node.function.concrete_functions)
            spec = node.function.function_spec
        parameters = _parameter_names(spec)
        order = self._creation_order()
        names.sort(key=lambda name: (_cleaned(name), order.get(name, len(order)), name))
        options = []
        for name in names:
            concrete = self.proto.concrete_functions.get(name)
            args, kwargs = (), ()
            if concrete is not None and concrete.HasField("canonicalized_input_signature"):
                args, kwargs = _signature_arguments(concrete.canonicalized_input_signature,
                                                    parameters)
            elif kind == "bare_concrete_function":
                args = tuple(Argument(keyword, "str", keyword)
                             for keyword in node.bare_concrete_function.argument_keywords)
            options.append(ConcreteOption(name, args, kwargs))
        return tuple(options)

    def _creation_order(self):
        """Function name -> its place in the order TensorFlow's loader creates the library's
        functions (its names follow that order, and saved_model_cli sorts by name)."""
        if self._load_order is None:
            library = self.graph_def.library.function if self.graph_def is not None else ()
            self._load_order = {name: n for n, name in enumerate(_topological_order(library))}
        return self._load_order


def holds_variables(meta_graph_def):
    """Whether a meta graph saves variables, so that its SavedModel needs variables/: a TF2
    object graph's variable nodes, or a TF1 graph's variables collections."""
    if any(node.WhichOneof("kind") == "variable"
           for node in meta_graph_def.object_graph_def.nodes):
        return True
    return any(meta_graph_def.collection_def[key].node_list.value
               or meta_graph_def.collection_def[key].bytes_list.value
               for key in ("variables", "trainable_variables")
               if key in meta_graph_def.collection_def)


def _topological_order(functions):
    """function_deserialization._sort_function_defs: callees first, a LIFO ready list."""
    names = [f.signature.name for f in functions]
    known = set(names)
    edges, waiting = defaultdict(list), defaultdict(int)
    for function_def in functions:
        deps = set()
        for node in function_def.node_def:
            if node.op in known:
                deps.add(node.op)
            else:
                deps.update(callee for _, callee in call_attrs(node, ()) if callee in known)
        for dep in sorted(deps):
            edges[dep].append(function_def.signature.name)
            waiting[function_def.signature.name] += 1
    ready = [name for name in names if waiting[name] == 0]
    order = []
    while ready:
        name = ready.pop()
        order.append(name)
        for dest in edges[name]:
            waiting[dest] -= 1
            if not waiting[dest]:
                ready.append(dest)
    return order


def _cleaned(name):
    match = _INFERENCE_NAME.match(name)
    return match.group(1) if match else name


def _first_paths(object_graph_def):
    """Node id -> the first path (breadth first, children in order) reaching it from the root;
    past checkpoint_names.PATH_LEVELS objects deep, its last names after `…`."""
    return first_paths(object_graph_def.nodes, ".")[0]


def _detail(node, kind):
    if kind == "user_object":
        return node.user_object.identifier
    if kind == "variable":
        return node.variable.name
    if kind == "bare_concrete_function":
        return node.bare_concrete_function.concrete_function_name
    if kind == "function":
        return ", ".join(node.function.concrete_functions)
    if kind == "constant":
        return node.constant.operation
    if kind == "captured_tensor":
        return node.captured_tensor.name
    return ""


def _parameter_names(function_spec):
    """The Python parameter names of a FunctionSpec's fullargspec (`self` left out)."""
    spec = function_spec.fullargspec.named_tuple_value
    for pair in spec.values:
        if pair.key == "args":
            names = [v.string_value for v in pair.value.list_value.values]
            return names[1:] if function_spec.is_method and names[:1] == ["self"] else names
    return []


def _signature_arguments(signature, parameters):
    """(args, kwargs) Arguments of a canonicalized input signature: a tuple of (args, kwargs)."""
    parts = list(signature.tuple_value.values)
    args = parts[0].tuple_value.values if parts else ()
    kwargs = parts[1].dict_value.fields if len(parts) > 1 else {}
    positional = tuple(_argument(value, parameters[i] if i < len(parameters) else "")
                       for i, value in enumerate(args))
    named = tuple(_argument(kwargs[key], key) for key in kwargs)
    return positional, named


def _argument(value, parameter):
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        return Argument(value.tensor_spec_value.name or parameter, "TensorSpec", value_text(value))
    return Argument(parameter, _PYTHON_TYPES.get(kind, kind or "NoneType"), value_text(value))


_PYTHON_TYPES = {"none_value": "NoneType", "float64_value": "float", "int64_value": "int",
                 "string_value": "str", "bool_value": "bool", "list_value": "list",
                 "tuple_value": "tuple", "dict_value": "dict", "tensor_shape_value": "TensorShape",
                 "tensor_dtype_value": "DType", "type_spec_value": "TypeSpec",
                 "bounded_tensor_spec_value": "BoundedTensorSpec",
                 "named_tuple_value": "namedtuple", "tensor_value": "Tensor",
                 "numpy_value": "ndarray"}


def value_text(value):
    """A StructuredValue as Python's repr of what TensorFlow decodes it to."""
    kind = value.WhichOneof("kind")
    if kind in (None, "none_value"):
        return "None"
    if kind == "bool_value":
        return str(value.bool_value)
    if kind == "int64_value":
        return str(value.int64_value)
    if kind == "float64_value":
        return repr(value.float64_value)
    if kind == "string_value":
        return repr(value.string_value)
    if kind in ("tensor_spec_value", "bounded_tensor_spec_value"):
        spec = getattr(value, kind)
        name = repr(spec.name) if spec.name else "None"
        head = "TensorSpec" if kind == "tensor_spec_value" else "BoundedTensorSpec"
        return f"{head}(shape={shape_text(spec.shape)}, dtype={dtype_text(spec.dtype)}, name={name})"
    if kind == "tensor_shape_value":
        return f"TensorShape({shape_text(value.tensor_shape_value)})"
    if kind == "tensor_dtype_value":
        return dtype_text(value.tensor_dtype_value)
    if kind == "list_value":
        return "[" + ", ".join(value_text(v) for v in value.list_value.values) + "]"
    if kind == "tuple_value":
        items = [value_text(v) for v in value.tuple_value.values]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if kind == "dict_value":
        fields = value.dict_value.fields
        return "{" + ", ".join(f"{key!r}: {value_text(fields[key])}" for key in fields) + "}"
    if kind == "named_tuple_value":
        pairs = value.named_tuple_value.values
        return (f"{value.named_tuple_value.name}("
                + ", ".join(f"{p.key}={value_text(p.value)}" for p in pairs) + ")")
    if kind == "type_spec_value":
        spec = value.type_spec_value
        name = spec.type_spec_class_name or spec.TypeSpecClass.Name(spec.type_spec_class)
        return f"{name}{value_text(spec.type_state)}"
    return f"<{kind}>"


def shape_text(shape):
    """A TensorShapeProto as TensorShape prints it: `(None, 3)`, `(4,)`, `()`, `<unknown>`."""
    if shape.unknown_rank:
        return "<unknown>"
    dims = ["None" if d.size < 0 else str(d.size) for d in shape.dim]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def dtype_text(dtype):
    """A DataType enum as a tf.DType's repr: `tf.float32`."""
    try:
        return f"tf.{dtypes.as_dtype(dtype).name}"
    except (TypeError, ValueError, KeyError):
        return f"tf.dtype({dtype})"
