"""NumPy CPU kernel of DecodeCSV, as decode_csv_op.cc splits and parses: RFC 4180 fields
(quotes doubled inside a quoted field), one output per column with the records' shape, an
empty or na_value field taking its column's default, TensorFlow's errors word for word.

>>> split_fields(b'1,"x ""y"", z",', ord(","), True, None)
[b'1', b'x "y", z', b'']
>>> parse_number(b" 0x1p-2 ", "float"), parse_number(b"+7", "int32"), parse_number(b"1e2", "int32")
(0.25, 7, None)
"""

import re
from fractions import Fraction

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import invalid

# What strings::safe_strto32/64 take: ASCII digits with a sign, spaces around.
_INTEGER = re.compile(rb"[+-]?[0-9]+")
# What safe_strtof/strtod take (double-conversion, hex and case-insensitive words allowed).
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEX = re.compile(rb"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")
_INFINITY = re.compile(rb"([+-]?)(?:inf|infinity)", re.I)
_NAN = re.compile(rb"[+-]?nan(?:\([0-9A-Za-z_]*\))?", re.I)
_INT_RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}
_KINDS = {dtypes.int32: "int32", dtypes.int64: "int64", dtypes.float32: "float",
          dtypes.float64: "double", dtypes.string: "string"}


class _CsvError(ValueError):
    """A record TensorFlow's kernel refuses; the message is its."""


def split_fields(record, delim, use_quote_delim, select_cols):
    """The fields of one record (DecodeCSVOp::ExtractFields), only select_cols' if given."""
    fields, at, parsed, selected = [], 0, 0, 0
    size, quote = len(record), ord('"')
    if not record:
        return fields
    if not (use_quote_delim and b'"' in record) and b"\n" not in record and b"\r" not in record:
        # Nothing quoted and no line ends: the fields are what lies between delimiters (the
        # loop below gives the same, a character at a time).
        fields = record.split(bytes([delim]))
        return fields if select_cols is None else [fields[i] for i in select_cols
                                                   if i < len(fields)]
    while at < size:
        if record[at] in b"\n\r":  # line ends between fields are skipped
            at += 1
            continue
        include = select_cols is None or select_cols[selected] == parsed
        field = bytearray()
        if use_quote_delim and record[at] == quote:
            at += 1
            while at < size - 1 and (record[at] != quote or record[at + 1] != delim):
                if record[at] != quote:
                    field.append(record[at])
                    at += 1
                elif record[at + 1] == quote:
                    field.append(quote)
                    at += 2
                else:
                    raise _CsvError("Quote inside a string has to be escaped by another quote")
            if not (at < size and record[at] == quote and (at == size - 1
                                                            or record[at + 1] == delim)):
                raise _CsvError("Quoted field has to end with quote followed by delim or end")
            at += 2
        else:
            while at < size and record[at] != delim:
                if (use_quote_delim and record[at] == quote) or record[at] in b"\n\r":
                    raise _CsvError("Unquoted fields cannot have quotes/CRLFs inside")
                field.append(record[at])
                at += 1
            at += 1
        parsed += 1
        if include:
            fields.append(bytes(field))
            selected += 1
            if select_cols is not None and selected == len(select_cols):
                return fields
    # A record ending in the delimiter has an empty last field.
    if ((select_cols is None or select_cols[selected] == parsed)
            and record[size - 1] == delim):
        fields.append(b"")
    return fields


def parse_number(text, kind):
    """The value of a field as `kind` ("int32", "int64", "float", "double"), None if it is
    not one (the float kinds as Python floats, rounded to float32 by the caller)."""
    text = text.strip(b" \t\n\r\v\f")
    if kind in _INT_RANGES:
        if not _INTEGER.fullmatch(text):
            return None
        value = int(text)
        low, high = _INT_RANGES[kind]
        return value if low <= value <= high else None
    if _DECIMAL.fullmatch(text):
        return _nearest_float32(text, float(text)) if kind == "float" else float(text)
    if _HEX.fullmatch(text):
        return float.fromhex(text.decode())
    infinity = _INFINITY.fullmatch(text)
    if infinity:
        return float("-inf") if infinity.group(1) == b"-" else float("inf")
    if _NAN.fullmatch(text):
        return float("nan")
    return None


