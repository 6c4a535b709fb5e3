"""tf.map_fn, tf.scan, tf.foldl, tf.foldr against TensorFlow 2.21 (tf.compat.v1).

The cases (tests/engine/functional_cases.py) cover dtype=, tuple and nested elems, tuple
outputs, initializers, reverse scans, unknown lengths, back_prop=False and a map inside a
scan; tests/fixtures/functional/ holds TensorFlow's outputs, gradients with respect to the
inputs and a variable, static shapes and graphs (tools/make_functional_fixtures.py).
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import functional_cases as cases  # noqa: E402
import tf_fixture_set  # noqa: E402

TF = tf_fixture_set.load("functional")
TF_VALUES, TF_SHAPES, TF_NODES = TF.values, TF.shapes, TF.nodes


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF_VALUES.files if key.startswith(name + "__")}
    assert set(values) == expected  # the same gradients are None
    for key, value in values.items():
        want = TF_VALUES[f"{name}__{key}"]
        assert np.asarray(value).dtype == want.dtype, key
        np.testing.assert_allclose(value, want, rtol=1e-12, atol=1e-14, err_msg=key)
    assert shapes == TF_SHAPES[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF_NODES[name]


def test_gradient_with_respect_to_a_variable_is_tensorflows_and_trains():
    # The loss of map_fn's output, differentiated w.r.t. a variable, drives an optimizer.
    with tf.Graph().as_default():
        feed, outputs, loss, grads = cases.build_case(tf, "map_basic")
        w = tf.trainable_variables()[0]
        step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[w])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(grads[2], feed),
                                       TF_VALUES["map_basic__grad2"], rtol=1e-12)
            sess.run(step, feed)
            # TensorFlow makes the learning rate a float32 tensor, cast to the variable's type.
            rate = np.float64(np.float32(0.1))
            np.testing.assert_allclose(sess.run(w), cases.W - rate * TF_VALUES["map_basic__grad2"],
                                       rtol=1e-14)


def test_map_fn_errors_are_tensorflows():
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        with pytest.raises(TypeError, match="The provided function 3 is not callable"):
            tf.map_fn(3, x)
        with pytest.raises(ValueError, match="must be 1\\+ dimensional Tensors, not scalars"):
            tf.map_fn(tf.identity, tf.constant(1.0))
        with pytest.raises(ValueError, match="does not contain any Tensors"):
            tf.map_fn(tf.identity, ())
        with pytest.raises(TypeError, match="don't have the same sequence type"):
            tf.map_fn(lambda e: [e, e], x, dtype=(tf.float32, tf.float32))
        with pytest.raises(ValueError, match="don't have the same nested structure"):
            tf.map_fn(lambda e: (e, e), x)
        with pytest.raises(ValueError, match="Inconsistent shapes"):
            tf.scan(lambda a, e: tf.concat([a, e], 0), x)
