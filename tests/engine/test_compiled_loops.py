"""Compiled while loops (engine/runtime/loop_compiler.py, engine/kernels/compiled/loop_numba.py):
each loop here runs three ways in one session, compiled (GRAPH_INSPECTOR_COMPILED=sync: numba
and the loop compiled before the first run), on the frame compiler's Python loop (compiled
kernels off) and traced (FULL_TRACE: the frame-aware executor, every node of every iteration
in the step stats); the three give the same bits. Loops the compiled form does not take run
on the Python loop, with the same values."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.runtime import loop_compiler

FULL_TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)


@pytest.fixture
def compiled_runs(monkeypatch):
    """The compiled loops made synchronously; the list of loop frames that ran compiled."""
    if compiled.module("loops", wait=True) is None:
        pytest.skip(f"numba unavailable: {compiled.why_not('loops')}")
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "sync")
    runs, call = [], loop_compiler.CompiledLoop.__call__

    def recording(self, *args):
        try:
            result = call(self, *args)
        except Exception:
            runs.append(("raised in", self.frame_name))
            raise
        if result is not None:
            runs.append(self.frame_name)
        return result

    monkeypatch.setattr(loop_compiler.CompiledLoop, "__call__", recording)
    return runs


def three_ways(build, feeds_of=lambda inputs: {}, monkeypatch=None):
    """(compiled, Python loop, traced) values of build()'s fetches, and the traced run's
    step stats."""
    graph = tf.Graph()
    with graph.as_default():
        inputs, fetches = build()
        feeds = feeds_of(inputs)
        with tf.Session() as sess:
            fast = sess.run(fetches, feeds)
            with monkeypatch.context() as patch:
                patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
                with graph.as_default(), tf.Session() as python_sess:
                    python = python_sess.run(fetches, feeds)
            metadata = tf.RunMetadata()
            traced = sess.run(fetches, feeds, options=FULL_TRACE, run_metadata=metadata)
    return fast, python, traced, metadata


def assert_same_bits(*results):
    first = results[0]
    for other in results[1:]:
        assert len(other) == len(first)
        for a, b in zip(first, other):
            a, b = np.asarray(a), np.asarray(b)
            assert a.dtype == b.dtype and a.shape == b.shape
            assert a.tobytes() == b.tobytes(), (a, b)


def node_runs(metadata, name):
    return sum(s.node_name == name for d in metadata.step_stats.dev_stats for s in d.node_stats)


def _seed_loop():
    a_in = tf.placeholder(tf.float32, [10], name="a")
    i, a = tf.while_loop(lambda i, a: tf.less(i, 1000),
                         lambda i, a: (tf.add(i, 1), tf.add(a, 1.0)), [tf.constant(0), a_in])
    return a_in, [i, a]


def test_the_seed_loop_runs_compiled_and_gives_the_python_loops_bits(compiled_runs,
                                                                       monkeypatch):
    fast, python, traced, metadata = three_ways(
        _seed_loop, lambda a_in: {a_in: np.linspace(-1, 1, 10, dtype=np.float32)}, monkeypatch)
    assert compiled_runs == ["while/while_context"]
    assert_same_bits(fast, python, traced)
    assert fast[0] == 1000 and fast[1].dtype == np.float32
    # the traced run saw every iteration (step stats record no dead node, as TensorFlow's)
    assert node_runs(metadata, "while/Add_1") == 1000


def _arithmetic_loop():
    """float64 vectors through every kind of step, a loop invariant from outside, a bool
    condition of two comparisons, an int-to-float cast and a NaN."""
    x = tf.placeholder(tf.float64, [7], name="x")
    scale = tf.placeholder(tf.float64, [], name="scale")

    def body(i, v, w):
        mixed = tf.maximum(v * scale - w / 3.0, tf.minimum(w, -v))
        w_next = tf.sqrt(tf.abs(mixed) + 1.0) + tf.square(w) * 0.5 - tf.cast(i, tf.float64)
        return i + 1, tf.negative(mixed) + tf.squared_difference(v, 0.25), w_next / 7.0

    def cond(i, v, w):
        return tf.logical_and(tf.less(i, 40), tf.greater_equal(tf.cast(i, tf.float64), -1.0))

    results = tf.while_loop(cond, body, [tf.constant(0), x, x * 0.5])
    return (x, scale), list(results)


def test_every_step_kind_gives_the_python_loops_bits(compiled_runs, monkeypatch):
    values = np.array([0.3, -1.7, 2.5, np.nan, 0.0, -0.0, 1e3])
    fast, python, traced, _ = three_ways(
        _arithmetic_loop, lambda inputs: {inputs[0]: values, inputs[1]: 0.9}, monkeypatch)
    assert compiled_runs == ["while/while_context"]
    assert_same_bits(fast, python, traced)
    assert np.isnan(fast[1][3]) and fast[0] == 40


def _signed_zero_loop():
    """Maximum, Minimum and Relu of 0.0 and -0.0 (NumPy gives the second of two equal values,
    and 0.0 for Relu of -0.0) and of NaN."""
    x = tf.placeholder(tf.float32, [6], name="x")

    def body(i, a, b, c):
        return i + 1, tf.maximum(a, -a), tf.minimum(b, -b), tf.nn.relu(c) * -1.0

    results = tf.while_loop(lambda i, *_: i < 3, body, [tf.constant(0), x, x, x])
    return x, list(results)


def test_signed_zeros_and_nan_give_the_python_loops_bits(compiled_runs, monkeypatch):
    values = np.array([0.0, -0.0, np.nan, -np.nan, 1.5, -2.0], np.float32)
    fast, python, traced, _ = three_ways(_signed_zero_loop, lambda x: {x: values},
                                         monkeypatch)
    assert compiled_runs == ["while/while_context"]
    assert_same_bits(fast, python, traced)


def _integer_loop():
    """int32 arithmetic that wraps around, a vector and a scalar mixed."""
    start = tf.placeholder(tf.int32, [3], name="start")
    i, v = tf.while_loop(lambda i, v: i < 70,
                         lambda i, v: (i + 1, v * 3 + i - tf.maximum(v, 5)),
                         [tf.constant(0), start])
    return start, [i, v]


def test_integers_wrap_as_numpys_do(compiled_runs, monkeypatch):
    fast, python, traced, _ = three_ways(
        _integer_loop, lambda start: {start: np.array([1, -2, 2**30], np.int32)}, monkeypatch)
    assert compiled_runs == ["while/while_context"]
    assert_same_bits(fast, python, traced)


def _zero_iterations():
    n = tf.placeholder(tf.int32, [], name="n")
    i, total = tf.while_loop(lambda i, t: i < n, lambda i, t: (i + 1, t * 2.0),
                             [tf.constant(0), tf.constant([1.5, 2.5])])
    return n, [i, total]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loops_of_no_and_few_iterations(compiled_runs, monkeypatch, n):
    fast, python, traced, _ = three_ways(_zero_iterations, lambda p: {p: n}, monkeypatch)
    assert_same_bits(fast, python, traced)
    assert fast[0] == n


def _nested_loops():
    """The inner loop compiles; the outer one (a frame inside it) runs on the Python loop."""
    def outer_body(i, acc):
        _, inner = tf.while_loop(lambda j, a: j < 25, lambda j, a: (j + 1, a + 0.5),
                                 [tf.constant(0), acc])
        return i + 1, inner * 0.75

    result = tf.while_loop(lambda i, acc: i < 6, outer_body,
                           [tf.constant(0), tf.constant([1.0, -3.0, 8.0])])
    return None, list(result)


def test_an_inner_loop_compiles_inside_an_outer_python_loop(compiled_runs, monkeypatch):
    fast, python, traced, _ = three_ways(_nested_loops, monkeypatch=monkeypatch)
    assert_same_bits(fast, python, traced)
    assert compiled_runs == ["while/while/while_context"] * 6


def _exp_loop():
    x = tf.placeholder(tf.float32, [4], name="x")
    i, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, tf.exp(y) * 0.5),
                         [tf.constant(0), x])
    return x, [i, y]


def _growing_loop():
    i, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, tf.concat([y, y], 0)),
                         [tf.constant(0), tf.constant([1.0])],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    return None, [i, y]


def _broadcast_loop():
    row = tf.placeholder(tf.float32, [1, 3], name="row")
    col = tf.constant([[1.0], [2.0]])
    i, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y + col - row),
                         [tf.constant(0), tf.zeros([2, 3])])
    return row, [i, y]


@pytest.mark.parametrize("build, feeds", [
    (_exp_loop, lambda x: {x: np.array([0.1, -0.4, 0.3, 1.2], np.float32)}),  # no exact exp
    (_growing_loop, lambda _: {}),  # a variable that changes shape
    (_broadcast_loop, lambda row: {row: np.array([[0.5, 1.0, -2.0]], np.float32)}),
])
def test_loops_the_compiled_form_does_not_take_run_on_the_python_loop(compiled_runs,
                                                                      monkeypatch, build, feeds):
    fast, python, traced, _ = three_ways(build, feeds, monkeypatch)
    assert compiled_runs == []
    assert_same_bits(fast, python, traced)


def test_the_runaway_limit_stops_the_same_iteration(compiled_runs, monkeypatch):
    monkeypatch.setenv("GI_MAX_LOOP_ITERATIONS", "300")
    graph = tf.Graph()
    with graph.as_default():
        i, a = tf.while_loop(lambda i, a: i >= 0, lambda i, a: (i + 1, a * 2.0),
                             [tf.constant(0), tf.constant([1.0, 2.0])], name="forever")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.ResourceExhaustedError,
                               match="Loop frame 'forever/while_context' ran more than 300 "
                                     "iterations .*GI_MAX_LOOP_ITERATIONS"):
                sess.run(i)
    assert compiled_runs == [("raised in", "forever/while_context")]


def test_a_deadline_stops_a_compiled_loop(compiled_runs):
    graph = tf.Graph()
    with graph.as_default():
        loop = tf.while_loop(lambda i, a: i >= 0, lambda i, a: (i + 1, a + 1.0),
                             [tf.constant(0), tf.zeros([1 << 16])])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(loop, options=tf.RunOptions(timeout_in_ms=200))
    assert compiled_runs == [("raised in", "while/while_context")]


def test_the_python_loop_asks_for_compiling_once_it_has_run_enough(monkeypatch):
    """Without sync, a loop runs in Python until it has run COMPILE_AFTER_ITERATIONS."""
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "1")
    asked = []
    monkeypatch.setattr(loop_compiler.compiled, "module",
                        lambda name, wait=False: asked.append(name))
    graph = tf.Graph()
    with graph.as_default():
        i = tf.while_loop(lambda i: i < 1000, lambda i: i + 1, [tf.constant(0)])
        with tf.Session() as sess:
            for run in range(6):
                assert sess.run(i) == 1000
                assert len(asked) == max(0, run - 4), run  # from the 6th run: 5,000 done
