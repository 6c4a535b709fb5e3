"""tf.Session: fetch structures, feeds, errors, plan caching, default sessions.

Expected values and messages are TensorFlow 2.21's (tf.compat.v1, graph mode), checked by
running the same code there.
"""

import collections

import numpy as np
import pytest

import engine as tf
from engine.framework import errors
from engine.runtime.session import get_default_session


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def square_graph():
    x = tf.placeholder(tf.float32, shape=[2], name="x")
    y = tf.square(x, name="y")
    return x, y


def test_fetch_structures(graph):
    x, y = square_graph()
    Pair = collections.namedtuple("Pair", "a b")
    with tf.Session() as sess:
        feed = {x: [1.0, 2.0]}
        out = sess.run({"a": y, "b": [y.op, (y, "y:0")], "c": Pair(y, x)}, feed)
        np.testing.assert_array_equal(out["a"], [1.0, 4.0])
        assert out["b"][0] is None
        assert isinstance(out["b"][1], tuple) and len(out["b"][1]) == 2
        assert isinstance(out["c"], Pair)
        np.testing.assert_array_equal(out["c"].b, [1.0, 2.0])
        assert sess.run([], feed) == []
        assert sess.run(y.op, feed) is None
        assert sess.run("y", feed) is None
        assert sess.run(y, feed).dtype == np.float32


def test_feeds_by_name_and_conversion(graph):
    x, y = square_graph()
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {"x:0": [1, 2]}), [1.0, 4.0])
        np.testing.assert_array_equal(sess.run(y, {x: np.array([1, 2], np.int64)}), [1.0, 4.0])
        # A fed tensor cuts the graph and comes back as fed.
        np.testing.assert_array_equal(sess.run(y, {x: [1, 2], y: [5, 6]}), [5.0, 6.0])


def test_wrong_feed_shape_is_a_value_error_worded_as_tensorflow(graph):
    x, y = square_graph()
    with tf.Session() as sess:
        with pytest.raises(ValueError) as caught:
            sess.run(y, {x: [1.0, 2.0, 3.0]})
        assert str(caught.value) == ("Cannot feed value of shape (3,) for Tensor x:0, "
                                     "which has shape (2,)")
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(\) for Tensor x:0"):
            sess.run(y, {x: 3.0})


def test_missing_feed_names_the_placeholder_and_its_line(graph):
    x, y = square_graph()
    with tf.Session() as sess:
        with pytest.raises(errors.InvalidArgumentError) as caught:
            sess.run(y)
        error = caught.value
        assert error.node_def.name == "x" and error.op is x.op
        lines = error.message.splitlines()
        assert lines[0] == "Graph execution error:"
        assert "Detected at node 'x' defined at (most recent call last):" in lines
        assert ("You must feed a value for placeholder tensor 'x' with dtype float and "
                "shape [2]") in lines
        assert lines[-1] == "\t [[{{node x}}]]"
        detected = lines.index("Node: 'x'")
        assert any("test_session.py" in line and "square_graph" in line
                   for line in lines[:detected])
        # The session is still usable.
        np.testing.assert_array_equal(sess.run(y, {x: [3, 4]}), [9.0, 16.0])


def test_feed_errors(graph):
    x, y = square_graph()
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
            sess.run(y, {x: y})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: "):
            sess.run(y, {"nope:0": [1, 2]})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: "):
            sess.run(y, {"x": [1, 2]})


def test_fetch_errors(graph):
    square_graph()
    other = tf.Graph()
    with other.as_default():
        stranger = tf.constant(1.0, name="o")
    with tf.Session() as sess:
        with pytest.raises(TypeError, match=r'Argument `fetch` = None has invalid type '
                                            r'"NoneType". Cannot be None'):
            sess.run(None)
        with pytest.raises(TypeError, match='Argument `fetch` = 3 has invalid type "int"'):
            sess.run(3)
        with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
            sess.run(stranger)
        with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
            sess.run("nope:0")


def test_uninitialized_variable_then_initialized(graph):
    v = tf.Variable(1.0, name="v")
    doubled = v * 2.0
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError,
                           match="Attempting to use uninitialized value v"):
            sess.run(doubled)
        with pytest.raises(errors.FailedPreconditionError) as caught:
            sess.run(v)
        assert caught.value.message.endswith("[[{{node _retval_v_0_0}}]]")
        sess.run(v.initializer)
        assert sess.run(doubled) == 2.0
        assert sess.run(v) == 1.0
        assert sess.run(doubled, {v: 3.0}) == 6.0  # a variable can be fed


