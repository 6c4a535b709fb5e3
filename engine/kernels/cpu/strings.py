"""CPU kernels of StringSplit, StringSplitV2, Substr, AsString, StringToNumber, ReduceJoin,
StringLength, StringLower, StringUpper, StringStrip and the regex ops, as
TensorFlow's string kernels compute them (string_split_op.cc, substr_op.cc, as_string_op.cc,
string_to_number_op.cc), their errors in TensorFlow's words (tests/fixtures/mathops/)."""

import re

import numpy as np

from engine.framework import dtypes
from engine.framework.errors import OutOfRangeError
from engine.kernels import register
from engine.kernels.common import datatype_string, invalid, shape_str
from engine.kernels.cpu import string_hash

_WHITESPACE = b" \t\n\v\f\r"


def _bytes(value):
    return value if isinstance(value, bytes) else str(value).encode()


def _sparse(ctx, rows):
    """(indices [n, 2] int64, values [n], dense_shape [2] int64) of token rows."""
    count = sum(len(tokens) for tokens in rows)
    indices = np.zeros((count, 2), np.int64)
    values = np.empty(count, dtype=object)
    at = 0
    for row, tokens in enumerate(rows):
        for column, token in enumerate(tokens):
            indices[at] = row, column
            values[at] = token
            at += 1
    width = max((len(tokens) for tokens in rows), default=0)
    return indices, values, np.array([len(rows), width], np.int64)


def _vector_input(ctx, source, what="input"):
    source = np.asarray(source, dtype=object)
    if source.ndim != 1:
        raise invalid(ctx, f"{what} must be a vector, got shape: {shape_str(source.shape)}")
    return [_bytes(v) for v in source.tolist()]


def _scalar(ctx, value, what):
    value = np.asarray(value, dtype=object)
    if value.ndim != 0:
        raise invalid(ctx, f"{what} must be a scalar, got shape: {shape_str(value.shape)}")
    return _bytes(value.item())


@register("StringSplit")
def string_split(ctx, source, delimiter):
    strings = _vector_input(ctx, source)
    delimiter = _scalar(ctx, delimiter, "delimiter")
    skip_empty = ctx.attrs.get("skip_empty", True)
    rows = []
    for text in strings:
        if not text:
            tokens = []  # an empty string gives no token, empty or not
        elif not delimiter:
            tokens = [text[i:i + 1] for i in range(len(text))]
        else:
            tokens = re.split(b"[" + re.escape(delimiter) + b"]", text)
        if skip_empty:
            tokens = [t for t in tokens if t]
        rows.append(tokens)
    return _sparse(ctx, rows)


def _split_whitespace(text, maxsplit):
    """Tokens between runs of ASCII whitespace; once maxsplit tokens are cut, the rest of the
    string after the whitespace that follows is one more token, empty or not (TensorFlow's)."""
    tokens = []
    i, n = 0, len(text)
    while i < n and text[i] in _WHITESPACE:
        i += 1
    while i < n:
        start = i
        while i < n and text[i] not in _WHITESPACE:
            i += 1
        tokens.append(text[start:i])
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if 0 < maxsplit == len(tokens):
            tokens.append(text[i:])
            break
    return tokens


@register("StringSplitV2")
def string_split_v2(ctx, source, sep):
    strings = _vector_input(ctx, source)
    sep = _scalar(ctx, sep, "sep")
    maxsplit = ctx.attrs.get("maxsplit", -1)
    rows = []
    for text in strings:
        if not sep:
            rows.append(_split_whitespace(text, maxsplit))
        else:  # an empty string is one empty token (SplitV2 emplaces the rest of the text)
            rows.append(text.split(sep, maxsplit if maxsplit > 0 else -1))
    return _sparse(ctx, rows)


def _utf8_starts(text):
    """Byte offsets of each UTF-8 character of `text`, and its length."""
    return [i for i, byte in enumerate(text) if byte & 0xC0 != 0x80] + [len(text)]


