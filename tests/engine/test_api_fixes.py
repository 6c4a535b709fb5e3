"""Small API behaviours checked against what TensorFlow 2.21 (tf.compat.v1, disable_v2_behavior)
builds and returns for the same code; the expected values below are TensorFlow's."""

import numpy as np
import pytest

import engine as tf


# -- variable_scope default names --------------------------------------------------------------

def test_variable_scope_default_names_count_as_tensorflows():
    names = []
    with tf.Graph().as_default():
        for _ in range(3):
            with tf.variable_scope(None, default_name="dense") as scope:
                names.append((scope.name, tf.get_variable("w", [1]).op.name,
                              tf.constant(0).op.name))
        with tf.variable_scope("outer"):
            for _ in range(2):
                with tf.variable_scope(None, default_name="dense") as scope:
                    names.append(scope.name)
        with tf.variable_scope("outer"):  # leaving a scope forgets its subscopes
            with tf.variable_scope(None, default_name="dense") as scope:
                names.append(scope.name)
        with tf.variable_scope(None, default_name="dense") as scope:
            names.append(scope.name)
    assert names == [("dense", "dense/w", "dense/Const"), ("dense_1", "dense_1/w", "dense_1/Const"),
                     ("dense_2", "dense_2/w", "dense_2/Const"), "outer/dense", "outer/dense_1",
                     "outer/dense", "dense_3"]


def test_optimizer_slots_are_numbered_by_variable_scope():
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        loss = tf.reduce_sum(w * w)
        tf.train.AdamOptimizer(0.1).minimize(loss)
        tf.train.AdamOptimizer(0.1).minimize(loss)
        tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
        names = sorted(v.op.name for v in tf.global_variables())
    assert names == ["beta1_power", "beta1_power_1", "beta2_power", "beta2_power_1", "w",
                     "w/Adam", "w/Adam_1", "w/Adam_2", "w/Adam_3", "w/Momentum"]


# -- reductions without an axis ------------------------------------------------------------------

RANGE = [("Rank", "Rank"), ("range/start", "Const"), ("range/delta", "Const"),
         ("range", "Range")]
REDUCTIONS = {  # the ops TensorFlow adds, and the static shape of the result
    "sum_scalar": (lambda p, s, q: tf.reduce_sum(s),
                   [("Rank", "Const")] + RANGE[1:] + [("Sum", "Sum")], []),
    "sum_unknown_rank": (lambda p, s, q: tf.reduce_sum(p), RANGE + [("Sum", "Sum")], []),
    "mean_unknown_rank": (lambda p, s, q: tf.reduce_mean(p), RANGE + [("Mean", "Mean")], []),
    "max_keepdims": (lambda p, s, q: tf.reduce_max(p, keepdims=True), RANGE + [("Max", "Max")],
                     None),
    "sum_known_rank": (lambda p, s, q: tf.reduce_sum(q), [("Const", "Const"), ("Sum", "Sum")],
                       []),
}


@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_reductions_without_axis_build_tensorflows_ops(name):
    fn, expected_ops, expected_shape = REDUCTIONS[name]
    graph = tf.Graph()
    with graph.as_default():
        p = tf.placeholder(tf.float32, None, name="p")
        s = tf.placeholder(tf.float32, [], name="s")
        q = tf.placeholder(tf.float32, [None, 3], name="q")
        before = len(graph.get_operations())
        result = fn(p, s, q)
        added = [(op.name, op.type) for op in graph.get_operations()[before:]]
        with tf.Session() as sess:
            value = sess.run(result, {p: np.ones((2, 2)), s: 3.0, q: np.ones((2, 3))})
    assert added == expected_ops
    assert result.shape.as_list() == expected_shape if expected_shape is not None \
        else result.shape.ndims is None
    assert np.ndim(value) == (2 if name == "max_keepdims" else 0)


