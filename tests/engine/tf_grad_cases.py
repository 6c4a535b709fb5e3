"""Numeric-gradient cases for the gradients ported from TensorFlow 2.21 after the first round
(Erf, the inverse trigonometric ops, Cumprod, ClipByValue, the second-order gradients of the
activation, pool, conv and slice gradient ops, Gather, MirrorPad, the stitches and
DynamicPartition, the TensorScatter ops, the segment
products), merged into test_gradients.CASES (same format: name -> (function of the input
tensors, input values[, placeholder shapes])).

`make_cases(tf)` builds them over either module: the engine's (`import engine as tf`) for the
finite-difference test, TensorFlow's tf.compat.v1 for tools/make_grad_op_fixtures.py, which
stores TensorFlow's tf.gradients values and gradient nodes of each case
(tests/fixtures/ops/grad_values.npz, checked by tests/engine/test_tf_grad_values.py). Raw ops
go through tf.raw_ops, which both modules have. A second-order case builds the gradient op
itself and is differentiated with respect to its inputs. Inputs keep away from kinks, poles
and ties (the finite differences step 1e-6).
"""

import numpy as np


def make_cases(tf):
    rng = np.random.RandomState(21)
    raw = tf.raw_ops

    def rand(*shape, low=-1.0, high=1.0):
        return rng.uniform(low, high, size=shape)

    def positive(*shape):
        return rand(*shape, low=0.5, high=2.0)

    def apart(*shape):
        """Distinct values at least 0.05 from each other's kinks: x.x2 or x.x8 (and 0.02 off
        the clip bounds below)."""
        values = rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 0.33
        return values + np.sign(values) * 0.05

    def nonzero(*shape):
        return rand(*shape, low=0.5, high=1.5) * rng.choice([-1.0, 1.0], size=shape)

    def max_pool(x, ksize, strides, padding):
        return tf.nn.max_pool(x, ksize, strides, padding)

    def pool_args(padding):
        return (([1, 2, 2, 1], [1, 2, 2, 1]) if padding == "VALID"
                else ([1, 3, 3, 1], [1, 2, 2, 1]))

    def max_pool_grad(op, padding, v2=False):
        ksize, strides = pool_args(padding)

        def fn(x, g):
            if v2:
                out = raw.MaxPoolV2(input=x, ksize=ksize, strides=strides, padding=padding)
            else:
                out = max_pool(x, ksize, strides, padding)
            return getattr(raw, op)(orig_input=x, orig_output=out, grad=g, ksize=ksize,
                                    strides=strides, padding=padding)
        return fn

    def stitch(op):
        return lambda x, y: getattr(raw, op)(
            indices=[tf.constant([0, 3], tf.int32), tf.constant([[2], [1]], tf.int32)],
            data=[x, y])

    ids = [0, 0, 1, 3, 3]
    with_zeros = np.array([[0.0, 0.7], [1.3, 0.0], [-0.8, 1.1], [0.0, 0.9], [0.0, -1.2]])
    cases = {
        # math_grad.py
        "Erf": (lambda x: tf.erf(x), [rand(3, 4, low=-2.0, high=2.0)]),
        "Erfc": (lambda x: tf.erfc(x), [rand(3, 4, low=-2.0, high=2.0)]),
        "Tan": (lambda x: tf.tan(x), [rand(3, 4, low=-1.2, high=1.2)]),
        "Asin": (lambda x: tf.asin(x), [rand(3, 4, low=-0.9, high=0.9)]),
        "Acos": (lambda x: tf.acos(x), [rand(3, 4, low=-0.9, high=0.9)]),
        "Atan": (lambda x: tf.atan(x), [rand(3, 4, low=-2.0, high=2.0)]),
        "Atan2": (lambda y, x: tf.atan2(y, x), [rand(3, 4), positive(3, 4)]),
        "Atan2_broadcast": (lambda y, x: tf.atan2(y, x), [rand(3, 4), -positive(4)]),
        "Cumprod": (lambda x: tf.cumprod(x, axis=1), [nonzero(2, 4)]),
        "Cumprod_exclusive_reverse": (
            lambda x: tf.cumprod(x, axis=0, exclusive=True, reverse=True), [nonzero(3, 2)]),
        "ClipByValue": (lambda x, lo, hi: raw.ClipByValue(t=x, clip_value_min=lo,
                                                          clip_value_max=hi),
                        [apart(3, 4), np.array(-0.2), np.array(0.3)]),
        "ClipByValue_elementwise": (
            lambda x, lo, hi: raw.ClipByValue(t=x, clip_value_min=lo, clip_value_max=hi),
            [apart(2, 3), np.full((2, 3), -0.1), np.full((2, 3), 0.2)]),
        "SqrtGrad": (lambda a, b: raw.SqrtGrad(y=a, dy=b), [positive(3, 2), rand(3, 2)]),
        "RsqrtGrad": (lambda a, b: raw.RsqrtGrad(y=a, dy=b), [positive(3, 2), rand(3, 2)]),
        "ReciprocalGrad": (lambda a, b: raw.ReciprocalGrad(y=a, dy=b),
                           [positive(3, 2), rand(3, 2)]),
        "InvGrad": (lambda a, b: raw.InvGrad(y=a, dy=b), [positive(3, 2), rand(3, 2)]),
        # nn_grad.py
        "EluGrad": (lambda g, y: raw.EluGrad(gradients=g, outputs=y), [rand(3, 4), apart(3, 4)]),
        "SeluGrad": (lambda g, y: raw.SeluGrad(gradients=g, outputs=y),
                     [rand(3, 4), apart(3, 4)]),
        "LeakyReluGrad": (lambda g, f: raw.LeakyReluGrad(gradients=g, features=f, alpha=0.3),
                          [rand(3, 4), apart(3, 4)]),
        "AvgPoolGrad_same": (
            lambda g: raw.AvgPoolGrad(orig_input_shape=[1, 5, 5, 2], grad=g,
                                      ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                      padding="SAME"), [rand(1, 3, 3, 2)]),
        "AvgPoolGrad_valid": (
            lambda g: raw.AvgPoolGrad(orig_input_shape=[2, 4, 4, 1], grad=g,
                                      ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                      padding="VALID"), [rand(2, 2, 2, 1)]),
        "BiasAddGrad": (lambda d: raw.BiasAddGrad(out_backprop=d), [rand(2, 3, 4)]),
        "BiasAddGrad_nchw": (lambda d: raw.BiasAddGrad(out_backprop=d, data_format="NCHW"),
                             [rand(2, 3, 2, 2)]),
        "Conv2DBackpropFilter_same": (
            lambda x, dy: raw.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, 2, 3],
                                                   out_backprop=dy, strides=[1, 1, 1, 1],
                                                   padding="SAME"),
            [rand(1, 4, 4, 2), rand(1, 4, 4, 3)]),
        "Conv2DBackpropFilter_valid_stride2": (
            lambda x, dy: raw.Conv2DBackpropFilter(input=x, filter_sizes=[3, 2, 2, 2],
                                                   out_backprop=dy, strides=[1, 2, 2, 1],
                                                   padding="VALID"),
            [rand(1, 7, 6, 2), rand(1, 3, 3, 2)]),
        "MaxPoolGrad_valid": (max_pool_grad("MaxPoolGrad", "VALID"),
                              [apart(1, 4, 4, 2), rand(1, 2, 2, 2)]),
        "MaxPoolGrad_same": (max_pool_grad("MaxPoolGrad", "SAME"),
                             [apart(1, 5, 5, 1), rand(1, 3, 3, 1)]),
        "MaxPoolGradGrad_valid": (max_pool_grad("MaxPoolGradGrad", "VALID"),
                                  [apart(1, 4, 4, 2), rand(1, 4, 4, 2)]),
        "MaxPoolGradGrad_same": (max_pool_grad("MaxPoolGradGrad", "SAME"),
                                 [apart(1, 5, 5, 1), rand(1, 5, 5, 1)]),
        "MaxPoolV2_valid": (lambda x: raw.MaxPoolV2(input=x, ksize=[1, 2, 2, 1],
                                                    strides=[1, 2, 2, 1], padding="VALID"),
                            [apart(2, 4, 4, 1)]),
        "MaxPoolV2_same": (lambda x: raw.MaxPoolV2(input=x, ksize=[1, 3, 3, 1],
                                                   strides=[1, 2, 2, 1], padding="SAME"),
                           [apart(1, 5, 5, 2)]),
        "MaxPoolGradV2_same": (max_pool_grad("MaxPoolGradV2", "SAME", v2=True),
                               [apart(1, 5, 5, 1), rand(1, 3, 3, 1)]),
        # array_grad.py (and data_flow_grad.py)
        "Gather": (lambda x: raw.Gather(params=x, indices=[2, 0, 2]), [rand(4, 3)]),
        "Gather_matrix_indices": (lambda x: raw.Gather(params=x, indices=[[1, 1], [3, 0]]),
                                  [rand(4, 2)]),
        "MirrorPad_reflect": (lambda x: tf.pad(x, [[1, 1], [2, 1]], mode="REFLECT"),
                              [rand(3, 4)]),
        "MirrorPad_symmetric": (lambda x: tf.pad(x, [[2, 1], [0, 3]], mode="SYMMETRIC"),
                                [rand(2, 3)]),
        "MirrorPadGrad_reflect": (
            lambda g: raw.MirrorPadGrad(input=g, paddings=[[1, 1], [2, 1]], mode="REFLECT"),
            [rand(5, 7)]),
        "MirrorPadGrad_symmetric": (
            lambda g: raw.MirrorPadGrad(input=g, paddings=[[2, 1], [0, 3]], mode="SYMMETRIC"),
            [rand(5, 6)]),
        "StridedSliceGrad": (
            lambda dy: raw.StridedSliceGrad(shape=[3, 5], begin=[1, 0], end=[3, 5],
                                            strides=[1, 2], dy=dy), [rand(2, 3)]),
        "StridedSliceGrad_shrink": (
            lambda dy: raw.StridedSliceGrad(shape=[3, 5], begin=[0, 1], end=[3, 2],
                                            strides=[1, 1], dy=dy, shrink_axis_mask=2),
            [rand(3)]),
        "DynamicStitch": (stitch("DynamicStitch"), [rand(2, 3), rand(2, 1, 3)]),
        "ParallelDynamicStitch": (stitch("ParallelDynamicStitch"), [rand(2, 3), rand(2, 1, 3)]),
        # A gather's sparse gradient reaches the stitch as IndexedSlices.
        "ParallelDynamicStitch_sparse_grad": (
            lambda x, y: tf.gather(stitch("ParallelDynamicStitch")(x, y), [3, 0, 3]),
            [rand(2, 3), rand(2, 1, 3)]),
        # segment_grad.py (TensorFlow's math_grad.py)
        "SegmentProd": (lambda x: tf.segment_prod(x, ids), [nonzero(5, 2)]),
        "SegmentProd_zeros": (lambda x: tf.segment_prod(x, ids), [with_zeros]),
        "UnsortedSegmentProd": (lambda x: tf.unsorted_segment_prod(x, [2, 0, -1, 2], 3),
                                [nonzero(4, 3)]),
        "UnsortedSegmentProd_zeros": (
            lambda x: tf.unsorted_segment_prod(x, [1, 0, 1, 1, -1], 3), [with_zeros]),
    }
    # Partition 3 is empty; the gradient stitches the partitions' rows back. (Drawn after the
    # cases above, whose inputs stay as they were.)
    cases["DynamicPartition"] = (lambda x: tf.concat(raw.DynamicPartition(
        data=x, partitions=tf.constant([[0, 2, 1], [1, 1, 0]]), num_partitions=4), 0),
        [rand(2, 3, 2)])
    # Update without a repeated index (a repeated one's overwritten update has no effect, yet
    # TensorFlow's gradient gives it one); add and subtract with one.
    for op, rows in (("TensorScatterUpdate", [[2], [0]]), ("TensorScatterAdd", [[2], [0], [2]]),
                     ("TensorScatterSub", [[2], [0], [2]])):
        cases[op] = ((lambda op, rows: lambda t, u: getattr(raw, op)(
            tensor=t, indices=tf.constant(rows), updates=u))(op, rows),
            [rand(3, 2), rand(len(rows), 2)])
    # The sparse segment reductions (dense Grad ops, and with sparse_gradient IndexedSlices
    # through the GradV2 ops; row 2 read by none) and SparseFillEmptyRows's values. (Drawn
    # after the cases above, whose inputs stay as they were.)
    for kind, reduce in (("Sum", tf.sparse_segment_sum), ("Mean", tf.sparse_segment_mean),
                         ("SqrtN", tf.sparse_segment_sqrt_n)):
        for suffix, sparse in (("", False), ("_sparse_gradient", True)):
            cases[f"SparseSegment{kind}{suffix}"] = (
                lambda x, reduce=reduce, sparse=sparse: reduce(
                    x, [3, 0, 3, 1], [0, 0, 2, 3], sparse_gradient=sparse), [rand(5, 2)])
        cases[f"SparseSegment{kind}WithNumSegments"] = (
            lambda x, reduce=reduce: reduce(x, [3, 0, 3, 1], [0, 0, 2, 3], num_segments=6),
            [rand(5, 2)])
    cases["SparseFillEmptyRows"] = (lambda v: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[3, 0], [1, 2], [1, 0]], v, [5, 3]), 0.5)[0].values * 1.0, [rand(3)])
    cases["SparseReorder"] = (lambda v: tf.sparse.reorder(
        tf.SparseTensor([[2, 1], [0, 3], [2, 0], [0, 1]], v, [3, 4])).values, [rand(4)])
    cases["SparseSlice"] = (lambda v: tf.sparse.slice(
        tf.SparseTensor([[0, 0], [1, 2], [2, 3], [3, 1]], v, [4, 4]), [1, 1], [2, 3]).values,
        [rand(4)])
    return cases
