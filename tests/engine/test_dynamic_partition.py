"""tf.dynamic_partition and tf.dynamic_stitch as TensorFlow 2.21 computes them: values and the
kernel's errors (TensorFlow's words, printed by tf.raw_ops.DynamicPartition in TF 2.21). The
gradient is in tests/engine/tf_grad_cases.py (values and nodes against TensorFlow's)."""

import numpy as np
import pytest

import engine as tf


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_rows_go_to_their_partitions_in_order():
    with tf.Graph().as_default():
        parts = tf.dynamic_partition(np.arange(12.0).reshape(2, 3, 2),
                                     [[0, 2, 1], [1, 1, 0]], 3)
        assert [p.shape.as_list() for p in parts] == [[None, 2]] * 3
        got = _run(parts)
    assert [p.tolist() for p in got] == [[[0.0, 1.0], [10.0, 11.0]],
                                         [[4.0, 5.0], [6.0, 7.0], [8.0, 9.0]], [[2.0, 3.0]]]
    with tf.Graph().as_default():
        scalar = _run(tf.dynamic_partition(5.0, 1, 2))
    assert [p.tolist() for p in scalar] == [[], [5.0]]


def test_stitch_undoes_partition():
    with tf.Graph().as_default():
        data = tf.constant([10, 20, 30, 40, 50])
        partitions = tf.constant([1, 0, 1, 2, 0])
        indices = tf.dynamic_partition(tf.range(5), partitions, 3)
        parts = tf.dynamic_partition(data, partitions, 3)
        assert _run(tf.dynamic_stitch(indices, parts)).tolist() == [10, 20, 30, 40, 50]


@pytest.mark.parametrize("data, partitions, message", [
    (np.arange(4.0), [0, 3, 1, 0], "partitions[1] = 3 is not in [0, 2)"),
    (np.arange(4.0).reshape(2, 2), [[0, 1], [5, 0]], "partitions[1,0] = 5 is not in [0, 2)"),
    (5.0, 7, "partitions = 7 is not in [0, 2)"),
    (np.arange(4.0), [0, 1, 1], "data.shape must start with partitions.shape, got data.shape "
                                "= [4], partitions.shape = [3]"),
])
def test_errors_are_tensorflows(data, partitions, message):
    with tf.Graph().as_default():
        held = tf.placeholder_with_default(np.asarray(partitions, np.int32), None)
        parts = tf.dynamic_partition(tf.placeholder_with_default(data, None), held, 2)
        with pytest.raises(tf.errors.InvalidArgumentError) as caught:
            _run(parts)
    lines = caught.value.message.split("\n")
    at = next(i for i, line in enumerate(lines) if "[[{{node" in line)
    assert lines[at - 1] == message  # the kernel's line, before the node trailer