@register("Substr")
def substr(ctx, value, pos, length):
    value = np.asarray(value, dtype=object)
    pos, length = np.asarray(pos), np.asarray(length)
    unit = ctx.attrs.get("unit", "BYTE")
    unit = unit.decode() if isinstance(unit, bytes) else unit
    if pos.shape != length.shape:
        raise invalid(ctx, "pos and len should have the same shape, got: "
                           f"{shape_str(pos.shape)} vs. {shape_str(length.shape)}")
    try:
        shape = np.broadcast_shapes(value.shape, pos.shape)
    except ValueError:
        raise invalid(ctx, f"Incompatible shapes: {shape_str(value.shape)} vs. "
                           f"{shape_str(pos.shape)}") from None
    values = np.broadcast_to(value, shape).reshape(-1)
    positions = np.broadcast_to(pos, shape).reshape(-1).tolist()
    lengths = np.broadcast_to(length, shape).reshape(-1).tolist()
    out = np.empty(len(values), dtype=object)
    for i, (text, p, n) in enumerate(zip(values.tolist(), positions, lengths)):
        text = _bytes(text)
        if unit == "UTF8_CHAR":
            starts = _utf8_starts(text)
            size = len(starts) - 1
        else:
            size = len(text)
        if not -size <= p <= size:
            raise invalid(ctx, f"pos {p} out of range for string b'"
                               f"{text.decode('utf-8', 'backslashreplace')}' at index {i}")
        begin = p + size if p < 0 else p
        end = min(size, begin + n)
        if unit == "UTF8_CHAR":
            out[i] = text[starts[begin]:starts[end]]
        else:
            out[i] = text[begin:end]
    return out.reshape(shape)


_FLOATS = {np.dtype(t) for t in (np.float16, np.float32, np.float64)}
_COMPLEX = {np.dtype(np.complex64), np.dtype(np.complex128)}


@register("AsString")
def as_string(ctx, value):
    value = np.asarray(value)
    dtype = value.dtype
    precision = ctx.attrs.get("precision", -1)
    scientific = ctx.attrs.get("scientific", False)
    shortest = ctx.attrs.get("shortest", False)
    width = ctx.attrs.get("width", -1)
    fill = ctx.attrs.get("fill", "")
    fill = fill.decode() if isinstance(fill, bytes) else fill
    name = datatype_string(dtypes.as_dtype(dtype)) if dtype != object else "string"
    is_float = dtype in _FLOATS or dtype.name == "bfloat16" or dtype in _COMPLEX
    if scientific and shortest:
        raise invalid(ctx, "Cannot select both scientific and shortest notation")
    if precision > -1 and not is_float:
        raise invalid(ctx, f"precision not supported for datatype {name}")
    if scientific and not is_float:
        raise invalid(ctx, f"scientific not supported for datatype {name}")
    if shortest and not is_float:
        raise invalid(ctx, f"shortest not supported for datatype {name}")
    if len(fill) > 1:
        raise invalid(ctx, f"Fill string must be one or fewer characters: {fill}")
    spec = "%"
    if fill:
        if fill not in " +-0#":
            raise invalid(ctx, f'Fill argument not supported: "{fill}"')
        spec += fill
    if width > -1:
        spec += str(width)
    if precision > -1:
        spec += f".{precision}"
    flat = value.reshape(-1)
    if dtype.kind in "iu":
        spec += "d"
        texts = [spec % v for v in flat.tolist()]
    elif is_float:
        spec += "g" if shortest else ("e" if scientific else "f")
        if dtype in _COMPLEX:
            texts = [f"({spec % v.real},{spec % v.imag})" for v in flat.tolist()]
        else:
            texts = [spec % float(v) for v in flat.astype(np.float64).tolist()]
    elif dtype == np.bool_:
        texts = [("%" + spec[1:] + "s") % ("true" if v else "false") for v in flat.tolist()]
    elif dtype == object:
        texts = [("%" + spec[1:] + "s") % _bytes(v).decode("utf-8", "surrogateescape")
                 for v in flat.tolist()]
    else:
        raise invalid(ctx, f"Type not supported: {name}")
    out = np.empty(len(texts), dtype=object)
    out[:] = [t.encode("utf-8", "surrogateescape") for t in texts]
    return out.reshape(value.shape)


_INTEGER = re.compile(rb"[+-]?[0-9]+")
_FLOAT = re.compile(rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
                    re.IGNORECASE)


def _to_number(text, dtype):
    stripped = text.strip(_WHITESPACE)
    if dtype.kind == "f":
        if not _FLOAT.fullmatch(stripped):
            return None
        return float(stripped.decode())
    if not _INTEGER.fullmatch(stripped):
        return None
    number = int(stripped)
    info = np.iinfo(dtype)
    return number if info.min <= number <= info.max else None


