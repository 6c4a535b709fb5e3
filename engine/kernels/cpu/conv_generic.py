"""CPU kernels of the generic Conv op (TensorFlow 2.x's convolution of any batch_dims over
2 or 3 spatial dims): the extra batch dims folded into one, then the engine's Conv2D or
Conv3D kernel, with the CPU's refusals in TensorFlow's words."""

from types import SimpleNamespace

from engine.framework.errors import UnimplementedError
from engine.kernels import register
from engine.kernels.cpu import nn, volumetric


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
    rank = spatial + 2  # the attrs describe the folded input: one batch dim
    strides = list(attrs.get("strides"))
    dilations = list(attrs.get("dilations") or [1] * rank)
    explicit = list(attrs.get("explicit_paddings") or [])
    inner = SimpleNamespace(node_def=getattr(ctx, "node_def", None), attrs={
        "strides": strides, "dilations": dilations, "padding": attrs.get("padding"),
        "explicit_paddings": explicit, "data_format": b"NHWC" if spatial == 2 else b"NDHWC"})
    kernel = nn.conv2d if spatial == 2 else volumetric.conv3d
    result = kernel(inner, folded, filters)
    return result.reshape(lead + result.shape[1:])
