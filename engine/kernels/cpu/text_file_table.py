"""A lookup table's entries read from a vocabulary file, as InitializeTableFromTextFileV2 reads
them (lookup_util.cc's TextFileLineIterator): one entry per line, the key and the value each
the whole line (index -2), its line number (-1) or a column split at the delimiter.

`vocab_size` stops after that many lines (and a shorter file is an error); `offset` is added
to line numbers, and to int32 fields, as TensorFlow adds it.
"""

import numpy as np

from engine.framework import errors
from engine.kernels.common import datatype_string, invalid
from engine.lib_io.file_io import open_input

LINE_NUMBER, WHOLE_LINE = -1, -2
_INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_PARSED = {"int32": ("int32", int), "int64": ("int64", int), "float32": ("float", float),
           "float64": ("double", float)}


def check_dtypes(ctx, key_index, value_index, key_dtype, value_dtype):
    """The table's types against what the indices give, in TensorFlow's words."""
    if key_index == LINE_NUMBER and key_dtype.name != "int64":
        raise invalid(ctx, f"Key index for line number requires table key dtype of int64, got "
                           f"{datatype_string(key_dtype)}")
    if key_index == WHOLE_LINE and key_dtype.name not in _INTEGERS + ("string",):
        raise invalid(ctx, f"Key index for whole line requires string or integer table key, "
                           f"got {datatype_string(key_dtype)}")
    if value_index == LINE_NUMBER and value_dtype.name != "int64":
        raise invalid(ctx, f"Value index for line number requires table value dtype of int64, "
                           f"got {datatype_string(value_dtype)}")
    if value_index == WHOLE_LINE and value_dtype.name not in _INTEGERS + ("string",):
        raise invalid(ctx, f"Value index for whole line requires table value dtype of integer "
                           f"or string, got {datatype_string(value_dtype)}")


def _field(ctx, text, line_number, index, dtype, offset):
    if index == LINE_NUMBER:
        return line_number + offset
    if dtype.name == "string":
        return text
    if dtype.name not in _PARSED:
        raise invalid(ctx, f"Data type {datatype_string(dtype)} not supported.")
    word, parse = _PARSED[dtype.name]
    try:
        value = parse(text.decode().strip())
    except (ValueError, UnicodeDecodeError):
        value = None
    if value is None or (parse is int and not _fits(value, dtype)):
        raise invalid(ctx, f"Field {text.decode('utf-8', 'replace')} in line {line_number} is "
                           f"not a valid {word}.")
    if dtype.name == "float32":
        value = float(np.float32(value))
    return value + offset if dtype.name == "int32" else value


def _fits(value, dtype):
    info = np.iinfo(dtype.as_numpy_dtype)
    return info.min <= value <= info.max


def read_text_file_entries(ctx, path, key_dtype, value_dtype, attrs):
    """[(key, value)] of the file's lines, keys and values as a table holds them."""
    key_index, value_index = attrs["key_index"], attrs["value_index"]
    vocab_size, offset = attrs.get("vocab_size", -1), attrs.get("offset", 0)
    delimiter = attrs.get("delimiter", b"\t")
    check_dtypes(ctx, key_index, value_index, key_dtype, value_dtype)
    with open_input(path, ctx.node_def) as stream:
        try:
            content = stream.read()
        except OSError as error:
            raise errors.UnknownError(ctx.node_def, None, f"{path}; {error.strerror}") from None
    entries, position, split = [], 0, max(key_index, value_index) >= 0
    lines = content.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline ending the last line ends no further line
    for number, line in enumerate(lines):
        if vocab_size != -1 and number >= vocab_size:
            return entries
        position += len(line) + 1
        line = line[:-1] if line.endswith(b"\r") else line
        if not line:
            raise invalid(ctx, f"Invalid content in {path}: empty line found at position "
                               f"{min(position, len(content))}.")
        tokens = line.split(delimiter) if split else []
        needed = max(key_index, value_index) + 1
        if split and len(tokens) < needed:
            raise invalid(ctx, f"Invalid number of columns in {path} line {number} "
                               f"({line.decode('utf-8', 'replace')}) : expected at least "
                               f"{needed} got {len(tokens)}")
        key = _field(ctx, line if key_index == WHOLE_LINE else tokens[key_index]
                     if key_index >= 0 else b"", number, key_index, key_dtype, offset)
        value = _field(ctx, line if value_index == WHOLE_LINE else tokens[value_index]
                       if value_index >= 0 else b"", number, value_index, value_dtype, offset)
        entries.append((key, value))
    if vocab_size != -1 and len(entries) != vocab_size:
        raise invalid(ctx, f"Invalid vocab_size in {path}: expected {vocab_size} but got "
                           f"{len(entries)}")
    return entries