@register("StringToNumber")
def string_to_number(ctx, value):
    value = np.asarray(value, dtype=object)
    dtype = np.dtype(ctx.attrs.get("out_type", dtypes.float32).as_numpy_dtype)
    out = np.empty(value.size, dtype)
    for i, text in enumerate(value.reshape(-1).tolist()):
        text = _bytes(text)
        number = _to_number(text, dtype)
        if number is None:
            raise invalid(ctx, "StringToNumberOp could not correctly convert string: "
                               + text.decode("utf-8", "backslashreplace"))
        with np.errstate(all="ignore"):
            out[i] = number
    return out.reshape(value.shape)


# -- ReduceJoin, StringLength, StringLower/Upper, StringStrip and the regex ops --------------

@register("ReduceJoin")
def reduce_join(ctx, inputs, reduction_indices):
    """TensorFlow's ReduceJoinOp: the strings along the reduced axes joined by `separator`,
    the first listed axis varying fastest (axes [0, 1] of [[a, b], [c, d]] join a, c, b, d)."""
    inputs = np.asarray(inputs, dtype=object)
    axes = np.asarray(reduction_indices).reshape(-1).tolist()
    separator = _bytes(ctx.attrs.get("separator", b""))
    keep_dims = ctx.attrs.get("keep_dims", False)
    rank = inputs.ndim
    reduced = []
    for axis in axes:
        if not -rank <= axis < rank:
            raise OutOfRangeError(getattr(ctx, "node_def", None), None,
                                  f"Invalid reduction dimension {axis} for input with {rank} "
                                  f"dimension(s)")
        if axis % rank in reduced:
            raise invalid(ctx, f"Duplicate reduction dimension {axis}")
        reduced.append(axis % rank)
    kept = [a for a in range(rank) if a not in reduced]
    # The last listed axis is the slowest: it comes first among the reduced ones.
    order = kept + reduced[::-1]
    moved = inputs.transpose(order) if rank else inputs
    kept_shape = [inputs.shape[a] for a in kept]
    rows = moved.reshape(int(np.prod(kept_shape, dtype=np.int64)), -1) if moved.size else \
        np.empty((int(np.prod(kept_shape, dtype=np.int64)), 0), dtype=object)
    out = np.empty(rows.shape[0], dtype=object)
    out[:] = [separator.join(_bytes(v) for v in row) for row in rows.tolist()]
    if keep_dims:
        shape = [1 if a in reduced else inputs.shape[a] for a in range(rank)]
    else:
        shape = kept_shape
    return out.reshape(shape)


def _map_strings(value, fn, out_dtype=object):
    value = np.asarray(value, dtype=object)
    out = np.empty(value.size, dtype=out_dtype)
    out[:] = [fn(_bytes(v)) for v in value.reshape(-1).tolist()]
    return out.reshape(value.shape)


@register("StringLength")
def string_length(ctx, value):
    """Each string's length in bytes, or (unit UTF8_CHAR) the bytes that start a character."""
    unit = ctx.attrs.get("unit", "BYTE")
    unit = unit.decode() if isinstance(unit, bytes) else unit
    if unit == "UTF8_CHAR":
        return _map_strings(value, lambda s: sum((b & 0xC0) != 0x80 for b in s), np.int32)
    return _map_strings(value, len, np.int32)


def _encoding(ctx):
    encoding = ctx.attrs.get("encoding", "")
    encoding = encoding.decode() if isinstance(encoding, bytes) else encoding
    if encoding not in ("", "utf-8"):
        raise invalid(ctx, f"only utf-8 or '' (no encoding) is supported, received {encoding}")
    return encoding


@register("StringLower")
def string_lower(ctx, value):
    """ASCII letters lowered (absl::AsciiStrToLower); with encoding 'utf-8', every letter."""
    if _encoding(ctx):
        return _map_strings(value, lambda s: s.decode("utf-8", "surrogateescape").lower()
                            .encode("utf-8", "surrogateescape"))
    return _map_strings(value, bytes.lower)


@register("StringUpper")
def string_upper(ctx, value):
    if _encoding(ctx):
        return _map_strings(value, lambda s: s.decode("utf-8", "surrogateescape").upper()
                            .encode("utf-8", "surrogateescape"))
    return _map_strings(value, bytes.upper)


@register("StringStrip")
def string_strip(ctx, value):
    """Leading and trailing ASCII whitespace removed (absl::StripAsciiWhitespace)."""
    return _map_strings(value, lambda s: s.strip(_WHITESPACE))


