"""Numeric-gradient cases for issue 15's ops, merged into test_gradients.CASES (same format:
name -> (function of the input tensors, input values[, placeholder shapes]))."""

import numpy as np

import engine as tf
from engine.ops.op_def_library import apply_op

_RNG = np.random.RandomState(15)


def _rand(*shape):
    return _RNG.uniform(-1.0, 1.0, size=shape)


def _apart(*shape):
    """Distinct values, no ties (max, min and top_k choose one element each)."""
    values = _RNG.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 0.33
    return values + np.sign(values) * 0.05


def _well_conditioned(n):
    return _rand(n, n) + 3.0 * np.eye(n)


_IDS = [0, 0, 1, 3, 3]

CASES = {
    "Print": (lambda x: tf.Print(x * 2.0, [x], first_n=0), [_rand(2, 3)]),
    "TopKV2": (lambda x: tf.nn.top_k(x, 2)[0], [_apart(3, 4)]),
    "SegmentSum": (lambda x: tf.segment_sum(x, _IDS), [_rand(5, 2)]),
    "SegmentMean": (lambda x: tf.segment_mean(x, _IDS), [_rand(5, 2)]),
    "SegmentMax": (lambda x: tf.segment_max(x, _IDS), [_apart(5, 2)]),
    "SegmentMin": (lambda x: tf.segment_min(x, _IDS), [_apart(5, 2)]),
    "UnsortedSegmentSum": (lambda x: tf.unsorted_segment_sum(x, [2, 0, -1, 2], 3),
                           [_rand(4, 3)]),
    "UnsortedSegmentMax": (lambda x: tf.unsorted_segment_max(x, [2, 0, 1, 2], 3),
                           [_apart(4, 3)]),
    "UnsortedSegmentMin": (lambda x: tf.unsorted_segment_min(x, [2, 0, 1, 2], 3),
                           [_apart(4, 3)]),
    "MatrixInverse": (lambda x: tf.matrix_inverse(x), [_well_conditioned(3)]),
    "MatrixInverse_adjoint": (lambda x: tf.matrix_inverse(x, adjoint=True),
                              [_well_conditioned(3)]),
    "MatrixDeterminant": (lambda x: tf.matrix_determinant(x),
                          [np.stack([_well_conditioned(3), _well_conditioned(3)])]),
    "MatrixDiagV3": (lambda x: tf.matrix_diag(x), [_rand(2, 3)]),
    "MatrixDiagPartV3": (lambda x: tf.matrix_diag_part(x), [_rand(2, 3, 4)]),
    "MatrixDiagPartV3_unknown": (lambda x: tf.matrix_diag_part(x), [_rand(3, 4)],
                                 [[None, None]]),
    "MatrixSetDiagV3": (lambda x, d: tf.matrix_set_diag(x, d), [_rand(3, 4), _rand(3)]),
    "MatrixBandPart": (lambda x: tf.matrix_band_part(x, 1, 0), [_rand(4, 4)]),
    "Diag": (lambda x: tf.diag(x), [_rand(3)]),
    "DiagPart": (lambda x: tf.diag_part(x), [_rand(3, 3)]),
    "GatherNd": (lambda x: tf.gather_nd(x, [[1, 0], [0, 2]]), [_rand(2, 3)]),
    "GatherNd_rows": (lambda x: tf.gather_nd(x, [[1], [0], [1]]), [_rand(2, 3)]),
    "ScatterNd": (lambda u: apply_op("ScatterNd", indices=[[1], [3]], updates=u, shape=[4, 2]),
                  [_rand(2, 2)]),
    # Array and shape ops: patches (float64 here; TF's values in test_array_shape_ops.py)
    # and the min/max scatters away from ties.
    "ExtractImagePatches": (lambda x: tf.image.extract_patches(
                                x, [1, 2, 2, 1], [1, 1, 2, 1], [1, 2, 1, 1], "SAME"),
                            [_rand(1, 4, 5, 2)]),
    "ExtractVolumePatches": (lambda x: tf.extract_volume_patches(
                                 x, [1, 2, 1, 2, 1], [1, 1, 1, 2, 1], "VALID"),
                             [_rand(1, 3, 2, 4, 1)]),
    "TensorScatterMax": (lambda x, u: tf.tensor_scatter_nd_max(x, [[2], [0]], u),
                         [_apart(3, 2), _apart(2, 2) + 0.01]),
    "TensorScatterMin": (lambda x, u: tf.tensor_scatter_nd_min(x, [[1, 1], [0, 0]], u),
                         [_apart(2, 3), _apart(2) + 0.01]),
}
