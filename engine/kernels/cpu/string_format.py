"""StringFormat and PrintV2, the ops under tf.strings.format and tf.print.

StringFormat (tensorflow/core/kernels/string_format_op.cc) splits its template at every
placeholder and puts each input between the pieces as Tensor::SummarizeValue(summarize,
print_v2=true) writes it: the first and last `summarize` entries of every dimension, `...`
between them, rows on their own lines (a blank line between blocks of rank 3 and more),
strings in double quotes. PrintV2 (logging_ops.cc) writes its scalar string and `end` to C++'s
std::cerr or std::cout (file descriptors 2 and 1, not Python's sys.stderr and sys.stdout), as a
LOG(INFO/WARNING/ERROR) line on stderr (shown as TF_CPP_MIN_LOG_LEVEL allows), or appends it
to the file of a "file://" stream.
"""

import os
import threading

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import invalid, shape_str, write_standard_stream
from engine.kernels.cpu.asserts import _REGULAR, _element
from engine.lib_io import file_io
from engine.runtime import vlog

_FILE_PREFIX = "file://"
_STREAMS = {"stdout": 1, "stderr": 2}
# The streams PrintV2's constructor accepts, in its error's order.
_VALID_STREAMS = ("stdout", "stderr", "log(info)", "log(warning)", "log(error)")
_FILE_LOCK = threading.Lock()
# LOG(...)'s severity letter, logging_ops.cc's line, and its TF_CPP_MIN_LOG_LEVEL threshold.
_LOG_STREAMS = {"log(info)": ("I", 169, 0), "log(warning)": ("W", 171, 1),
                "log(error)": ("E", 173, 2)}


def _text(value):
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value


def _one_element(value, dtype_name):
    if dtype_name == "string":
        return '"' + _element(value, dtype_name) + '"'
    return _element(value, dtype_name)


def _dim_spacing(dim_index, num_dims, out):
    """PrintDimSpacing: a space between the entries of the last dimension, else a newline per
    dimension below this one and an indent of dim_index + 1 spaces."""
    if dim_index == num_dims - 1:
        out.append(" ")
        return
    out.append("\n" * (num_dims - dim_index - 1) + " " * (dim_index + 1))


def _print_one_dim_v2(dim_index, shape, at_ends, flat, data_index, out, dtype_name):
    """PrintOneDimV2: the first and last `at_ends` entries of each dimension, `...` between."""
    if dim_index == len(shape):
        out.append(_one_element(flat[data_index], dtype_name))
        return
    out.append("[")
    count = shape[dim_index]
    start_of_end = max(at_ends, count - at_ends)
    per_entry = int(np.prod(shape[dim_index + 1:], dtype=np.int64))
    for i in range(min(at_ends, count)):
        if i > 0:
            _dim_spacing(dim_index, len(shape), out)
        _print_one_dim_v2(dim_index + 1, shape, at_ends, flat, data_index + per_entry * i, out,
                          dtype_name)
    if count > 2 * at_ends:
        _dim_spacing(dim_index, len(shape), out)
        out.append("...")
    for i in range(start_of_end, count):
        _dim_spacing(dim_index, len(shape), out)
        _print_one_dim_v2(dim_index + 1, shape, at_ends, flat, data_index + per_entry * i, out,
                          dtype_name)
    out.append("]")


def summarize_value_v2(array, dtype, max_entries):
    """Tensor::SummarizeValue(max_entries, print_v2=true)."""
    array = np.asarray(array)
    num_elts = int(array.size)
    if max_entries < 0:
        max_entries = num_elts
    limit = min(max_entries, num_elts)
    flat = array.reshape(-1)
    dtype_name = dtype.base_dtype.name
    if dtype_name == "bool" and limit == 0:
        return ""  # SummarizeArray<bool> of no data prints nothing, not even brackets
    if dtype_name not in _REGULAR:  # complex, resource, variant: TensorFlow has no printer
        text = " ".join("?" for _ in range(limit)) + ("..." if max_entries < num_elts else "")
        return f"[{text}]" if array.ndim > 0 else text
    if array.ndim == 0:
        text = " ".join(_one_element(flat[i], dtype_name) for i in range(limit))
        return text + ("..." if num_elts > limit else "")
    out = []
    _print_one_dim_v2(0, array.shape, limit, flat, 0, out, dtype_name)
    return "".join(out)


def split_template(template, placeholder):
    """absl::StrSplit(template, placeholder): an empty placeholder splits between characters."""
    if placeholder:
        return template.split(placeholder)
    return list(template) if template else [""]


@register("StringFormat")
def string_format(ctx, *inputs):
    template = _text(ctx.attr("template", "%s"))
    pieces = split_template(template, _text(ctx.attr("placeholder", "%s")))
    if len(pieces) - 1 != len(inputs):
        raise invalid(ctx, "num placeholders in template and num inputs must match: "
                           f"{len(pieces) - 1} vs. {len(inputs)}")
    summarize = ctx.attr("summarize", 3)
    types = ctx.attr("T") or [dtypes.as_dtype(np.asarray(x).dtype) for x in inputs]
    # The pieces are appended as C strings: each ends at its first NUL.
    message = [pieces[0].split("\0", 1)[0]]
    for value, dtype, piece in zip(inputs, types, pieces[1:]):
        message.append(summarize_value_v2(value, dtypes.as_dtype(dtype), summarize))
        message.append(piece.split("\0", 1)[0])
    text = "".join(message).encode("utf-8", "surrogateescape")
    return np.array(text, dtype=object)


def _append_to_file(ctx, path, data):
    with _FILE_LOCK:
        try:
            with open(path, "ab") as stream:
                stream.write(data)
        except OSError as error:
            raise file_io.os_error(error, path, ctx.node_def) from None


@register("PrintV2")
def print_v2(ctx, message):
    stream = _text(ctx.attr("output_stream", "stderr"))
    message = np.asarray(message, dtype=object)
    if message.ndim != 0:
        raise invalid(ctx, f"Input is expected to be scalar, but got {shape_str(message.shape)}")
    text = message.item()
    text = text if isinstance(text, bytes) else str(text).encode("utf-8")
    end = ctx.attr("end", b"\n")
    ended = text + (end if isinstance(end, bytes) else end.encode("utf-8"))
    if stream.startswith(_FILE_PREFIX):
        _append_to_file(ctx, stream[len(_FILE_PREFIX):], ended)
        return None
    if stream not in _VALID_STREAMS:
        raise invalid(ctx, f"Unknown output stream: {stream}, Valid streams are: "
                           + " ".join(_VALID_STREAMS))
    if stream in _LOG_STREAMS:
        _log(stream, ended)
    else:
        write_standard_stream(_STREAMS[stream], ended)
    return None


def _min_log_level():
    try:
        return int(os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0") or 0)
    except ValueError:
        return 0


def _log(stream, ended):
    """LOG(INFO/WARNING/ERROR) << message: absl's prefix, the message and a newline on stderr,
    unless TF_CPP_MIN_LOG_LEVEL is above the severity."""
    letter, line, severity = _LOG_STREAMS[stream]
    if _min_log_level() <= severity:
        prefix = letter + vlog.prefix("logging_ops", line)[1:]
        write_standard_stream(2, prefix.encode("utf-8") + ended + b"\n")
