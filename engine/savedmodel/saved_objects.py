"""The objects tf.saved_model.save keeps: a breadth-first walk from the root as TensorFlow's
SaveableView makes it, and the two graphs of them a TF2 SavedModel holds (the
SavedObjectGraph in saved_model.pb, the TrackableObjectGraph in its variables/ checkpoint;
the same node ids in both).

A tf.Module's children are its trackable attributes in the order they were set, then its
tf.function attributes by name (AutoTrackable lists them with dir()); a tf.function's are its
traces (`trace_0`, ...); the root's last child is `signatures`, a map of the signature
functions. Lists and dicts are TensorFlow's trackable wrappers.
"""

from engine.framework import dtypes
from engine.framework.tensor_util import constant_value
from engine.framework.type_spec import TensorSpec
from engine.ops.def_function import ConcreteFunction, Function
from engine.ops.variables import Variable
from engine.proto import saved_object_graph_pb2, trackable_object_graph_pb2
from engine.savedmodel import structured_value
from engine.training.trackable_graph import (ATTRIBUTES, VARIABLE_VALUE, children,
                                             escape_local_name, full_name, is_trackable,
                                             mark_checkpoint_values)


class SignatureMap(dict):
    """{signature key: signature wrapper ConcreteFunction}: the root's `signatures` child."""


_USER_OBJECT_IDENTIFIERS = {list: "trackable_list_wrapper", dict: "trackable_dict_wrapper",
                            tuple: "trackable_tuple_wrapper",
                            SignatureMap: "signature_map"}


def function_attributes(obj):
    """A tf.Module's tf.function attributes, its class's (bound to it) and its own, by name
    (dir()'s order, as AutoTrackable lists them)."""
    found = []
    own = vars(obj) if hasattr(obj, "__dict__") else {}
    for name in dir(obj):
        if isinstance(own.get(name), Function):
            found.append((name, own[name]))
        elif isinstance(getattr(type(obj), name, None), Function):
            found.append((name, getattr(obj, name)))
    return found


class CapturedConstant:
    """A graph tensor a function captures whose value is known when it is saved: a Const of
    the SavedModel's graph (TensorFlow's _CapturedConstant), a `capture_<i>` of the functions
    that capture it."""

    def __init__(self, tensor, value):
        self.tensor, self.value = tensor, value


def _children(obj, graph, constants):
    if isinstance(obj, SignatureMap):
        return list(obj.items())
    if isinstance(obj, Function):
        return [(f"trace_{i}", concrete) for i, concrete in enumerate(obj.concrete_functions(graph))]
    if isinstance(obj, ConcreteFunction):
        found = []
        for index, tensor in enumerate(obj.captured_inputs):
            if tensor.dtype.base_dtype == dtypes.resource:
                continue  # a variable's handle: the variable is tracked where it is held
            if tensor.name not in constants:
                value = constant_value(tensor)
                if value is None:
                    continue  # save refuses it (save.check_captures), in TensorFlow's words
                constants[tensor.name] = CapturedConstant(tensor, value)
            found.append((f"capture_{index}", constants[tensor.name]))
        return found
    if isinstance(obj, (Variable, CapturedConstant)):
        return []
    found = children(obj, graph)
    if not isinstance(obj, (list, tuple, dict)):
        found += function_attributes(obj)
    return found


