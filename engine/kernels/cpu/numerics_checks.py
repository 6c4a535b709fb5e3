"""The CPU kernels of CheckNumericsV2 (tf.debugging.enable_check_numerics' checks): its input,
or InvalidArgumentError "<message> : Tensor had <what> values", naming -Inf, +Inf and NaN
apart as TensorFlow's CheckNumericsV2Op does; and of CheckPinned (tf.check_pinned), which
the engine's tensors, in plain host memory, never pass: "not pinned", as TensorFlow's CPU."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


@register("CheckNumericsV2")
def check_numerics_v2(ctx, tensor):
    values = np.asarray(tensor)
    found = []
    if values.dtype.kind in "fc":
        infinite = np.isinf(values)
        if (infinite & (values < 0)).any():
            found.append("-Inf")
        if (infinite & (values > 0)).any():
            found.append("+Inf")
        if np.isnan(values).any():
            found.append("NaN")
    if found:
        what = (found[0] if len(found) == 1 else " and ".join(found) if len(found) == 2
                else f"{found[0]}, {found[1]}, and {found[2]}")
        message = ctx.attr("message", b"")
        message = message.decode("utf-8", "backslashreplace") if isinstance(message, bytes) \
            else message
        raise invalid(ctx, f"{message} : Tensor had {what} values")
    return tensor


@register("CheckPinned")
def check_pinned(ctx, tensor):
    raise invalid(ctx, "not pinned")
