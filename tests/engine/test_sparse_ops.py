"""The sparse kernels (and SparseToDense's) give TensorFlow's outputs and error texts
(tests/engine/sparse_op_cases.py,
tests/fixtures/ops/sparse_ops.json from tools/make_sparse_fixtures.py), and the static shapes
of TensorFlow's shape functions."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.ops.op_def_library import apply_op
from engine.framework import op_registry

import sparse_op_cases as cases

EXPECTED = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "ops"
                       / "sparse_ops.json").read_text())


def _apply(op, tensors, **attrs):
    op_def = op_registry.get(op)
    names = [arg.name for arg in op_def.input_arg]
    return apply_op(op, **dict(zip(names, tensors)), **attrs)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_kernel_gives_tensorflows_values_and_errors(name):
    with tf.Graph().as_default():
        got = cases.run_case(tf, name, _apply)
    expected = EXPECTED[name]
    if "error" in expected:
        assert got == expected
        return
    assert "error" not in got, got
    assert got["dtypes"] == expected["dtypes"]
    for ours, theirs in zip(got["outputs"], expected["outputs"]):
        if np.asarray(theirs).dtype.kind != "f":  # ids, hashes, strings: exactly
            assert ours == theirs
            continue
        np.testing.assert_allclose(np.asarray(ours, np.float64), np.asarray(theirs, np.float64),
                                   rtol=1e-6)
        assert np.shape(ours) == np.shape(theirs)


def test_static_shapes_are_tensorflows():
    with tf.Graph().as_default():
        indices = tf.placeholder(tf.int64, [None, 2])
        values = tf.placeholder(tf.float32, [None])
        shape = tf.placeholder(tf.int64, [2])
        filled = apply_op("SparseFillEmptyRows", indices=indices, values=values,
                          dense_shape=shape, default_value=0.0)
        assert [t.shape.as_list() for t in filled] == [[None, 2], [None], [None], [None]]
        filled = apply_op("SparseFillEmptyRows", indices=tf.placeholder(tf.int64, [4, 2]),
                          values=values, dense_shape=tf.constant([5, 3], tf.int64),
                          default_value=0.0)
        assert [t.shape.as_list() for t in filled] == [[None, 2], [None], [5], [4]]
        reshaped = apply_op("SparseReshape", input_indices=tf.placeholder(tf.int64, [7, 2]),
                            input_shape=shape, new_shape=tf.constant([3, -1], tf.int64))
        assert [t.shape.as_list() for t in reshaped] == [[7, 2], [2]]
        data = tf.placeholder(tf.float32, [10, 4, 5])
        ids = tf.placeholder(tf.int32, [None])
        assert tf.sparse_segment_mean(data, ids, ids).shape.as_list() == [None, 4, 5]
        assert tf.sparse_segment_sum(data, ids, ids, num_segments=7).shape.as_list() == [7, 4, 5]
        grad = apply_op("SparseSegmentMeanGrad", grad=data, indices=ids, segment_ids=ids,
                        output_dim0=12)
        assert grad.shape.as_list() == [12, 4, 5]
        values, unique = apply_op("SparseSegmentMeanGradV2", grad=data, indices=ids,
                                  segment_ids=ids, dense_output_dim0=12)
        assert values.shape.as_list() == [None, 4, 5] and unique.shape.as_list() == [None]