def test_variables_live_in_the_session(graph):
    counter = tf.Variable(0, name="counter")
    step = tf.assign_add(counter, 1)
    with tf.Session() as one, tf.Session() as two:
        one.run(counter.initializer)
        two.run(counter.initializer)
        one.run(step)
        one.run(step)
        assert one.run(counter) == 2 and two.run(counter) == 0


def test_plans_are_cached_per_feeds_and_fetches(graph):
    x, y = square_graph()
    with tf.Session() as sess:
        sess.run(y, {x: [1, 2]})
        sess.run(y, {x: [3, 4]})
        sess.run([y], {x: [3, 4]})
        assert len(sess._entries) == 1
        sess.run(y, {y: [3, 4]})
        assert len(sess._entries) == 2
        tf.constant(3.0)  # a new op: a new graph version
        sess.run(y, {x: [3, 4]})
        assert len(sess._entries) == 3


def test_closed_session(graph):
    x, y = square_graph()
    sess = tf.Session()
    sess.close()
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        sess.run(y, {x: [1, 2]})


def test_default_session_eval_and_run(graph):
    c = tf.constant([1.0, 2.0])
    v = tf.Variable(5.0)
    assert get_default_session() is None
    with tf.Session() as sess:
        assert get_default_session() is sess
        assert tf.get_default_session() is sess
        v.initializer.run()
        np.testing.assert_array_equal(c.eval(), [1.0, 2.0])
        assert v.eval() == 5.0
    assert get_default_session() is None


def test_interactive_session(graph):
    c = tf.constant(4.0)
    sess = tf.InteractiveSession()
    try:
        assert get_default_session() is sess
        assert c.eval() == 4.0
    finally:
        sess.close()
    assert get_default_session() is None


def test_session_properties(graph):
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=False))
    assert sess.graph is graph and sess.sess_str == ""
    sess.close()


def test_full_trace_fills_step_stats_and_partition_graphs(graph, optimizer_on):
    x = tf.placeholder(tf.float32, shape=[2], name="x")
    c = tf.constant([1.0, 2.0], name="c")
    y = tf.add(x, c, name="y")
    z = tf.square(y, name="z")
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, output_partition_graphs=True)
    metadata = tf.RunMetadata()
    with tf.Session() as sess:
        np.testing.assert_array_equal(
            sess.run(z, {x: [1, 2]}, options=options, run_metadata=metadata), [4.0, 16.0])
    (device,) = metadata.step_stats.dev_stats
    assert device.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    # TensorFlow 2.21's order and labels for this graph.
    assert [(s.node_name, s.timeline_label) for s in device.node_stats] == [
        ("_SOURCE", "_SOURCE = NoOp()"), ("c", "c = Const()"), ("_arg_x_0_0", "_arg_x_0_0 = _Arg()"),
        ("y", "y = AddV2(c, _arg_x_0_0)"), ("z", "z = Square(y)"),
        ("_retval_z_0_0", "_retval_z_0_0 = _Retval(z)")]
    z_stats = device.node_stats[4]
    description = z_stats.output[0].tensor_description
    assert description.dtype == tf.float32.as_datatype_enum
    assert [d.size for d in description.shape.dim] == [2]
    assert description.allocation_description.requested_bytes == 8
    assert description.allocation_description.allocator_name == "cpu"
    assert z_stats.HasField("memory_stats")
    (partition,) = metadata.partition_graphs
    assert [(n.name, n.op, list(n.input)) for n in partition.node] == [
        ("c", "Const", []), ("y", "AddV2", ["c", "_arg_x_0_0"]), ("z", "Square", ["y"]),
        ("_arg_x_0_0", "_Arg", []), ("_retval_z_0_0", "_Retval", ["z"])]


def test_no_trace_leaves_run_metadata_empty(graph):
    c = tf.constant(1.0)
    metadata = tf.RunMetadata()
    with tf.Session() as sess:
        sess.run(c, options=tf.RunOptions(), run_metadata=metadata)
    assert not metadata.step_stats.dev_stats and not metadata.partition_graphs
