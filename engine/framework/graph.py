"""Graph: TF 1.x graph building (names, ops, lookup, collections, GraphDef export)."""

import contextlib
import re
import threading

from engine.framework import op_registry
from engine.framework import traceback as _traceback
from engine.framework.attr_value import from_python
from engine.framework.graph_scopes import GraphScopes
from engine.framework.operation import Operation
from engine.proto import attr_value_pb2, graph_pb2, node_def_pb2
from engine.framework.tensor import Tensor
from engine.framework.versions import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER

NodeDef = node_def_pb2.NodeDef

_VALID_OP_NAME_REGEX = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME_REGEX = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class Graph(GraphScopes):
    """A TensorFlow 1.x graph: operations in creation order, found by name in O(1)."""

    def __init__(self):
        self._lock = threading.RLock()
        self._nodes_by_name = {}
        self._nodes_by_id = {}
        self._operations = []
        self._next_id_counter = 0
        self._version = 0  # bumped on every change, for the session's plan caches
        self._names_in_use = {}
        self._name_stack = ""
        self._collections = {}
        self._control_dependencies_stack = []
        self._device_stack = []
        self._colocation_stack = []
        self._seed = None
        self._seed_counter = 0
        self._finalized = False
        self._functions = {}
        self._container = ""
        self._building_function = False
        self._variable_scope_stores = None
        self._attr_scope_map = {}
        self._control_flow_context = None  # the CondContext/WhileContext ops are built in

    # -- identity and defaults --

    def as_default(self):
        return _default_graph_stack.get_controller(self)

    @property
    def version(self):
        return self._next_id_counter

    @property
    def _last_id(self):
        return self._next_id_counter

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, seed):
        self._seed = seed

    @property
    def finalized(self):
        return self._finalized

    def finalize(self):
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    def _check_not_finalized(self):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    @property
    def building_function(self):
        return self._building_function

    @property
    def graph_def_versions(self):
        from engine.proto import versions_pb2
        return versions_pb2.VersionDef(producer=GRAPH_DEF_VERSION,
                                       min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER)

    # -- names --

    def unique_name(self, name, mark_as_used=True):
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        names_in_use = self._names_in_use
        i = names_in_use.get(name_key, 0)
        if mark_as_used:
            names_in_use[name_key] = i + 1
        if i > 0:
            base_name_key = name_key
            while name_key in names_in_use:
                name_key = f"{base_name_key}_{i}"
                i += 1
            if mark_as_used:
                names_in_use[name_key] = 1
            name = f"{name}_{i - 1}"
        return name

    def get_name_scope(self):
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name):
        if name:
            if isinstance(name, bytes):
                name = name.decode("utf-8")
            regex = _VALID_SCOPE_NAME_REGEX if self._name_stack else _VALID_OP_NAME_REGEX
            if not regex.match(name):
                raise ValueError(f"'{name}' is not a valid scope name. A scope name has to "
                                 f"match the following pattern: {regex.pattern}")
        old_stack = self._name_stack
        if not name:
            new_stack = returned = ""
        elif name[-1] == "/":
            new_stack, returned = name[:-1], name
        else:
            new_stack = self.unique_name(name)
            returned = new_stack + "/"
        self._name_stack = new_stack
        try:
            yield returned
        finally:
            self._name_stack = old_stack

    # -- gradient overrides --

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops built inside use another op type's gradient (tf.gradients reads the
        `_gradient_op_type` attr this sets)."""
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        first_id = self._next_id_counter
        try:
            yield
        finally:
            # Tagged on leaving, innermost map first, so an inner mapping wins as in TensorFlow.
            for op in self._operations[first_id:]:
                mapped = op_type_map.get(op.type)
                if mapped is not None and "_gradient_op_type" not in op._node_def.attr:
                    op._set_attr("_gradient_op_type",
                                 attr_value_pb2.AttrValue(s=mapped.encode()))

    # -- building operations --

    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None,
                  attrs=None, op_def=None, compute_shapes=True, compute_device=True):
        """Adds an op: TF 1.x's Graph.create_op (attrs are AttrValue protos by name)."""
        inputs = [_as_tensor_input(self, t) for t in inputs]
        return self._create_op_internal(op_type, inputs, dtypes, input_types, name, attrs,
                                        op_def, compute_device)

    def _create_op_internal(self, op_type, inputs, dtypes=None, input_types=None, name=None,
                            attrs=None, op_def=None, compute_device=True, shapes=None,
                            decoded_attrs=None):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if name is None:
            name = op_type
        if name and name[-1] == "/":
            name = name[:-1]
        else:
            name = self.unique_name(name)
        if op_def is None:
            op_def = self._op_def_for(op_type)
        node_def = NodeDef(name=name, op=op_type)
        if attrs:
            node_attrs = node_def.attr
            for key, value in attrs.items():
                node_attrs[key].CopyFrom(value)
        control_inputs = (self._control_dependencies_for_inputs({t._op for t in inputs})
                          if self._control_dependencies_stack else ())
        op = Operation._create(self, node_def, op_def, inputs, control_inputs, dtypes,
                               input_types, _traceback.capture(2), shapes,
                               decoded_attrs=decoded_attrs)
        if self._control_flow_context is not None:  # inside tf.cond / tf.while_loop
            op._control_flow_context = self._control_flow_context
            self._control_flow_context.AddOp(op)
        self._create_op_helper(op, compute_device)
        return op

    def _colocation_op(self, value):
        """The op `colocate_with(value)` puts new ops beside (graph_scopes asks for it)."""
        return _op_to_colocate_with(value, self)

    def _get_control_flow_context(self):
        return self._control_flow_context

    def _set_control_flow_context(self, ctx):
        self._control_flow_context = ctx

    def _record_op_seen_by_control_dependencies(self, op):
        for frame in self._control_dependencies_stack:
            frame.seen.add(op)

    def _op_def_for(self, op_type):
        function = self._functions.get(op_type)
        if function is not None:
            return function.signature
        return op_registry.get(op_type)

    def _add_op(self, op):
        name = op._node_def.name
        if name in self._nodes_by_name:
            raise ValueError(f"Duplicate node name in graph: '{name}'")
        self._next_id_counter += 1
        self._version += 1
        op._id = self._next_id_counter
        self._nodes_by_name[name] = op
        self._nodes_by_id[op._id] = op
        self._operations.append(op)

    def _create_op_helper(self, op, compute_device=True):
        for key, value in self._attr_scope_map.items():
            if key not in op._node_def.attr:
                op._set_attr(key, value(op._node_def) if callable(value) else value)
        for frame in self._control_dependencies_stack:
            frame.seen.add(op)
        if compute_device and self._device_stack:
            self._apply_device_functions(op)
        if self._colocation_stack:
            groups = []
            device_set = False
            for colocation_op in reversed(self._colocation_stack):
                groups.extend(colocation_op.colocation_groups())
                if colocation_op.device and not device_set:
                    op._set_device(colocation_op.device)
                    device_set = True
            op._set_attr("_class", from_python(sorted(set(groups)), "list(string)"))
        if self._container and op.op_def.is_stateful and "container" in op._node_def.attr:
            if not op._node_def.attr["container"].s:
                op._set_attr("container", from_python(self._container, "string"))

    # -- lookup --

    def get_operations(self):
        return list(self._operations)

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not "
                            f"{type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def _get_operation_by_name(self, name):
        return self._nodes_by_name[name]

    def _get_operation_by_name_unsafe(self, name):
        return self._nodes_by_name[name]

    def get_tensor_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def _get_tensor_by_tf_output(self, output):
        op, index = output
        return op.outputs[index]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        if allow_tensor and allow_operation:
            types_str = "Tensor or Operation"
        elif allow_tensor:
            types_str = "Tensor"
        elif allow_operation:
            types_str = "Operation"
        else:
            raise ValueError("allow_tensor and allow_operation can't both be False.")
        temp_obj = getattr(obj, "_as_graph_element", None)
        if temp_obj is not None and callable(temp_obj):
            converted = temp_obj()
            if converted is not None:
                obj = converted
        if isinstance(obj, str):
            name = obj
            if ":" in name and allow_tensor:
                try:
                    op_name, out_n = name.split(":")
                    out_n = int(out_n)
                except ValueError:
                    raise ValueError(f"The name {name!r} looks a like a Tensor name, but is not "
                                     f"a valid one. Tensor names must be of the form "
                                     f"\"<op_name>:<output_index>\".") from None
                op = self._nodes_by_name.get(op_name)
                if op is None:
                    raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                                   f"The operation, {op_name!r}, does not exist in the graph.")
                try:
                    return op.outputs[out_n]
                except IndexError:
                    raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                                   f"The operation, {op_name!r}, exists but only has "
                                   f"{len(op.outputs)} outputs.") from None
            elif ":" in name and not allow_tensor:
                raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a "
                                 f"{types_str}.")
            elif ":" not in name and allow_operation:
                op = self._nodes_by_name.get(name)
                if op is None:
                    raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
                return op
            else:
                if name in self._nodes_by_name:
                    raise ValueError(f"The name {name!r} refers to an Operation, not a "
                                     f"{types_str}. Tensor names must be of the form "
                                     f"\"<op_name>:<output_index>\".")
                raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, "
                                 f"not a {types_str}. Tensor names must be of the form "
                                 f"\"<op_name>:<output_index>\".")
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError(f"Operation {obj} is not an element of this graph.")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {types_str}.")

    # -- collections --

    def add_to_collection(self, name, value):
        self._check_not_finalized()
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        coll = self._collections.get(name)
        if coll is None:
            coll = self._collections[name] = []
        return coll

    def get_collection(self, name, scope=None):
        coll = self._collections.get(name)
        if coll is None:
            return []
        if scope is None:
            return list(coll)
        regex = re.compile(scope)
        return [item for item in coll
                if getattr(item, "name", None) is not None and regex.match(item.name)]

    def get_all_collection_keys(self):
        return [key for key, value in self._collections.items() if value]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    # -- export --

    def as_graph_def(self, from_version=None, add_shapes=False, include_debug_info=True):
        """The GraphDef: nodes in creation order, control inputs sorted, the creation stacks
        in debug_info (TensorFlow leaves debug_info empty; pass include_debug_info=False)."""
        graph_def = graph_pb2.GraphDef()
        graph_def.versions.producer = GRAPH_DEF_VERSION
        nodes = graph_def.node
        for op in self._operations:
            if from_version is not None and op._id <= from_version:
                continue
            node = nodes.add()
            node.CopyFrom(op._node_def)
            if len(op._control_inputs) > 1:
                data = [i for i in node.input if not i.startswith("^")]
                del node.input[:]
                node.input.extend(data + sorted(f"^{c.name}" for c in op._control_inputs))
            if add_shapes:
                shapes = node.attr["_output_shapes"].list
                shapes.SetInParent()
                for output in op._outputs:
                    shapes.shape.add().CopyFrom(output.shape.as_proto())
        for function in self._functions.values():
            graph_def.library.function.add().CopyFrom(function)
        if include_debug_info:
            traces = [(f"{op.name}@", op.traceback) for op in self._operations
                      if op.traceback is not None and (from_version is None or
                                                       op._id > from_version)]
            if traces:
                graph_def.debug_info.CopyFrom(_traceback.build_debug_info(traces))
        return graph_def

    def _add_function(self, function_def):
        self._functions[function_def.signature.name] = function_def
        self._version += 1

    def _is_function(self, name):
        return name in self._functions

    def _get_function(self, name):
        return self._functions.get(name)


