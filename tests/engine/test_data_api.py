"""tf.data behaviour the pipeline fixtures cannot hold: TensorFlow's MapAndBatch check (its
message depends on which parallel map call finishes first, so no fixture is stable), what a
one-shot iterator refuses, and the names tf.data lacks. Messages are TensorFlow 2.21's."""

import numpy as np
import pytest

import engine as tf
from engine.framework.api_namespace import NotSupportedError


def _first(next_element):
    with tf.Session() as sess:
        return sess.run(next_element)


def test_map_then_batch_checks_element_counts_as_map_and_batch_does():
    with tf.Graph().as_default():
        # Same number of elements, other shape: TensorFlow's fused MapAndBatch batches them.
        ds = tf.data.Dataset.range(2).map(
            lambda n: tf.reshape(tf.range(6), tf.stack([2 + n, 3 - n]))).batch(2)
        value = _first(tf.data.make_one_shot_iterator(ds).get_next())
        assert value.shape == (2, 2, 3)
        np.testing.assert_array_equal(value[1].ravel(), np.arange(6))
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices([1, 2, 2]).map(lambda n: tf.range(n)).batch(3)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Cannot add tensor to the batch: number of elements does not "
                                 r"match. Shapes are: \[tensor\]: \[2\], \[batch\]: \[1\]"):
            _first(tf.data.make_one_shot_iterator(ds).get_next())


def test_one_shot_iterator_has_no_initializer():
    with tf.Graph().as_default():
        iterator = tf.data.Dataset.range(3).make_one_shot_iterator()
        with pytest.raises(ValueError, match="The iterator does not have an initializer"):
            iterator.initializer
        assert iterator.output_classes is tf.Tensor


def test_missing_tf_data_names_say_they_are_not_supported():
    with pytest.raises(NotSupportedError,
                       match="tf.data.experimental.make_csv_dataset is not supported"):
        tf.data.experimental.make_csv_dataset
    assert tf.compat.v1.data.make_one_shot_iterator is tf.data.make_one_shot_iterator


def test_a_session_keeps_one_shot_iterators_apart_and_restarts_with_a_new_session():
    with tf.Graph().as_default():
        first = tf.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next()
        second = tf.data.make_one_shot_iterator(tf.data.Dataset.range(10, 13)).get_next()
        with tf.Session() as sess:
            assert [sess.run([first, second]) for _ in range(2)] == [[0, 10], [1, 11]]
        with tf.Session() as sess:
            assert sess.run(first) == 0
