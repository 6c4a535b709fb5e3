"""GenerateVocabRemapping and LoadAndRemapMatrix: a checkpoint's matrix with its rows (and
columns) reordered to a new vocabulary, as warm-starting with tf.train.VocabInfo reads it
(TensorFlow's generate_vocab_remapping_op.cc and load_and_remap_matrix_op.cc).

A vocabulary file holds one token a line; a token's id is its line number."""

import numpy as np

from engine.checkpoint.bundle import BundleError, BundleReader
from engine.framework.errors import InternalError, NotFoundError
from engine.kernels import register_table
from engine.kernels.common import invalid
from engine.lib_io import file_io


_MAX_VOCAB_BYTES = 1 << 31


def _text(value):
    value = np.asarray(value).reshape(-1)[0] if np.ndim(value) else np.asarray(value).item()
    return value.decode() if isinstance(value, bytes) else str(value)


def _vocab_lines(ctx, path):
    data = file_io.read_file(path, _MAX_VOCAB_BYTES, getattr(ctx, "node_def", None))
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def generate_vocab_remapping(ctx, new_vocab_file, old_vocab_file):
    """remapping[i]: the old id of new token offset + i, or -1; num_present: how many have one."""
    offset, count = ctx.attrs["new_vocab_offset"], ctx.attrs["num_new_vocab"]
    old_vocab_size = ctx.attrs.get("old_vocab_size", -1)
    old_path, new_path = _text(old_vocab_file), _text(new_vocab_file)
    old_lines = _vocab_lines(ctx, old_path)
    if old_vocab_size != -1:
        if len(old_lines) < old_vocab_size:
            raise invalid(ctx, f"Invalid vocab_size in {old_path}: expected {old_vocab_size} "
                          f"but got {len(old_lines)}")
        old_lines = old_lines[:old_vocab_size]
    old_ids = {}
    for line_number, token in enumerate(old_lines):
        if token in old_ids:
            raise invalid(ctx, f"HashTable has different value for same key. Key {token} has "
                          f"{old_ids[token]} and trying to add value {line_number}")
        old_ids[token] = line_number
    new_lines = _vocab_lines(ctx, new_path)
    if offset + count > len(new_lines):
        raise invalid(ctx, "lookup table size must be larger than last new vocab entry's line")
    remapping = np.array([old_ids.get(token, -1) for token in new_lines[offset:offset + count]],
                         dtype=np.int64)
    return remapping, np.int32(np.count_nonzero(remapping != -1))


def load_and_remap_matrix(ctx, ckpt_path, old_tensor_name, row_remapping, col_remapping,
                          initializing_values):
    """[num_rows, num_cols]: old[row_remapping[i], col_remapping[j]] where both are present,
    else the next of initializing_values, row by row."""
    num_rows, num_cols = ctx.attrs["num_rows"], ctx.attrs["num_cols"]
    rows = np.asarray(row_remapping, dtype=np.int64).reshape(-1)
    cols = np.asarray(col_remapping, dtype=np.int64).reshape(-1)
    init = np.asarray(initializing_values, dtype=np.float32).reshape(-1)
    if rows.size != num_rows:
        raise invalid(ctx, f"Size of row_remapping is {rows.size} instead of being equal to "
                      f"num_rows={num_rows}")
    if cols.size and cols.size != num_cols:
        raise invalid(ctx, f"Provided col_remapping, but its size is {cols.size} instead of "
                      f"being equal to num_cols={num_cols}")
    if not cols.size:
        cols = np.arange(num_cols, dtype=np.int64)
    prefix, name = _text(ckpt_path), _text(old_tensor_name)
    try:
        reader = BundleReader(prefix)
        if name not in reader.names:
            raise NotFoundError(ctx.node_def, None, f"Key {name} not found in checkpoint")
        old = reader.read(name)
    except BundleError as error:
        raise error.error_class(ctx.node_def, None, str(error)) from None
    present_rows = rows[rows != -1]
    if present_rows.size:
        low, high = int(present_rows.min()), int(present_rows.max())
        if low < 0 or high >= old.shape[0]:
            shape = ",".join(str(d) for d in old.shape)
            raise InternalError(ctx.node_def, None,
                                f"Extent in dimension 0 out of bounds: shape = [{shape}], "
                                f"slice = {low},{high - low + 1}:-")
    out = np.empty((num_rows, num_cols), dtype=np.float32)
    used = 0
    for i, old_row in enumerate(rows):
        for j, old_col in enumerate(cols):
            if old_row != -1 and old_col != -1:
                out[i, j] = old[old_row, old_col]
                continue
            if used >= init.size:
                raise invalid(ctx, f"initializing_values contained {init.size} elements, but "
                              "more missing values remain.")
            out[i, j] = init[used]
            used += 1
    if used != init.size:
        raise invalid(ctx, f"initializing_values contained {init.size} elements, but only "
                      f"{used} elements were used to fill in missing values.")
    return out


register_table({"GenerateVocabRemapping": generate_vocab_remapping,
                "LoadAndRemapMatrix": load_and_remap_matrix})