def _op_to_colocate_with(v, graph):
    if isinstance(v, Operation):
        return v
    handle = None if isinstance(v, Tensor) else getattr(v, "handle", None)
    if isinstance(handle, Tensor):
        # A resource variable (or anything with a handle tensor): its handle's op, as
        # TensorFlow's _op_to_colocate_with (captured first inside a function).
        capture = getattr(graph, "capture", None)
        return (capture(handle) if capture is not None else handle).op
    convert = getattr(v, "_as_graph_element", None)
    if convert is not None:
        element = convert()
        return element.op if isinstance(element, Tensor) else element
    if isinstance(v, Tensor):
        return v.op
    from engine.ops.convert import convert_to_tensor
    return convert_to_tensor(v).op


def _as_tensor_input(graph, value):
    if isinstance(value, Tensor):
        return value
    from engine.ops.convert import convert_to_tensor
    return convert_to_tensor(value)


# The default graph and session stacks, and the module-level helpers over them.
from engine.framework.default_graph import (  # noqa: E402,F401  (after Graph: they build one)
    _default_graph_stack, _default_session_stack, get_graph_from_inputs,
    _run_using_default_session, add_to_collection, add_to_collections, default_session,
    get_all_collection_keys, get_collection, get_collection_ref, get_default_graph,
    get_default_session, init_scope, reset_default_graph)
from engine.framework.graph_keys import GraphKeys  # noqa: E402,F401