def _compile(ctx, pattern):
    pattern = _bytes(pattern)
    try:
        return re.compile(pattern)
    except re.error as error:
        raise invalid(ctx, f"Invalid pattern: {pattern.decode('utf-8', 'backslashreplace')}, "
                           f"error: {error}") from None


_REWRITE = re.compile(rb"\\(.)", re.S)


def _rewriter(rewrite):
    """RE2's rewrite string as a function of a match (\\0-\\9 the groups, \\\\ a
    backslash), and whether it is valid. An invalid escape ends the expansion there, as RE2's
    Rewrite stops (GlobalReplace keeps what it wrote; Replace leaves the string as it was)."""
    pieces, at, valid = [], 0, True
    for escape in _REWRITE.finditer(rewrite):
        pieces.append(rewrite[at:escape.start()])
        char = escape.group(1)
        if char.isdigit():
            pieces.append(int(char))
        elif char == b"\\":
            pieces.append(b"\\")
        else:
            valid = False
            break
        at = escape.end()
    else:
        pieces.append(rewrite[at:])

    def expand(match):
        return b"".join(p if isinstance(p, bytes) else (match.group(p) or b"")
                        for p in pieces)
    return expand, valid


def _regex_replace(ctx, value, pattern, rewrite):
    compiled = _compile(ctx, pattern)
    rewrite = _bytes(rewrite)
    expand, valid = _rewriter(rewrite)
    replace_global = ctx.attrs.get("replace_global", True)
    groups = [int(d) for d in re.findall(rb"\\(\d)", rewrite)]
    if max(groups, default=0) > compiled.groups or not (valid or replace_global):
        # RE2 refuses a rewrite naming a group the pattern lacks: every string unchanged.
        return _map_strings(value, lambda s: s)
    return _map_strings(value, lambda s: _re2_sub(compiled, expand, s, replace_global))


def _re2_sub(compiled, expand, text, replace_global):
    """RE2's GlobalReplace (or Replace): unlike Python's re.sub, an empty match right after a
    match is skipped ("x*" over "fox" gives "-f-o-", not "-f-o--")."""
    out, at, last_end = [], 0, -1
    for match in compiled.finditer(text):
        if match.start() == match.end() == last_end:
            continue
        out.append(text[at:match.start()])
        out.append(expand(match))
        at = last_end = match.end()
        if not replace_global:
            break
    out.append(text[at:])
    return b"".join(out)


def _regex_scalar(ctx, value, what):
    value = np.asarray(value, dtype=object)
    if value.ndim != 0:
        raise invalid(ctx, f"{what} must be scalar, but received {shape_str(value.shape)}")
    return _bytes(value.item())


@register("RegexReplace")
def regex_replace(ctx, value, pattern, rewrite):
    return _regex_replace(ctx, value, _regex_scalar(ctx, pattern, "Pattern"),
                          _regex_scalar(ctx, rewrite, "Rewrite"))


@register("StaticRegexReplace")
def static_regex_replace(ctx, value):
    return _regex_replace(ctx, value, ctx.attrs["pattern"], ctx.attrs["rewrite"])


@register("RegexFullMatch")
def regex_full_match(ctx, value, pattern):
    compiled = _compile(ctx, _regex_scalar(ctx, pattern, "Pattern"))
    return _map_strings(value, lambda s: compiled.fullmatch(s) is not None, np.bool_)


# -- StringToHashBucketFast, StringToHashBucketStrong, StringToHashBucket ----------------------

def _hash_buckets(ctx, value, hash_fn):
    num_buckets = int(ctx.attrs["num_buckets"])
    return _map_strings(value, lambda s: hash_fn(s) % num_buckets, np.int64)


@register("StringToHashBucketFast")
def string_to_hash_bucket_fast(ctx, value):
    return _hash_buckets(ctx, value, string_hash.fingerprint64)


@register("StringToHashBucketStrong")
def string_to_hash_bucket_strong(ctx, value):
    key = list(ctx.attrs.get("key") or [])
    if len(key) != 2:
        raise invalid(ctx, "Key must have 2 elements")
    key0, key1 = (int(k) & string_hash.M for k in key)
    return _hash_buckets(ctx, value, lambda s: string_hash.siphash(key0, key1, s))


@register("StringToHashBucket")
def string_to_hash_bucket(ctx, value):
    return _hash_buckets(ctx, value, string_hash.legacy_hash64)
