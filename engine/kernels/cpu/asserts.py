"""Assert: a no-op when its condition holds, else InvalidArgumentError with TensorFlow's text.

The message is AssertOp's (tensorflow/core/kernels/logging_ops.cc): "assertion failed: "
then each data tensor as `[` Tensor::SummarizeValue(summarize) `]`, separated by spaces.
SummarizeValue prints the first `summarize` elements (all of them when negative): nested
brackets per dimension, `...` where it stops; floats as TensorFlow's LegacyPrecision (the
shortest of %.6g/%.9g, %.15g/%.17g for doubles, that reads back), bools as 1/0, strings
as absl::Utf8SafeCEscape writes them, and `?` for types it has no printer for (complex, resource, variant).
"""

import numpy as np

from engine.framework import dtypes
from engine.framework.errors import InvalidArgumentError
from engine.kernels import register
from engine.kernels.common import shape_str
from engine.framework.text_formats import c_escape, float_text

_FLOAT32_LIKE = {"float32", "float16", "bfloat16"}
_REGULAR = {"float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64",
            "uint8", "uint16", "uint32", "uint64", "bool", "string"}


def _element(value, dtype_name):
    if dtype_name == "string":
        return c_escape(value, utf8_safe=True)
    if dtype_name in _FLOAT32_LIKE:
        return float_text(np.float32(value), double=False)
    if dtype_name == "float64":
        return float_text(value, double=True)
    return str(int(value))  # integers; bools as 1 and 0


def _print_one_dim(dim_index, shape, limit, flat, index, out, dtype_name):
    """PrintOneDim; `index` is a one-element list (the data index it advances)."""
    if index[0] >= limit:
        return
    if dim_index == len(shape) - 1:
        for i in range(shape[dim_index]):
            if index[0] >= limit:
                if dim_index != 0:
                    out.append("...")
                return
            if i > 0:
                out.append(" ")
            out.append(_element(flat[index[0]], dtype_name))
            index[0] += 1
        return
    for _ in range(shape[dim_index]):
        opened = index[0] < limit
        if opened:
            out.append("[")
        _print_one_dim(dim_index + 1, shape, limit, flat, index, out, dtype_name)
        if index[0] < limit or opened:
            out.append("]")


def summarize_value(array, dtype, max_entries):
    """Tensor::SummarizeValue(max_entries, print_v2=False)."""
    array = np.asarray(array)
    num_elts = int(array.size)
    if max_entries < 0:
        max_entries = num_elts
    limit = min(max_entries, num_elts)
    flat = array.reshape(-1)
    dtype_name = dtype.base_dtype.name
    if dtype_name == "bool" and limit == 0:
        return ""  # SummarizeArray<bool> of no data prints nothing, not even "..."
    if dtype_name not in _REGULAR:
        text = " ".join("?" for _ in range(limit))
        return text + ("..." if max_entries < num_elts else "")
    out = []
    if array.ndim == 0:
        out = [_element(flat[i], dtype_name) if i == 0 else " " for i in range(limit)]
    else:
        _print_one_dim(0, array.shape, limit, flat, [0], out, dtype_name)
    if num_elts > limit:
        out.append("...")
    return "".join(out)


@register("Assert")
def assert_(ctx, condition, *data):
    condition = np.asarray(condition)
    if not (condition.ndim == 0 or condition.shape == (1,)):
        raise InvalidArgumentError(ctx.node_def, None,
                                   f"In[0] should be a scalar: {shape_str(condition.shape)}")
    if bool(condition.reshape(())):
        return None
    summarize = ctx.attr("summarize", 3)
    types = ctx.attr("T") or [dtypes.as_dtype(np.asarray(x).dtype) for x in data]
    parts = [f"[{summarize_value(x, t, summarize)}]" for x, t in zip(data, types)]
    raise InvalidArgumentError(ctx.node_def, None, "assertion failed: " + " ".join(parts))
