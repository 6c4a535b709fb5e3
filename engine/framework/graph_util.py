"""tf.graph_util: freezing and pruning GraphDefs as TensorFlow's graph_util_impl does.

convert_variables_to_constants extracts the subgraph that reaches the outputs, reads every
variable in it through the session and turns each into a Const of the same name (a
resource variable's ReadVariableOps become Identities), as TensorFlow's
convert_to_constants.convert_variables_to_constants_from_session_graph. Nodes keep their
order; the library and versions are copied.
"""

import copy
import re

from engine.proto import graph_pb2, node_def_pb2
from engine.framework.tensor_util import make_tensor_proto

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _node_name(name):
    return name[1:] if name.startswith("^") else name.split(":")[0]


def _colocated_names(node):
    """The nodes a node is colocated with (its `_class` attr, "loc:@" dropped)."""
    if "_class" not in node.attr:
        return []
    names = []
    for value in node.attr["_class"].list.s:
        text = value.decode("utf-8")
        names.append(text[5:] if text.startswith("loc:@") else text)
    return names


def _graph_summary(graph_def):
    inputs_of, node_of, order = {}, {}, {}
    for seq, node in enumerate(graph_def.node):
        name = _node_name(node.name)
        node_of[name] = node
        # Colocated nodes count as inputs, so a pruned graph keeps them.
        inputs_of[name] = [_node_name(x) for x in node.input] + _colocated_names(node)
        order[name] = seq
    return inputs_of, node_of, order


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes that reach any of `dest_nodes`, in their original order."""
    if not isinstance(graph_def, graph_pb2.GraphDef):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto, but got "
                        f"type {type(graph_def)}.")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be an iterable of strings, but got "
                        f"type {type(dest_nodes)}.")
    inputs_of, node_of, order = _graph_summary(graph_def)
    for name in dest_nodes:
        assert name in node_of, "%s is not in graph" % name
    keep, to_visit = set(), list(dest_nodes)
    while to_visit:
        name = to_visit.pop(0)
        if name in keep:
            continue
        keep.add(name)
        to_visit += inputs_of.get(name, [])
    out = graph_pb2.GraphDef()
    for name in sorted(keep, key=lambda n: order[n]):
        out.node.extend([copy.deepcopy(node_of[name])])
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _without_inputs(nodes, names):
    """Copies of `nodes` without those named in `names`, and without inputs from them."""
    kept = []
    for node in nodes:
        if node.name in names:
            continue
        new = node_def_pb2.NodeDef()
        new.CopyFrom(node)
        del new.input[:]
        new.input.extend(x for x in node.input if re.sub(r"^\^", "", x) not in names)
        kept.append(new)
    return kept


def remove_training_nodes(input_graph, protected_nodes=None):
    """Drops CheckNumerics and splices out Identity/StopGradient nodes that no control edge or
    colocation names (TensorFlow's rule); `protected_nodes` stay."""
    protected = set(protected_nodes or ())
    removed = {n.name for n in input_graph.node if n.op == "CheckNumerics"} - protected
    nodes = _without_inputs(input_graph.node, removed)
    control_inputs, with_control_input, colocated = set(), set(), set()
    for node in nodes:
        for name in node.input:
            if "^" in name:
                control_inputs.add(name.replace("^", ""))
                with_control_input.add(node.name)
        colocated.update(_colocated_names(node))
    splice = {node.name: node.input[0] for node in nodes
              if node.op in ("Identity", "StopGradient") and node.name not in protected
              and node.name not in colocated and node.name not in with_control_input}
    splice = {name: source for name, source in splice.items() if name not in control_inputs}
    out = graph_pb2.GraphDef()
    for node in nodes:
        if node.name in splice:
            continue
        new = node_def_pb2.NodeDef()
        new.CopyFrom(node)
        del new.input[:]
        for full_name in node.input:
            name = re.sub(r"^\^", "", full_name)
            while name in splice:
                full_name = splice[name]
                name = re.sub(r"^\^", "", full_name)
            new.input.append(full_name)
        out.node.extend([new])
    return out


def _should_convert(name, allowlist, denylist):
    return ((allowlist is None or name in allowlist)
            and (denylist is None or name not in denylist))


def _resource_readers(graph_def, handle_name):
    """ReadVariableOps of a resource variable, through any Identity on the handle."""
    names, readers = {handle_name}, []
    grew = True
    while grew:
        grew = False
        for node in graph_def.node:
            if node.input and _node_name(node.input[0]) in names and node.name not in names \
                    and node.op == "Identity":
                names.add(node.name)
                grew = True
    for node in graph_def.node:
        if node.op == "ReadVariableOp" and node.input and _node_name(node.input[0]) in names:
            readers.append(node)
    return readers


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """A GraphDef of what reaches `output_node_names`, every variable a Const of its value."""
    graph_def = extract_sub_graph(input_graph_def, output_node_names)
    variables = [node for node in graph_def.node if node.op in _VARIABLE_OPS
                 and _should_convert(node.name, variable_names_whitelist,
                                     variable_names_blacklist)]
    tensor_names = [node.name + ("/Read/ReadVariableOp" if node.op == "VarHandleOp" else "")
                    + ":0" for node in variables]
    values = sess.run(tensor_names) if tensor_names else []
    for node, value in zip(variables, values):
        dtype_attr = copy.deepcopy(node.attr["dtype"])
        if node.op == "VarHandleOp":
            for reader in _resource_readers(graph_def, node.name):
                source, class_attr = reader.input[0], reader.attr.get("_class")
                class_attr = copy.deepcopy(class_attr) if "_class" in reader.attr else None
                reader_dtype = copy.deepcopy(reader.attr["dtype"])
                name = reader.name
                reader.Clear()
                reader.name, reader.op = name, "Identity"
                reader.input.append(source)
                reader.attr["T"].CopyFrom(reader_dtype)
                if class_attr is not None:
                    reader.attr["_class"].CopyFrom(class_attr)
        name = node.name
        node.Clear()
        node.name, node.op = name, "Const"
        node.attr["dtype"].CopyFrom(dtype_attr)
        node.attr["value"].tensor.CopyFrom(
            make_tensor_proto(value, dtype_attr.type, value.shape))
    return graph_def


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor a NodeDef input string names (":0" when no port)."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).get_shape()
