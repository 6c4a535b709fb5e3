"""MatMul and Conv2D fused with their BiasAdd and activation, as Grappler's remapper on a CPU.

TensorFlow 2.21's remapper (oneDNN off, as the engine's fixtures are made) replaces
`Activation(BiasAdd(Contraction(x, w), b))` by one `_FusedMatMul` or `_FusedConv2D` node of
the last node's name (and debug info), `fused_ops` ["BiasAdd", activation]. What TensorFlow's
own runs show it fuses (tools' remapper experiments, the keras_cnn fixture):
- the contraction: a MatMul of float32, a Conv2D of float32 or float64 in NHWC, on the CPU,
  read by nothing but the BiasAdd (its output 0) and not kept;
- the BiasAdd (only BiasAdd: an AddV2 of a bias is left alone), on the CPU;
- the activation, when it is Relu, Relu6, Elu or LeakyRelu and the BiasAdd's only reader,
  the BiasAdd not kept; Tanh, Sigmoid and Gelu are not fused.
The fused node keeps the control inputs of the nodes it replaces.
"""

from engine.framework import op_registry
from engine.optimizer.graph_view import GraphView, parse_input
from engine.proto import node_def_pb2, types_pb2

ACTIVATIONS = frozenset({"Relu", "Relu6", "Elu", "LeakyRelu"})
_CONTRACTION_TYPES = {"MatMul": {types_pb2.DT_FLOAT},
                      "Conv2D": {types_pb2.DT_FLOAT, types_pb2.DT_DOUBLE}}
_CONV_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations",
               "use_cudnn_on_gpu")
_MATMUL_ATTRS = ("transpose_a", "transpose_b")


def fuse(graph_def, context, report):
    """`graph_def` with every fusable contraction fused (a new GraphDef when one was)."""
    if not any(node.op in _CONTRACTION_TYPES for node in graph_def.node):
        return graph_def
    view = GraphView(graph_def)
    for name in view.topological_order():
        contraction = view.node(name)
        if contraction is None or not _fusable_contraction(view, contraction, context):
            continue
        bias_add = view.node(next(iter(view.consumers[name])))
        if not _fusable_bias_add(view, contraction, bias_add):
            continue
        activation = _fusable_activation(view, bias_add, context)
        _replace(view, contraction, bias_add, activation, report)
    return view.to_graph_def() if view.dirty else graph_def


def _on_cpu(node):
    return not node.device or "CPU" in node.device.upper().rsplit("/", 1)[-1]


def _fusable_contraction(view, node, context):
    allowed = _CONTRACTION_TYPES.get(node.op)
    if allowed is None or node.attr["T"].type not in allowed or not _on_cpu(node):
        return False
    if node.op == "Conv2D" and node.attr["data_format"].s not in (b"", b"NHWC"):
        return False
    if context.is_preserved(node.name):
        return False
    consumers = view.consumers.get(node.name, ())
    return len(consumers) == 1


def _fusable_bias_add(view, contraction, bias_add):
    if bias_add is None or bias_add.op != "BiasAdd" or not _on_cpu(bias_add):
        return False
    data = view.data_inputs(bias_add)
    if len(data) != 2 or data[0] != (contraction.name, 0):
        return False
    if any(p == contraction.name for p, _ in data[1:]):
        return False
    if f"^{contraction.name}" in view.inputs(bias_add.name):
        return False
    bias_format = bias_add.attr["data_format"].s if "data_format" in bias_add.attr else b"NHWC"
    return bias_format in (b"", b"NHWC")


def _fusable_activation(view, bias_add, context):
    consumers = view.consumers.get(bias_add.name, ())
    if len(consumers) != 1 or context.is_preserved(bias_add.name):
        return None
    activation = view.node(next(iter(consumers)))
    if activation is None or activation.op not in ACTIVATIONS or not _on_cpu(activation):
        return None
    inputs = view.inputs(activation.name)
    data = view.data_inputs(activation)
    if data != [(bias_add.name, 0)] or f"^{bias_add.name}" in inputs:
        return None
    return activation


def _replace(view, contraction, bias_add, activation, report):
    last = activation if activation is not None else bias_add
    fused = node_def_pb2.NodeDef(name=last.name, op=f"_Fused{contraction.op}",
                                 device=contraction.device)
    fused.attr["T"].CopyFrom(contraction.attr["T"])
    for key in _CONV_ATTRS if contraction.op == "Conv2D" else _MATMUL_ATTRS:
        if key in contraction.attr:
            fused.attr[key].CopyFrom(contraction.attr[key])
    fused.attr["num_args"].i = 1
    fused.attr["fused_ops"].list.s.append(b"BiasAdd")
    if activation is not None:
        fused.attr["fused_ops"].list.s.append(activation.op.encode())
        if activation.op == "LeakyRelu" and "alpha" in activation.attr:
            fused.attr["leakyrelu_alpha"].f = activation.attr["alpha"].f
    if contraction.op == "Conv2D":
        fused.attr["TArgs"].list.type.append(contraction.attr["T"].type)
    op_registry.add_default_attrs(fused, op_registry.get(fused.op))
    if last.HasField("experimental_debug_info"):
        fused.experimental_debug_info.CopyFrom(last.experimental_debug_info)
    data = [t for t in view.inputs(contraction.name) if not t.startswith("^")]
    bias = [t for t in view.inputs(bias_add.name) if not t.startswith("^")][1]
    controls = []
    for node in (contraction, bias_add, activation):
        if node is not None:
            controls.extend(t for t in view.inputs(node.name)
                            if t.startswith("^") and t not in controls
                            and parse_input(t)[0] not in (contraction.name, bias_add.name))
    fused.input.extend(data + [bias] + controls)
    for node in (contraction, bias_add, activation):
        if node is not None and node is not last:
            view.remove(node.name)
    view.replace(fused)
    report.note("fused", f"{last.name}: {contraction.op} + BiasAdd"
                         f"{' + ' + activation.op if activation is not None else ''} -> "
                         f"{fused.op}", count=2 if activation is None else 3)
