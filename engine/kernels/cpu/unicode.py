"""CPU kernels of tf.strings' Unicode ops on dense tensors: UnicodeScript, UnicodeTranscode,
UnicodeEncode (unicode_ops.cc, unicode_script_op.cc) and UnsortedSegmentJoin
(unsorted_segment_join_op.cc), their errors in TensorFlow's words
(tests/fixtures/unicode/unicode.json).

TensorFlow converts through ICU; Python's codecs decode the same way where the fixtures look
(one replacement per maximal ill-formed subsequence, surrogates and code points past U+10FFFF
refused). UnicodeScript reads ICU's script of each code point from unicode_scripts.json
(tools/extract_unicode_scripts.py), as Python has no ICU.
"""

import codecs
import json
from pathlib import Path

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_SCRIPTS = None
_MALFORMED = "\udc80"  # what a decoding error leaves in the text: no decoder yields it
_MARK_ERRORS = "graph_inspector_unicode_mark"
codecs.register_error(_MARK_ERRORS, lambda error: (_MALFORMED, error.end))
_OUTPUT_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _script_runs():
    global _SCRIPTS
    if _SCRIPTS is None:
        table = json.loads(Path(__file__).with_name("unicode_scripts.json").read_text())
        runs = np.array(table["runs"], dtype=np.int64)
        _SCRIPTS = (runs[:, 0], runs[:, 1].astype(np.int32), table["last_code_point"])
    return _SCRIPTS


@register("UnicodeScript")
def unicode_script(ctx, code_points):
    """ICU's UScriptCode of each code point; -1 (USCRIPT_INVALID_CODE) outside Unicode."""
    starts, scripts, last = _script_runs()
    values = np.asarray(code_points, dtype=np.int64)
    found = scripts[np.clip(np.searchsorted(starts, values, side="right") - 1, 0, None)]
    return np.where((values < 0) | (values > last), np.int32(-1), found).astype(np.int32)


class _ErrorOptions:
    """errors / replacement_char as TensorFlow's GetErrorOptions reads them."""

    def __init__(self, ctx):
        errors = _text(ctx.attr("errors", "replace"))
        self.strict = errors == "strict"
        self.elide = errors == "ignore"
        self.substitute = chr(int(ctx.attr("replacement_char", 0xFFFD)))

    def replacement(self):
        return "" if self.elide else self.substitute


def _encode(text, encoding):
    return text.encode(_OUTPUT_CODECS[encoding], "surrogatepass")


def _decoder(ctx, encoding):
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise invalid(ctx, "Could not create converter for input encoding: " + encoding)
    return info


@register("UnicodeTranscode")
def unicode_transcode(ctx, values):
    options = _ErrorOptions(ctx)
    decoder = _decoder(ctx, _text(ctx.attr("input_encoding")))
    output_encoding = _text(ctx.attr("output_encoding"))
    replace_controls = ctx.attr("replace_control_characters", False)
    values = np.asarray(values, dtype=object)
    out = np.empty(values.shape, dtype=object)
    any_error = False
    for index, value in np.ndenumerate(values):
        data = value if isinstance(value, bytes) else str(value).encode("utf-8")
        text = decoder.decode(data, _MARK_ERRORS)[0]
        chars = []
        for ch in text:
            if ch == _MALFORMED or (replace_controls and ord(ch) <= 0x1F):
                any_error = True
                ch = options.replacement()
            chars.append(ch)
        out[index] = _encode("".join(chars), output_encoding)
    if options.strict and any_error:
        raise invalid(ctx, "Invalid formatting on input string")
    return out


def _valid_code_point(code_point):
    return 0 <= code_point <= 0x10FFFF and not 0xD800 <= code_point <= 0xDFFF


@register("UnicodeEncode")
def unicode_encode(ctx, values, splits):
    """One string per row of the ragged code points (values split at `splits`)."""
    options = _ErrorOptions(ctx)
    encoding = _text(ctx.attr("output_encoding"))
    values = np.asarray(values).reshape(-1).tolist()
    splits = np.asarray(splits).reshape(-1).tolist()
    if not splits:
        raise invalid(ctx, "Input_splits should contain elements, but given input_values has "
                           f"{len(values)} elements")
    if splits[0] != 0:
        raise invalid(ctx, f"First value in input_splits must be zero, got {splits[0]}")
    rows = []
    for start, end in zip(splits, splits[1:]):
        if end < start:
            raise invalid(ctx, "Values in input_splits must be equal or in ascending order, "
                               f"got {start} and {end}")
        if end > len(values):
            raise invalid(ctx, "Values in input_splits must be less than or equal to "
                               f"input_values size, got {end} and {len(values)}")
        chars = []
        for code_point in values[start:end]:
            if _valid_code_point(code_point):
                chars.append(chr(code_point))
            elif options.strict:
                raise invalid(ctx, "Code point is out of range for Unicode, or is a surrogate.")
            else:
                chars.append(options.replacement())
        rows.append(_encode("".join(chars), encoding))
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return out


@register("UnsortedSegmentJoin")
def unsorted_segment_join(ctx, inputs, segment_ids, num_segments):
    """Strings joined with `separator` per segment id, in the order they come."""
    inputs = np.asarray(inputs, dtype=object)
    ids = np.asarray(segment_ids)
    count_tensor = np.asarray(num_segments)
    if count_tensor.ndim != 0:
        raise invalid(ctx, "Number of segments should be a scalar, got shape: "
                           f"{shape_str(count_tensor.shape)}")
    count = int(count_tensor)
    if count < 0:
        raise invalid(ctx, f"Number of segments must be non-negative but got {count}")
    if ids.ndim == 0:
        raise invalid(ctx, "Segment_id cannot have rank 0")
    if ids.ndim > inputs.ndim:
        from engine.framework.errors import OutOfRangeError
        raise OutOfRangeError(ctx.node_def, None, f"Invalid segment_id rank {ids.ndim} for "
                                                  f"input with {inputs.ndim} dimension(s)")
    for axis in range(ids.ndim):
        if ids.shape[axis] != inputs.shape[axis]:
            # TensorFlow's words name the input's rank as its "dimension".
            raise invalid(ctx, f"Segment dimension is {ids.shape[axis]} while input dimension "
                               f"is {inputs.ndim} in rank {axis}")
    separator = ctx.attr("separator", b"")
    separator = separator if isinstance(separator, bytes) else separator.encode("utf-8")
    inner = inputs.shape[ids.ndim:]
    inner_size = int(np.prod(inner, dtype=np.int64))
    flat_ids = ids.reshape(-1).tolist()
    rows = inputs.reshape(len(flat_ids), inner_size)
    joined = [[None] * inner_size for _ in range(count)]
    for position, segment in enumerate(flat_ids):
        if not 0 <= segment < count:
            raise invalid(ctx, "segment_ids are not allowed to exceed num_segments or to have "
                               "negative values.")
        for k, value in enumerate(rows[position].tolist()):
            value = value if isinstance(value, bytes) else str(value).encode("utf-8")
            held = joined[segment][k]
            joined[segment][k] = value if held is None else held + separator + value
    out = np.empty((count,) + inner, dtype=object)
    flat_out = out.reshape(count, inner_size)
    for segment in range(count):
        for k, value in enumerate(joined[segment]):
            flat_out[segment, k] = b"" if value is None else value
    return out
