"""CPU kernels of tf.strings' Unicode ops: UnicodeScript, UnicodeTranscode, UnicodeEncode,
UnicodeDecode and UnicodeDecodeWithOffsets (unicode_ops.cc, unicode_script_op.cc) and UnsortedSegmentJoin
(unsorted_segment_join_op.cc), their errors in TensorFlow's words
(tests/fixtures/unicode/unicode.json).

TensorFlow converts through ICU; Python's codecs decode the same way where the fixtures look
(one replacement per maximal ill-formed subsequence, surrogates and code points past U+10FFFF
refused). UnicodeScript reads ICU's script of each code point from unicode_scripts.json
(tools/extract_unicode_scripts.py), as Python has no ICU.
"""

import codecs
import json
import threading
from pathlib import Path

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_SCRIPTS = None
_MALFORMED = "\udc80"  # what a decoding error leaves in the text: no decoder yields it
_MARK_ERRORS = "graph_inspector_unicode_mark"
_SPANS = threading.local()  # the byte length of each malformed run, as a decode meets them


def _mark(error):
    spans = getattr(_SPANS, "lengths", None)
    if spans is not None:
        spans.append(error.end - error.start)
    return _MALFORMED, error.end


codecs.register_error(_MARK_ERRORS, _mark)
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


def _decode_with_offsets(decoder, data, options, replace_controls):
    """(code points, byte offset of each, whether any was malformed or a control character
    replaced) of `data`, as TensorFlow's decoding callback sees them."""
    _SPANS.lengths = []
    try:
        text = decoder.decode(data, _MARK_ERRORS)[0]
        lengths = _SPANS.lengths
    finally:
        _SPANS.lengths = None
    spans = iter(lengths)
    # Bytes no character accounts for lead the string (a byte order mark): the first
    # character's, as ICU reads it.
    lead = len(data) - sum(lengths) - sum(_encoded_size(ch, decoder) for ch in text
                                          if ch != _MALFORMED)
    code_points, offsets, any_error, at = [], [], False, 0
    for ch in text:
        size = next(spans) if ch == _MALFORMED else _encoded_size(ch, decoder)
        size, lead = size + lead, 0
        if ch == _MALFORMED or (replace_controls and ord(ch) <= 0x1F):
            any_error = True
            if not options.elide:
                code_points.append(ord(options.substitute))
                offsets.append(at)
        else:
            code_points.append(ord(ch))
            offsets.append(at)
        at += size
    return code_points, offsets, any_error


def _encoded_size(ch, decoder):
    """The bytes one decoded character took in the input."""
    name = decoder.name
    if name in ("utf-16", "utf-32"):  # byte order marked: each unit as in the marked order
        name += "-le"
    return len(ch.encode(name, "surrogatepass"))


def _decode(ctx, values, with_offsets):
    options = _ErrorOptions(ctx)
    decoder = _decoder(ctx, _text(ctx.attr("input_encoding")))
    replace_controls = ctx.attr("replace_control_characters", False)
    splits, code_points, offsets, any_error = [0], [], [], False
    for value in np.asarray(values, dtype=object).reshape(-1).tolist():
        data = value if isinstance(value, bytes) else str(value).encode("utf-8")
        points, starts, error = _decode_with_offsets(decoder, data, options, replace_controls)
        code_points += points
        offsets += starts
        any_error |= error
        splits.append(len(code_points))
    if options.strict and any_error:
        raise invalid(ctx, "Invalid formatting on input string")
    split_type = dtypes.as_dtype(ctx.attr("Tsplits", dtypes.int64)).as_numpy_dtype
    result = [np.array(splits, split_type), np.array(code_points, np.int32)]
    if with_offsets:
        result.append(np.array(offsets, np.int64))
    return tuple(result)


@register("UnicodeDecode")
def unicode_decode(ctx, values):
    """Row splits and the code points of each string of a vector."""
    return _decode(ctx, values, with_offsets=False)


@register("UnicodeDecodeWithOffsets")
def unicode_decode_with_offsets(ctx, values):
    """Row splits, the code points, and each one's first byte in its string."""
    return _decode(ctx, values, with_offsets=True)


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
