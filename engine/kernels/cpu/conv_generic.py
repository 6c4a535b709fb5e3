"""CPU kernels of the generic Conv op (TensorFlow 2.x's convolution of any batch_dims over
2 or 3 spatial dims): the extra batch dims folded into one, then the engine's Conv2D or
Conv3D kernel, with the CPU's refusals in TensorFlow's words. Conv2DBackpropFilterV2 and
Conv2DBackpropInputV2, which TensorFlow's CPU has no kernel for, fail as TensorFlow's
session does (no_cpu_kernel)."""

from types import SimpleNamespace

import numpy as np

from engine.framework.errors import UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu import nn, volumetric
from engine.proto import types_pb2


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


@register("Conv")
def conv(ctx, x, filters):
    attrs = ctx.attrs
    batch_dims = int(attrs.get("batch_dims", 1))
    spatial = x.ndim - batch_dims - 1
    if int(attrs.get("groups", 1)) > 1:
        raise UnimplementedError(ctx.node_def, None,
                                 "Grouped/Depthwise Convolutions are not supported yet.")
    if _text(attrs.get("data_format", b"CHANNELS_LAST")) != "CHANNELS_LAST":
        what = "Conv2D op currently only supports the NHWC tensor format on the CPU. The op " \
               "was given the format: NCHW" if spatial == 2 else \
               "Conv3D op currently only supports the NDHWC tensor format on the CPU. The op " \
               "was given the format: NCDHW"
        raise UnimplementedError(ctx.node_def, None, f"The {what}")
    lead = x.shape[:batch_dims]
    folded = x.reshape((-1,) + x.shape[batch_dims:])
    rank = spatial + 2
    skip = batch_dims - 1  # the attrs count the extra batch dims' entries first
    strides = list(attrs.get("strides"))[skip:]
    dilations = list(attrs.get("dilations") or [1] * rank)[skip:]
    explicit = list(attrs.get("explicit_paddings") or [])[2 * skip:]
    inner = SimpleNamespace(node_def=getattr(ctx, "node_def", None), attrs={
        "strides": strides, "dilations": dilations, "padding": attrs.get("padding"),
        "explicit_paddings": explicit, "data_format": b"NHWC" if spatial == 2 else b"NDHWC"})
    kernel = nn.conv2d if spatial == 2 else volumetric.conv3d
    result = kernel(inner, folded, filters)
    return result.reshape(lead + result.shape[1:])


def no_cpu_kernel(ctx, *inputs):
    """The InvalidArgumentError TensorFlow's session raises for an op with no CPU kernel."""
    node_def = ctx.node_def
    attrs = ", ".join(f"{key}={_attr_text(value)}" for key, value in
                      sorted(node_def.attr.items()) if not key.startswith("_"))
    raise invalid(ctx, f"No OpKernel was registered to support Op '{node_def.op}' used by "
                       f"{{{{node {node_def.name}}}}} with these attrs: [{attrs}]\n"
                       "Registered devices: [CPU]\nRegistered kernels:\n"
                       "  <no registered kernels>\n")


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


for _op in ("Conv2DBackpropFilterV2", "Conv2DBackpropInputV2", "QuantizedReluX"):
    register(_op)(no_cpu_kernel)
