"""Ops TensorFlow's CPU has no kernel for, failing when they run as TensorFlow's session
fails them: InvalidArgumentError "No OpKernel was registered to support Op ...", the node's
attrs, and the devices that do have one (Conv2DBackpropFilterV2, Conv2DBackpropInputV2 and
QuantizedReluX: none; GenerateBoundingBoxProposals: the GPU), and no_kernel_error for the
kernels that take some types alone. TensorFlow lists the attrs in its map's order, the
engine sorted."""

from engine.kernels import register
from engine.kernels.common import invalid
from engine.proto import types_pb2

_REGISTERED = {
    "Conv2DBackpropFilterV2": "  <no registered kernels>\n",
    "Conv2DBackpropInputV2": "  <no registered kernels>\n",
    "QuantizedReluX": "  <no registered kernels>\n",
    "GenerateBoundingBoxProposals": "  device='GPU'\n",
}


def _attr_text(value):
    which = value.WhichOneof("value")
    if which == "type":
        return types_pb2.DataType.Name(value.type)
    if which == "s":
        return f'"{value.s.decode()}"'
    if which == "b":
        return "true" if value.b else "false"
    if which == "list":
        return "[" + ", ".join(str(v) for v in value.list.i) + "]"
    return str(getattr(value, which)).strip() if which else ""


def no_cpu_kernel(ctx, *inputs):
    raise no_kernel_error(ctx, _REGISTERED[ctx.node_def.op])


def no_kernel_error(ctx, registered):
    """The error for a node whose attrs no CPU kernel takes; `registered` lists the kernels
    there are, one "  device=..." line each."""
    node_def = ctx.node_def
    attrs = ", ".join(f"{key}={_attr_text(value)}" for key, value in
                      sorted(node_def.attr.items()) if not key.startswith("_"))
    return invalid(ctx, f"No OpKernel was registered to support Op '{node_def.op}' used by "
                        f"{{{{node {node_def.name}}}}} with these attrs: [{attrs}]\n"
                        f"Registered devices: [CPU]\nRegistered kernels:\n{registered}")


for _op in _REGISTERED:
    register(_op)(no_cpu_kernel)