def _nearest_float32(text, value):
    """The float32 nearest the decimal `text`, given `value`, the double nearest it. Rounding
    that double again goes wrong where it lies halfway between two float32s and the decimal
    does not: there the exact decimal decides, as TensorFlow's parse straight to float."""
    with np.errstate(over="ignore"):
        single = np.float32(value)
    if float(single) == value or not np.isfinite(single):
        return float(single)
    # float(single): against a NumPy float32 a Python float would be cast to float32 first.
    other = np.nextafter(single, np.float32(np.inf if value > float(single) else -np.inf))
    if abs(value - float(single)) != abs(float(other) - value):
        return float(single)
    exact, double = Fraction(text.decode()), Fraction(value)
    if exact == double:
        return float(single)  # a true tie: NumPy's cast rounded it to even, as TensorFlow
    upper, lower = max(single, other), min(single, other)
    return float(upper if exact > double else lower)


def _as_bytes(value):
    return value if isinstance(value, bytes) else str(value).encode()


@register("DecodeCSV")
def decode_csv(ctx, records, *record_defaults):
    out_types = list(ctx.attr("OUT_TYPE"))
    delim = _as_bytes(ctx.attr("field_delim", b","))
    if len(delim) != 1:
        raise invalid(ctx, "field_delim should be only 1 char")
    na_value = _as_bytes(ctx.attr("na_value", b""))
    use_quote_delim = bool(ctx.attr("use_quote_delim", True))
    select_cols = [int(c) for c in ctx.attr("select_cols", [])]
    if select_cols and len(select_cols) != len(out_types):
        raise invalid(ctx, "select_cols should match output size")
    if any(a >= b for a, b in zip(select_cols, select_cols[1:])):
        raise invalid(ctx, "select_cols should be strictly increasing indices")
    if select_cols and select_cols[0] < 0:
        raise invalid(ctx, "select_cols should be non-negative indices")
    defaults = [np.asarray(d) for d in record_defaults]
    for i, default in enumerate(defaults):
        if default.ndim > 1:
            raise invalid(ctx, "Each record default should be at most rank 1")
        if default.size >= 2:
            raise invalid(ctx, f"There should only be 1 default per field but field {i} "
                               f"has {default.size}")
    records = np.asarray(records, dtype=object)
    columns = [[] for _ in out_types]
    for i, record in enumerate(records.ravel()):
        try:
            fields = split_fields(_as_bytes(record), delim[0], use_quote_delim,
                                  select_cols or None)
        except _CsvError as error:
            raise invalid(ctx, str(error)) from None
        if len(fields) != len(out_types):
            raise invalid(ctx, f"Expect {len(out_types)} fields but have {len(fields)} "
                               f"in record {i}")
        for f, (field, dtype) in enumerate(zip(fields, out_types)):
            columns[f].append(_value(ctx, field, dtype, defaults[f], f, i, na_value))
    outputs = tuple(_column(values, dtype, records.shape)
                    for values, dtype in zip(columns, out_types))
    return outputs[0] if len(outputs) == 1 else outputs  # one output: the kernel's value


def _value(ctx, field, dtype, default, f, i, na_value):
    if not field or field == na_value:
        if default.size != 1:
            raise invalid(ctx, f"Field {f} is required but missing in record {i}!")
        return default.reshape(()).item()
    kind = _KINDS.get(dtype)
    if kind is None:
        raise invalid(ctx, f"csv: data type {dtype.as_datatype_enum} not supported in "
                           f"field {f}")
    if kind == "string":
        return field
    value = parse_number(field, kind)
    if value is None:
        raise invalid(ctx, f"Field {f} in record {i} is not a valid {kind}: "
                           f"{field.decode('utf-8', 'replace')}")
    return value


def _column(values, dtype, shape):
    if dtype == dtypes.string:
        column = np.empty(len(values), dtype=object)
        column[:] = [_as_bytes(v) for v in values]
        return column.reshape(shape)
    with np.errstate(over="ignore"):  # 1e39 as a float32 is inf, as TensorFlow's parse
        return np.array(values, dtype=np.float64 if dtype.is_floating else object) \
            .astype(dtype.as_numpy_dtype).reshape(shape)
