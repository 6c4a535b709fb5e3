"""Session.run with SparseTensors and IndexedSlices as fetches and feed keys, as TensorFlow's
session expands them (checked against TensorFlow 2.21's tf.compat.v1 by hand, 2026-11-28:
the same node names, shapes, value types and values), and tf.sparse_placeholder."""

import numpy as np
import pytest

import engine as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()


def test_sparse_placeholder_names_and_shapes_its_three_placeholders_as_tensorflow():
    unnamed = tf.sparse_placeholder(tf.int32, shape=[None, 4])
    assert (unnamed.values.name, unnamed.indices.name, unnamed.dense_shape.name) == (
        "Placeholder:0", "Placeholder_1:0", "PlaceholderWithDefault:0")
    assert unnamed.indices.shape.as_list() == [None, 2]
    assert unnamed.dense_shape.op.type == "PlaceholderWithDefault"
    assert unnamed.shape.as_list() == [None, 4]
    named = tf.sparse_placeholder(tf.float32, name="sp")
    assert (named.values.name, named.indices.name, named.dense_shape.name) == (
        "sp/values:0", "sp/indices:0", "sp/shape:0")
    assert named.dense_shape.op.type == "Placeholder" and named.shape.ndims is None
    assert named.indices.shape.as_list() == [None, None]


def test_a_sparse_placeholder_is_fed_a_sparse_tensor_value_or_a_tuple():
    sparse = tf.sparse_placeholder(tf.float32, name="sp")
    product = tf.sparse_tensor_dense_matmul(sparse, tf.ones([2, 1]))
    with tf.Session() as sess:
        fed = tf.SparseTensorValue([[0, 1], [2, 0]], [1.5, 2.5], [3, 2])
        np.testing.assert_array_equal(sess.run(product, {sparse: fed}).ravel(), [1.5, 0, 2.5])
        value = sess.run(sparse, {sparse: ([[0, 1]], [4.0], [2, 2])})
    assert isinstance(value, tf.SparseTensorValue)
    np.testing.assert_array_equal(value.indices, [[0, 1]])
    assert value.values.dtype == np.float32 and value.dense_shape.tolist() == [2, 2]


def test_a_sparse_placeholder_with_a_shape_feeds_its_default_dense_shape():
    sparse = tf.sparse_placeholder(tf.int32, shape=[3, 4])
    with tf.Session() as sess:
        value = sess.run(sparse, {sparse.indices: [[1, 2]], sparse.values: [7]})
    assert value.dense_shape.tolist() == [3, 4] and value.values.tolist() == [7]


def test_a_feed_that_is_not_three_parts_says_what_a_sparse_key_takes():
    sparse = tf.sparse_placeholder(tf.float32)
    with tf.Session() as sess, pytest.raises(TypeError, match="must be a SparseTensorValue or "
                                                              "a tuple of its 3 parts, not int"):
        sess.run(sparse, {sparse: 3})


def test_a_gather_gradient_is_fetched_as_an_indexed_slices_value_and_fed_back():
    table = tf.get_variable("table", [5, 3], initializer=tf.ones_initializer())
    loss = tf.reduce_sum(tf.nn.embedding_lookup(table, [1, 3, 1]) * 2.0)
    gradient = tf.gradients(loss, [table])[0]
    assert isinstance(gradient, tf.IndexedSlices)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(gradient)
        nested = sess.run({"a": gradient, "b": [gradient.values]})
        without_shape = sess.run(tf.IndexedSlices(gradient.values, gradient.indices))
        # an IndexedSlices key feeds its values, indices and dense shape
        doubled = sess.run(gradient.values, {gradient: value._replace(values=value.values * 2)})
    assert type(value).__name__ == "IndexedSlicesValue"
    assert value.indices.tolist() == [1, 3, 1] and value.dense_shape.tolist() == [5, 3]
    np.testing.assert_array_equal(value.values, np.full((3, 3), 2, np.float32))
    np.testing.assert_array_equal(nested["a"].values, nested["b"][0])
    assert without_shape.dense_shape is None and without_shape.indices.tolist() == [1, 3, 1]
    np.testing.assert_array_equal(doubled, np.full((3, 3), 4, np.float32))
