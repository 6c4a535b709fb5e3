"""NumPy CPU kernels: EnsureShape, ParallelConcat (tf.parallel_stack), GuaranteeConst, Timestamp and
Fingerprint (FarmHash Fingerprint64 of each row's bytes, TensorFlow's fingerprint_op.cc)."""

import time

import numpy as np

from engine.kernels import register, register_table
from engine.framework.tensor_shape import TensorShape
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.string_hash import fingerprint64

FINGERPRINT_SIZE = 8


def parallel_concat(ctx, *values):
    """The [1, ...] inputs one after another along a new first axis of the `shape` attr."""
    for index, value in enumerate(values):
        if np.ndim(value) < 1 or np.shape(value)[0] != 1:
            raise invalid(ctx, f"input {index} should have dimension 0 of size 1; got "
                               f"{shape_str(np.shape(value))}")
    return np.concatenate(values, axis=0)


def ensure_shape(ctx, x):
    """x itself where its shape is compatible with the `shape` attr."""
    expected = ctx.attrs["shape"]
    expected = expected if isinstance(expected, TensorShape) else TensorShape(expected)
    if not expected.is_compatible_with(TensorShape(np.shape(x))):
        producer = ctx.node_def.input[0].split(":")[0] if ctx.node_def.input else ctx.name
        raise invalid(ctx, f"Shape of tensor {producer} {shape_str(np.shape(x))} is not "
                           f"compatible with expected shape {shape_str(expected)}.")
    return x


def timestamp(ctx):
    """Seconds since the epoch, to the microsecond (absl::ToUnixMicros(Now()) / 1e6)."""
    return np.float64((time.time_ns() // 1000) / 1e6)


def _row_fingerprints(rows):
    """[rows, 8] uint8: each row's Fingerprint64, little-endian."""
    out = np.empty((len(rows), FINGERPRINT_SIZE), np.uint8)
    for index, row in enumerate(rows):
        out[index] = np.frombuffer(fingerprint64(bytes(row)).to_bytes(8, "little"), np.uint8)
    return out


def fingerprint(ctx, data, method):
    if np.ndim(method) != 0:
        raise invalid(ctx, f"`method` should be a scalar string: {shape_str(np.shape(method))}")
    method = method.item() if isinstance(method, np.ndarray) else method
    if method != b"farmhash64":
        raise invalid(ctx, f"Unsupported fingerprint method: {method.decode(errors='replace')}")
    data = np.asarray(data)
    if data.ndim < 1:
        raise invalid(ctx, "`data` should have at least one dimension: "
                           f"{shape_str(data.shape)}")
    rows = data.shape[0]
    if rows == 0:
        return np.empty((0, FINGERPRINT_SIZE), np.uint8)
    width = data.size // rows if rows else 0
    if data.dtype == object:
        strings = data.reshape(-1)
        if width > 1:
            # Each string's fingerprint, then each row's fingerprints' bytes fingerprinted.
            each = _row_fingerprints(strings)
            return _row_fingerprints(each.reshape(rows, width * FINGERPRINT_SIZE))
        return _row_fingerprints(strings)
    raw = np.ascontiguousarray(data).view(np.uint8).reshape(rows, -1)
    return _row_fingerprints(raw)


register("ParallelConcat")(parallel_concat)
register("Fingerprint")(fingerprint)
register("Timestamp")(timestamp)
register("EnsureShape")(ensure_shape)
register_table({"GuaranteeConst": lambda ctx, x: x})
