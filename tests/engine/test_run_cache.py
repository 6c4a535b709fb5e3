"""What Session.run keeps between runs follows what changed: the graph, the feeds, the options.

A run of an already-seen (graph version, feeds, fetches, targets, rewrite override) reuses its
plan, its fetch structure's flattening and the feed keys it resolved before
(engine/runtime/session.py, fetches.py, session_feeds.py); the deadline and NumPy's error state are
set and put back around every run. These tests change each of those between runs and check the
answers. Values and messages are TensorFlow 2.21's (tf.compat.v1, graph mode), checked by running
the same code there; the rewrite override (original_graph) is the engine's.
"""

import threading

import numpy as np
import pytest

import engine as tf
from engine.runtime import deadline
from engine.optimizer import session_rewrite


# the rewrite test needs the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


def scalar_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = tf.add(x, 1.0, name="y")
        p = tf.placeholder(tf.float32, [None, 2], name="p")
        q = tf.reduce_sum(p, name="q")
    return graph, x, y, p, q


def test_feed_keys_resolved_before_still_follow_the_graph():
    graph, x, y, p, q = scalar_graph()
    other = tf.Graph()
    with other.as_default():
        stranger = tf.placeholder(tf.float32, [], name="x")
    with tf.Session(graph=graph) as sess:
        assert sess.run(y, {x: 2.0}) == 3.0
        assert sess.run(y, {"x:0": 5.0}) == 6.0  # the same tensor by name
        assert sess.run(y, {x: np.float32(1.5)}) == 2.5
        assert sess.run(y, {x: np.array(2.5)}) == 3.5
        assert sess.run(y, {x: 3}) == 4.0
        # A name that does not resolve is not remembered: the graph grows, then it does.
        with pytest.raises(TypeError, match="^Cannot interpret feed_dict key as Tensor: The name "
                                            "'z:0' refers to a Tensor which does not exist. The "
                                            "operation, 'z', does not exist in the graph.$"):
            sess.run(y, {"z:0": 1.0})
        with graph.as_default():
            z = tf.placeholder(tf.float32, [], name="z")
            w = tf.multiply(z, 2.0, name="w")
        assert sess.run(w, {"z:0": 4.0}) == 8.0
        assert sess.run([y, w], {x: 1.0, "z:0": 3.0}) == [2.0, 6.0]
        # x:0 resolved before names this graph's x, never another graph's tensor of that name.
        with pytest.raises(TypeError, match=r"^Cannot interpret feed_dict key as Tensor: Tensor "
                                            r"Tensor\(\"x:0\", shape=\(\), dtype=float32\) is not "
                                            r"an element of this graph.$"):
            sess.run(y, {stranger: 1.0})
        with pytest.raises(TypeError, match="^The value of a feed cannot be a tf.Tensor object"):
            sess.run(y, {x: y})
        # Different feeds for the same fetch: a fed y comes back as fed.
        fed = sess.run(y, {y: 10.0})
        assert isinstance(fed, np.ndarray) and fed.shape == () and fed == 10.0
        assert sess.run(y, {x: 7.0}) == 8.0
        assert sess.run(z, {z: 2.0}) == 2.0


def test_fetch_structures_seen_before_follow_their_elements():
    graph, x, y, p, q = scalar_graph()
    with tf.Session(graph=graph) as sess:
        fetches = [y]
        assert sess.run(fetches, {x: 1.0}) == [2.0]
        fetches.append(x)  # the same list, changed
        assert sess.run(fetches, {x: 1.0}) == [2.0, 1.0]
        assert sess.run([x, y], {x: 1.0}) == [1.0, 2.0]
        assert sess.run((y, "x:0"), {x: 2.0}) == (3.0, 2.0)
        first = sess.run([y], {x: 3.0})
        assert sess.run([y], {x: 3.0}) is not first  # a new list every run
        assert list(sess.run({"b": y, "a": x}, {x: 1.0}).items()) == [("b", 2.0), ("a", 1.0)]
        assert list(sess.run({"a": x, "b": y}, {x: 1.0}).items()) == [("a", 1.0), ("b", 2.0)]
        assert sess.run([y.op, y], {x: 1.0}) == [None, 2.0]
        with pytest.raises(ValueError, match=r"^Argument `fetch` = w:0 cannot be interpreted as "
                                             r"a Tensor. \(\"The name 'w:0' refers to a Tensor "
                                             r"which does not exist. The operation, 'w', does "
                                             r"not exist in the graph.\"\)$"):
            sess.run([y, "w:0"], {x: 1.0})
        with graph.as_default():
            tf.multiply(x, 2.0, name="w")
        assert sess.run([y, "w:0"], {x: 1.0}) == [2.0, 2.0]


