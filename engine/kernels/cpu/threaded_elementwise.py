"""Large elementwise NumPy calls split over the intra-op threads, the values the unsplit call's.

A NumPy ufunc runs on one thread; TensorFlow's Eigen kernels split a large tensor over the
intra-op pool. Here a float result of at least MIN_ELEMENTS elements is cut along its first
axis into blocks that `threads.parallel_for` hands to its threads, each block one ufunc call
writing into its rows of the result (NumPy releases the GIL in a ufunc's float loops).

Only correctly rounded ufuncs are split (SPLIT_UFUNCS: +, -, *, /, negation, square): each element's
value is the same whichever call computes it. And only where every operand is C-contiguous, so
that the result is C-contiguous as the unsplit call's would be (NumPy lays an output out as
its inputs are; a later reduction sums in memory order, so the layout is part of the values).
An operand broadcast along the first axis (a bias, a scalar) is passed whole to every block.

`rows` does the same for a function of whole rows (softmax over the last axis): every row is
computed by the same NumPy calls on the same contiguous data, in a block or not.
"""

import numpy as np

from engine.runtime import threads

# Below this many elements a call stays one call: as for the compiled loops
# (engine/kernels/compiled/eigen_arrays.py), a second thread pays from about a quarter million.
MIN_ELEMENTS = 1 << 18
# Results are split only where an operand has half a split's elements or more (a result of
# 2 * MIN_ELEMENTS from operands all smaller, an outer broadcast, stays one call): kernels ask
# this of an operand's size before anything else, which costs a small op nothing.
MIN_SPLIT_OPERAND = MIN_ELEMENTS
SPLIT_UFUNCS = frozenset({np.add, np.subtract, np.multiply, np.divide, np.negative,
                          np.square})
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _rows_per_piece(shape):
    """Rows of a result of `shape` a block holds at least (MIN_ELEMENTS elements' worth)."""
    row = int(np.prod(shape[1:], dtype=np.int64)) if len(shape) > 1 else 1
    return max(1, -(-MIN_ELEMENTS // max(1, row)))


def _worth_splitting(shape, dtype):
    size = int(np.prod(shape, dtype=np.int64))
    return (dtype in _FLOATS and size >= 2 * MIN_ELEMENTS and len(shape) >= 1
            and shape[0] >= 2 * _rows_per_piece(shape) and threads.budget() > 1)


def ufunc_call(ufunc, *operands, out=None):
    """ufunc(*operands, out=out), split by rows of the result when that pays (see the
    module's doc); `out` (optional) may be one of the operands, as NumPy allows."""
    if not _splittable(ufunc, operands, out):
        return ufunc(*operands) if out is None else ufunc(*operands, out=out)
    shape = out.shape if out is not None else np.broadcast_shapes(*(x.shape for x in operands))
    if not _worth_splitting(shape, operands[0].dtype):
        return ufunc(*operands) if out is None else ufunc(*operands, out=out)
    if out is None:
        out = np.empty(shape, operands[0].dtype)
    rank = len(shape)
    # operands that have the result's first axis are cut with it; the others broadcast whole
    cut = [x.ndim == rank and x.shape[0] == shape[0] for x in operands]

    def block(start, stop):
        ufunc(*(x[start:stop] if c else x for x, c in zip(operands, cut)),
              out=out[start:stop])

    threads.parallel_for(block, shape[0], min_per_piece=_rows_per_piece(shape))
    return out


def _splittable(ufunc, operands, out):
    """A correctly rounded ufunc of C-contiguous NumPy values of one float dtype (the result's),
    writing, where given, into a C-contiguous array of the broadcast shape."""
    if ufunc not in SPLIT_UFUNCS or not all(isinstance(x, (np.ndarray, np.generic))
                                            for x in operands):
        return False
    dtype = operands[0].dtype
    if any(x.dtype != dtype for x in operands) or not all(
            x.flags.c_contiguous for x in operands if isinstance(x, np.ndarray)):
        return False
    if out is None:
        return True
    try:
        shape = np.broadcast_shapes(*(x.shape for x in operands))
    except ValueError:
        return False  # (the unsplit call raises NumPy's error)
    return (isinstance(out, np.ndarray) and out.dtype == dtype and out.shape == shape
            and out.flags.c_contiguous and out.flags.writeable)


def rows(fn, x, out=None):
    """fn(x) for a row-wise `fn(block, out)` (it writes into `out` the values of a block of
    x's rows, the last axis whole), split over the leading axes' rows when that pays, else
    None. `out`: x itself, for an fn that writes over its block when given None as `out`."""
    if x.ndim < 2 or not x.flags.c_contiguous:
        return None
    flat = x.reshape(-1, x.shape[-1])
    if not _worth_splitting(flat.shape, x.dtype):
        return None
    if out is None:
        result = np.empty(x.shape, x.dtype)  # (returned, not a view of it: forwarding)
        out = result.reshape(flat.shape)
        block = lambda start, stop: fn(flat[start:stop], out[start:stop])  # noqa: E731
    else:
        result = x
        block = lambda start, stop: fn(flat[start:stop], None)  # noqa: E731
    threads.parallel_for(block, flat.shape[0], min_per_piece=_rows_per_piece(flat.shape))
    return result