def test_loss_of_a_scalar_sums_with_rank_and_range():
    with tf.Graph().as_default() as graph:
        loss = tf.losses.mean_squared_error(tf.constant(1.0), tf.constant(3.0))
        types = {op.name: op.type for op in graph.get_operations()}
        with tf.Session() as sess:
            assert sess.run(loss) == 4.0
    assert types["mean_squared_error/Rank"] == "Const"
    assert types["mean_squared_error/range"] == "Range"


# -- add_n -----------------------------------------------------------------------------------

def test_add_n_of_one_tensor_is_the_tensor_and_an_identity_only_when_named():
    with tf.Graph().as_default() as graph:
        a = tf.constant([1.0])
        assert tf.add_n([a]) is a
        named = tf.add_n([a], name="total")
        assert named.op.type == "Identity" and named.op.name == "total"
        assert tf.add_n([a, a]).op.type == "AddN"
        assert [op.type for op in graph.get_operations()] == ["Const", "Identity", "AddN"]
        with pytest.raises(ValueError, match="at least one Tensor"):
            tf.add_n([])


def test_gradient_sums_use_add_n():
    with tf.Graph().as_default():
        x = tf.constant(2.0)
        (g,) = tf.gradients(x * x + x, x)
        assert g.op.type == "AddN"
        with tf.Session() as sess:
            assert sess.run(g) == 5.0


# -- Graph.gradient_override_map -------------------------------------------------------------

def test_gradient_override_map_is_a_graph_method():
    assert "gradient_override_map" in tf.Graph.__dict__  # defined in engine/framework/graph.py
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(1.0)
        with graph.gradient_override_map({"Identity": "Neg"}):
            y = tf.identity(x)
        assert y.op.get_attr("_gradient_op_type") == b"Neg"
        with tf.Session() as sess:
            assert sess.run(tf.gradients(y, x)[0]) == -1.0
        with pytest.raises(TypeError, match="op_type_map must be a dictionary"):
            with graph.gradient_override_map([]):
                pass


# -- partially known shape tensors in shape inference ------------------------------------------

def test_shapes_built_from_partially_known_shape_tensors():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, 3])
        s = tf.shape(p)
        shapes = [tf.zeros(s), tf.reshape(p, tf.stack([s[0], 3])),
                  tf.fill(tf.concat([s, [2]], 0), 1.0), tf.zeros(s[1:]),
                  tf.ones(tf.cast(s, tf.int64))]
        assert [str(t.shape) for t in shapes] == ["(?, 3)", "(?, 3)", "(?, 3, 2)", "(3,)",
                                                  "(?, 3)"]


def test_strided_slices_with_tensor_bounds_have_tensorflows_static_shapes():
    with tf.Graph().as_default():
        y, n = tf.constant([1, 2, 3, 4]), tf.constant(1)
        q = tf.placeholder(tf.int32, [])
        x = tf.zeros([4, 5])
        slices = [y[n], y[n:], y[:n], x[q], x[:, q], x[q:], x[::q], x[q, 1:3], x[..., q],
                  x[tf.newaxis, q:]]
        assert [str(t.shape) for t in slices] == [
            "()", "(3,)", "(1,)", "(5,)", "(4,)", "(?, 5)", "<unknown>", "(?,)", "(4,)",
            "(1, ?, 5)"]
        with tf.Session() as sess:
            assert sess.run(y[n]) == 2 and sess.run(x[q:], {q: 3}).shape == (1, 5)


def test_a_one_part_split_or_unstack_gives_the_array():
    # A node of one output holds its kernel's result as it is: Split, SplitV and Unpack of one
    # part give that part, not a 1-tuple (TensorFlow's values: the input, and its one row).
    with tf.Graph().as_default():
        x = tf.placeholder_with_default(np.arange(6, dtype=np.float32).reshape(2, 3), None)
        parts = [tf.split(x, 1)[0], tf.split(x, [3], axis=1)[0], tf.unstack(x[:1], num=1)[0]]
        with tf.Session() as sess:
            split, split_v, row = sess.run(parts)
    np.testing.assert_array_equal(split, np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(split_v, split)
    np.testing.assert_array_equal(row, np.arange(3, dtype=np.float32))