def test_feed_shapes_are_checked_on_every_run():
    graph, x, y, p, q = scalar_graph()
    with tf.Session(graph=graph) as sess:
        assert sess.run(y, {x: 2.0}) == 3.0
        with pytest.raises(ValueError, match=r"^Cannot feed value of shape \(2,\) for Tensor x:0, "
                                             r"which has shape \(\)$"):
            sess.run(y, {x: [1.0, 2.0]})
        assert sess.run(q, {p: [[1.0, 2.0], [3.0, 4.0]]}) == 10.0
        with pytest.raises(ValueError, match=r"^Cannot feed value of shape \(1, 3\) for Tensor "
                                             r"p:0, which has shape \(\?, 2\)$"):
            sess.run(q, {p: [[1.0, 2.0, 3.0]]})
        with pytest.raises(ValueError, match=r"^Cannot feed value of shape \(2,\) for Tensor "
                                             r"p:0, which has shape \(\?, 2\)$"):
            sess.run(q, {p: [1.0, 2.0]})
        assert sess.run(q, {"p:0": np.ones((3, 2), np.float32)}) == 6.0


def test_run_options_are_read_on_every_run_of_a_cached_plan():
    graph, x, y, _, _ = scalar_graph()
    with tf.Session(graph=graph) as sess:
        assert sess.run(y, {x: 1.0}) == 2.0
        traced = tf.RunMetadata()
        assert sess.run(y, {x: 2.0}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                        run_metadata=traced) == 3.0
        names = {s.node_name for d in traced.step_stats.dev_stats for s in d.node_stats}
        assert names == {"_SOURCE", "_arg_x_0_0", "_retval_y_0_0", "y", "y/y"}
        assert not traced.partition_graphs
        untraced = tf.RunMetadata()
        assert sess.run(y, {x: 3.0}, options=tf.RunOptions(), run_metadata=untraced) == 4.0
        assert not untraced.step_stats.dev_stats and not untraced.partition_graphs
        graphs = tf.RunMetadata()
        assert sess.run(y, {x: 4.0}, options=tf.RunOptions(output_partition_graphs=True),
                        run_metadata=graphs) == 5.0
        assert sorted((n.name, n.op) for n in graphs.partition_graphs[0].node) == [
            ("_arg_x_0_0", "_Arg"), ("_retval_y_0_0", "_Retval"), ("y", "AddV2"), ("y/y", "Const")]
        assert not graphs.step_stats.dev_stats
        assert len(sess._entries) == 1  # options are not part of the plan


def test_a_timed_out_run_leaves_no_deadline_behind():
    """The deadline is the run's: a later run of the session, on the same thread, has none."""
    with tf.Graph().as_default():
        forever = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)])
        thousand = tf.while_loop(lambda i: i < 1000, lambda i: i + 1, [tf.constant(0)])
        with tf.Session() as sess:
            assert sess.run(thousand) == 1000
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(forever, options=tf.RunOptions(timeout_in_ms=50))
            assert deadline.swap(None) is None
            # Past its deadline by now: were it still set, the loop's checks would raise.
            assert sess.run(thousand) == 1000


def chain_graph(adds=10):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = x
        for i in range(adds):
            y = tf.add(y, 1.0, name=f"add{i}")
    return graph, x, y


