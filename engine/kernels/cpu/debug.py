"""CheckNumerics and Print.

CheckNumerics: its input, or InvalidArgumentError "<message> : Tensor had NaN values" (Inf,
Inf and NaN) as TensorFlow's CheckNumericsOp. Print: its input forwarded, and `message[data0][data1]...` written to stderr.

As TensorFlow's PrintOp (tensorflow/core/kernels/logging_ops.cc): each data tensor as
Tensor::SummarizeValue(summarize), the line written straight to file descriptor 2 (C++'s
std::cerr, not Python's sys.stderr), at most `first_n` times per node and session when
first_n >= 0.
"""

import os
import threading

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, write_standard_stream
from engine.kernels.cpu.asserts import summarize_value

_COUNT_LOCK = threading.Lock()


@register("Print")
def print_(ctx, value, *data):
    first_n = ctx.attr("first_n", -1)
    if first_n >= 0:
        with _COUNT_LOCK:
            counts = ctx.resources.table("print_counts")
            if counts.get(ctx.name, 0) >= first_n:
                return value
            counts[ctx.name] = counts.get(ctx.name, 0) + 1
    message = ctx.attr("message", b"")
    message = message.decode("utf-8", "backslashreplace") if isinstance(message, bytes) \
        else message
    summarize = ctx.attr("summarize", 3)
    types = ctx.attr("U") or []
    parts = [f"[{summarize_value(x, t, summarize)}]" for x, t in zip(data, types)]
    write_standard_stream(2, (message + "".join(parts) + "\n").encode("utf-8"))
    return value


@register("CheckNumerics")
def check_numerics(ctx, tensor):
    values = np.asarray(tensor)
    has_nan, has_inf = bool(np.isnan(values).any()), bool(np.isinf(values).any())
    if has_nan or has_inf:
        message = ctx.attr("message", b"")
        message = message.decode("utf-8", "backslashreplace") if isinstance(message, bytes) \
            else message
        what = "Inf and NaN" if has_nan and has_inf else ("NaN" if has_nan else "Inf")
        raise invalid(ctx, f"{message} : Tensor had {what} values")
    return tensor