class SavedObjects:
    """One walk from the root: objects in node order, each one's (child id, local name)s and
    its checkpoint path."""

    def __init__(self, root, signatures, graph):
        self.signatures = signatures
        self.objects, self.edges, self.paths = [root], {}, {id(root): ""}
        self.node_ids = {id(root): 0}
        self.traced_from = {}  # id(ConcreteFunction) -> the tf.function it is a trace of
        self.constants = {}  # captured tensor name -> its CapturedConstant
        queue = [root]
        while queue:
            obj = queue.pop(0)
            found = _children(obj, graph, self.constants)
            if obj is root:
                found.append(("signatures", signatures))
            refs = []
            for name, child in found:
                if isinstance(obj, Function):
                    self.traced_from[id(child)] = obj
                if id(child) not in self.node_ids:
                    self.node_ids[id(child)] = len(self.objects)
                    self.objects.append(child)
                    prefix = self.paths[id(obj)]
                    self.paths[id(child)] = (prefix + "/" if prefix else "") + escape_local_name(name)
                    queue.append(child)
                refs.append((self.node_ids[id(child)], name))
            self.edges[self.node_ids[id(obj)]] = refs

    def variables(self):
        """[(node id, checkpoint key, variable)] in node order."""
        return [(node_id, f"{self.paths[id(obj)]}/{ATTRIBUTES}/{VARIABLE_VALUE}", obj)
                for node_id, obj in enumerate(self.objects) if isinstance(obj, Variable)]

    def concrete_functions(self):
        """The ConcreteFunctions kept (the traces and the signature wrappers), in node order."""
        return [obj for obj in self.objects if isinstance(obj, ConcreteFunction)]

    def input_signature(self, obj):
        """(positional specs, {keyword: spec}) of a ConcreteFunction: a signature function
        takes its inputs by keyword only."""
        if not isinstance(obj, ConcreteFunction):
            return None
        args, kwargs = obj.structured_input_signature
        if any(obj is wrapper for wrapper in self.signatures.values()):
            return (), {spec.name: spec for spec in args}
        return args, kwargs

    def argument_names(self, obj):
        """A ConcreteFunction's argument names: its tf.function's parameters, or a signature
        function's input names."""
        args, kwargs = self.input_signature(obj)
        function = self.traced_from.get(id(obj))
        names = function.parameter_names()[:len(args)] if function is not None else []
        names += [getattr(spec, "name", None) or f"arg_{i}"
                  for i, spec in enumerate(args)][len(names):]
        # (every parameter, the ones a call passes: tensors, a Python value is part of the
        # trace; the keyword-only ones)
        tensors = [n for n, spec in zip(names, args) if isinstance(spec, TensorSpec)]
        return names, tensors, sorted(kwargs)

    def checkpoint_graph(self):
        """The TrackableObjectGraph the variables/ checkpoint holds."""
        proto = trackable_object_graph_pb2.TrackableObjectGraph()
        keys = {node_id: key for node_id, key, _ in self.variables()}
        for node_id, obj in enumerate(self.objects):
            node = proto.nodes.add()
            for child_id, name in self.edges.get(node_id, []):
                node.children.add(node_id=child_id, local_name=name)
            if node_id in keys:
                node.attributes.add(name=VARIABLE_VALUE, full_name=full_name(obj),
                                    checkpoint_key=keys[node_id])
        mark_checkpoint_values(proto)
        return proto

    def saved_object_graph(self, bound_inputs, constant_operations):
        """The SavedObjectGraph; bound_inputs: {concrete function name: [node ids of the
        captured variables and constants]}; constant_operations: {id(CapturedConstant): the
        name of its Const in the SavedModel's graph}."""
        proto = saved_object_graph_pb2.SavedObjectGraph()
        for node_id, obj in enumerate(self.objects):
            node = proto.nodes.add()
            for child_id, name in self.edges.get(node_id, []):
                node.children.add(node_id=child_id, local_name=name)
            edges = [(child_id, name, self.objects[child_id])
                     for child_id, name in self.edges.get(node_id, [])]
            names = self.argument_names(obj) if isinstance(obj, ConcreteFunction) else None
            _describe(node, obj, edges, names, constant_operations)
        for concrete in self.concrete_functions():
            name = concrete.name.decode()
            saved = proto.concrete_functions[name]
            saved.bound_inputs.extend(bound_inputs[name])
            saved.canonicalized_input_signature.CopyFrom(
                structured_value.encode(self.input_signature(concrete)))
            saved.output_signature.CopyFrom(structured_value.encode(
                output_signature(concrete.structured_outputs)))
        return proto


def output_signature(outputs):
    """TensorSpecs for a function's results: a dict's by key, a single tensor 'unknown',
    the i-th of a sequence `tensor_<i>` (as TensorFlow names them)."""
    def spec(tensor, name):
        return TensorSpec(tensor.shape, tensor.dtype, name)
    if isinstance(outputs, dict):
        return {key: spec(value, key) for key, value in outputs.items()}
    if isinstance(outputs, (list, tuple)):
        return type(outputs)(spec(value, f"tensor_{i}") for i, value in enumerate(outputs))
    return None if outputs is None else spec(outputs, "unknown")


def _describe(node, obj, edges, argument_names, constant_operations):
    """One SavedObject's kind: user object, variable, function or bare concrete function."""
    if isinstance(obj, Variable):
        saved = node.variable
        saved.dtype = dtypes.as_dtype(obj.dtype).base_dtype.as_datatype_enum
        saved.shape.CopyFrom(obj.shape.as_proto())
        saved.trainable = obj.trainable
        saved.name = obj.op.name
    elif isinstance(obj, Function):
        node.function.concrete_functions.extend(c.name.decode() for _, _, c in edges)
        node.function.function_spec.CopyFrom(_function_spec(obj))
        for child_id, name, _ in edges:
            node.dependencies.add(node_id=child_id, local_name=name)
    elif isinstance(obj, CapturedConstant):
        node.constant.operation = constant_operations[id(obj)]
    elif isinstance(obj, ConcreteFunction):
        bare = node.bare_concrete_function
        bare.concrete_function_name = obj.name.decode()
        args, tensors, kwargs = argument_names
        bare.argument_keywords.extend(tensors + kwargs)
        # TensorFlow's count: the positional tensor arguments, and 1 for keyword-only ones.
        bare.allowed_positional_arguments = len(tensors) or 1
        spec = bare.function_spec
        spec.fullargspec.CopyFrom(structured_value.full_arg_spec(args, kwargs))
        spec.input_signature.CopyFrom(structured_value.encode(None))
    else:
        user = node.user_object
        user.identifier = _USER_OBJECT_IDENTIFIERS.get(type(obj), "_generic_user_object")
        user.version.producer = user.version.min_consumer = 1


def _function_spec(function):
    proto = saved_object_graph_pb2.FunctionSpec()
    proto.fullargspec.CopyFrom(structured_value.full_arg_spec(
        function.parameter_names(), defaults=function.parameter_defaults()))
    signature = function.input_signature
    proto.input_signature.CopyFrom(structured_value.encode(
        None if signature is None else tuple(signature)))
    return proto


def is_saveable_root(obj):
    return is_trackable(obj) and not isinstance(obj, (list, tuple, dict))