def adds_run(sess, y, feed):
    metadata = tf.RunMetadata()
    value = sess.run(y, feed, options=tf.RunOptions(output_partition_graphs=True),
                     run_metadata=metadata)
    return value, sum(n.op == "AddV2" for g in metadata.partition_graphs for n in g.node)


def test_the_rewrite_override_picks_its_own_plan():
    graph, x, y = chain_graph()
    with tf.Session(graph=graph) as sess:
        assert adds_run(sess, y, {x: 2.0}) == (12.0, 1)  # folded, as Grappler folds it
        with session_rewrite.original_graph():
            assert adds_run(sess, y, {x: 2.0}) == (12.0, 10)  # the graph as written
            seen = []  # the override is this thread's: another thread runs the optimized plan
            other = threading.Thread(target=lambda: seen.append(adds_run(sess, y, {x: 1.0})))
            other.start()
            other.join()
            assert seen == [(11.0, 1)]
        assert session_rewrite.override() is None
        assert adds_run(sess, y, {x: 3.0}) == (13.0, 1)
        with session_rewrite.optimized_graph():
            assert adds_run(sess, y, {x: 3.0}) == (13.0, 1)
        assert len(sess._entries) == 3  # None, False, True


def test_floating_point_errors_are_ignored_in_the_run_only():
    graph = tf.Graph()
    with graph.as_default():
        m = tf.placeholder(tf.float32, [], name="m")
        log = tf.log(m, name="log")
        inverse = tf.div(1.0, m, name="inverse")
        p = tf.placeholder(tf.float32, [None], name="p")
        wrong = tf.matmul(tf.reshape(p, [1, -1]), tf.ones([2, 2]))
    seen = []

    def handler(kind, flag):
        seen.append(kind)

    def state():
        errors = np.geterr()
        return f"{errors['divide']} {errors['invalid']} {np.geterrcall() is handler}".encode()

    with graph.as_default():
        state_in_run = tf.py_func(state, [], tf.string)

    with tf.Session(graph=graph) as sess:
        for _ in range(2):  # the second time from the state remembered the first
            with np.errstate(all="raise"):
                got = sess.run([log, inverse], {m: -1.0})
                assert np.isnan(got[0]) and got[1] == -1.0
                assert sess.run([log, inverse], {m: 0.0}) == [-np.inf, np.inf]
                assert np.geterr() == {"divide": "raise", "over": "raise", "under": "raise",
                                       "invalid": "raise"}
            with np.errstate(all="call", call=handler):
                sess.run(log, {m: -1.0})
                assert np.geterrcall() is handler and np.geterr()["invalid"] == "call"
                # Inside the run every error is ignored, the caller's handler kept.
                assert sess.run(state_in_run) == b"ignore ignore True"
                np.log(np.float32(-1.0))
            assert seen == ["invalid value"]  # NumPy's own call only, none from the run
            seen.clear()
            before = np.geterr()
            with pytest.raises(tf.errors.InvalidArgumentError):  # a failed run puts it back
                sess.run(wrong, {p: [1.0, 2.0, 3.0]})
            assert np.geterr() == before



def test_a_run_inside_a_run_puts_the_error_state_back():
    """A py_func's own Session.run inside a run: each run sets and puts back its own state."""
    inner_graph = tf.Graph()
    with inner_graph.as_default():
        m = tf.placeholder(tf.float32, [], name="m")
        log = tf.log(m, name="log")
    inner = tf.Session(graph=inner_graph)

    def nested():
        value = inner.run(log, {m: -1.0})
        return f"{np.isnan(value)} {np.geterr()['invalid']}".encode()

    graph = tf.Graph()
    with graph.as_default():
        outer = tf.py_func(nested, [], tf.string)
    before = np.geterr()
    with tf.Session(graph=graph) as sess, inner:
        with np.errstate(all="raise"):
            assert sess.run(outer) == b"True ignore"
            assert sess.run(outer) == b"True ignore"
            assert np.geterr()["invalid"] == "raise"
        assert np.geterr() == before
