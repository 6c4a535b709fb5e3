"""The fast path's elementwise chains (engine/runtime/chain_steps.py): a graph whose shapes
the remapper cannot see (a placeholder's None batch) runs its chains as one compiled loop,
giving the unfused kernels' values bit for bit; fetched intermediates, fed and variable
values, errors and traced runs are as without it."""

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import fused
from engine.runtime import chain_steps

pytest.importorskip("numba")


@pytest.fixture
def compiled_runs(monkeypatch):
    """Counts the chain runs the compiled loop served (each compiles at once here)."""
    monkeypatch.setattr(chain_steps, "WAIT", True)
    served = []
    original = fused.run_compiled

    def counting(plan, inputs, **kwargs):
        result = original(plan, inputs, **kwargs)
        if result is not None:
            served.append(tuple(op for op, _, _ in plan.chain.steps))
        return result

    monkeypatch.setattr(fused, "run_compiled", counting)
    return served


def _run(build, feeds, enabled, monkeypatch, fetch_more=()):
    """Build the graph afresh and run it once with chain steps on or off."""
    monkeypatch.setattr(chain_steps, "ENABLED", enabled)
    graph = tf.Graph()
    with graph.as_default():
        placeholders, output = build()
        with tf.Session(graph=graph) as sess:
            fetches = [output] + [graph.get_tensor_by_name(n) for n in fetch_more]
            return sess.run(fetches, dict(zip(placeholders, feeds)))


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a.view(f"u{a.dtype.itemsize}"), b.view(f"u{b.dtype.itemsize}"))


def _layer_norm_gelu():
    x = tf.placeholder(tf.float32, [None, 96], name="x")
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    variance = tf.reduce_mean(tf.squared_difference(x, mean), axis=-1, keepdims=True)
    gamma = tf.constant(np.linspace(0.5, 1.5, 96, dtype=np.float32))
    beta = tf.constant(np.linspace(-0.2, 0.2, 96, dtype=np.float32))
    normed = (x - mean) * tf.math.rsqrt(variance + 1e-12) * gamma + beta
    h = tf.exp(normed * 0.25) - 1.0
    return [x], 0.5 * h * tf.tanh(-h * 0.7071067811865476)


def _attention_scores():
    scores = tf.placeholder(tf.float32, [None, 4, 33, 33], name="scores")
    mask = tf.placeholder(tf.float32, [None, 1, 1, 33], name="mask")
    return [scores, mask], tf.nn.softmax(scores * 0.125 + (1.0 - mask) * -10000.0)


def test_layer_norm_and_activation_chains_give_the_unfused_bits(compiled_runs, monkeypatch):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((2049, 96)) * 3).astype(np.float32)  # 196,704 elements
    (fused_out,) = _run(_layer_norm_gelu, [x], True, monkeypatch)
    assert compiled_runs, "no chain ran compiled"
    assert any("Rsqrt" in ops for ops in compiled_runs)  # the [n, 1] step lifted out
    (plain,) = _run(_layer_norm_gelu, [x], False, monkeypatch)
    _same_bits(fused_out, plain)


def test_a_mask_broadcast_over_heads_and_rows(compiled_runs, monkeypatch):
    rng = np.random.default_rng(1)
    scores = rng.standard_normal((16, 4, 33, 33)).astype(np.float32)  # 69,696 elements
    mask = (rng.random((16, 1, 1, 33)) > 0.2).astype(np.float32)
    (fused_out,) = _run(_attention_scores, [scores, mask], True, monkeypatch)
    assert ("Mul", "AddV2") in compiled_runs or ("Mul", "Sub", "Mul", "AddV2") in [
        tuple(ops) for ops in compiled_runs]
    (plain,) = _run(_attention_scores, [scores, mask], False, monkeypatch)
    _same_bits(fused_out, plain)


def test_a_fetched_intermediate_stays_a_value_of_its_own(compiled_runs, monkeypatch):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((300, 300)).astype(np.float32)

    def build():
        p = tf.placeholder(tf.float32, [None, 300])
        middle = tf.identity(p * 2.0, name="middle") * 3.0  # Identity: not a chain op
        twice = tf.multiply(p, 2.0, name="twice")
        return [p], tf.add(twice * 3.0, middle, name="out")

    got = _run(build, [x], True, monkeypatch, fetch_more=["twice:0"])
    plain = _run(build, [x], False, monkeypatch, fetch_more=["twice:0"])
    for a, b in zip(got, plain):
        _same_bits(a, b)
    assert compiled_runs and all("Mul" in ops for ops in compiled_runs)


def test_fed_values_and_variables_are_never_written_over(compiled_runs, monkeypatch):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((400, 400)).astype(np.float32)
    kept = x.copy()
    monkeypatch.setattr(chain_steps, "ENABLED", True)
    graph = tf.Graph()
    with graph.as_default():
        p = tf.placeholder(tf.float32, [None, 400])
        v = tf.Variable(np.ones((400, 400), np.float32))
        read = tf.reshape(v, tf.shape(p))  # a shape the graph does not show
        out = tf.exp(p * 0.5 + 1.0) + tf.sqrt(read * 4.0 + 1.0)
        with tf.Session(graph=graph) as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(out, {p: x})
            second = sess.run(out, {p: x})
            value = sess.run(v)
    np.testing.assert_array_equal(x, kept)
    np.testing.assert_array_equal(value, np.ones((400, 400), np.float32))
    _same_bits(first, second)
    assert compiled_runs


def test_a_value_read_after_the_chain_starts_lives_until_the_chain_ends(compiled_runs,
                                                                          monkeypatch):
    # y is read by a chain member, then by a Sum that runs before the chain's last node:
    # its last reader is then the Sum, and the chain must still find it.
    rng = np.random.default_rng(4)
    x = rng.standard_normal((512, 256)).astype(np.float32)

    def build():
        p = tf.placeholder(tf.float32, [None, 256])
        y = tf.matmul(p, tf.constant(np.eye(256, dtype=np.float32)))  # a buffer it may take
        return [p], (y * 2.0 + 1.0) + tf.reduce_sum(y, axis=1, keepdims=True)

    changed = []
    original = chain_steps.Chains.__init__

    def recording(self, plan, nodes):
        original(self, plan, nodes)
        position = {node.name: k for k, node in enumerate(plan.nodes)}
        changed.extend(node.name for node in nodes
                       if self.frees_at(node) != plan.frees.get(position[node.name], ()))

    monkeypatch.setattr(chain_steps.Chains, "__init__", recording)
    got = _run(build, [x], True, monkeypatch)
    assert "Sum" in changed  # the Sum no longer frees y: the chain does
    plain = _run(build, [x], False, monkeypatch)
    _same_bits(got[0], plain[0])
    assert compiled_runs


def test_an_error_names_the_member_that_failed(monkeypatch):
    monkeypatch.setattr(chain_steps, "WAIT", True)

    def build():
        a = tf.placeholder(tf.float32, [None, None])
        b = tf.placeholder(tf.float32, [None, None])
        return [a, b], tf.exp(tf.add(a, b, name="bad_add") * 2.0)

    feeds = [np.ones((300, 300), np.float32), np.ones((299, 300), np.float32)]
    messages = []
    for enabled in (True, False):
        with pytest.raises(tf.errors.InvalidArgumentError) as raised:
            _run(build, feeds, enabled, monkeypatch)
        messages.append(str(raised.value))
        assert "bad_add" in str(raised.value)
    assert messages[0] == messages[1]


def test_a_traced_run_reports_every_member(compiled_runs, monkeypatch):
    monkeypatch.setattr(chain_steps, "ENABLED", True)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2049, 96)).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        placeholders, out = _layer_norm_gelu()
        with tf.Session(graph=graph) as sess:
            fast = sess.run(out, {placeholders[0]: x})
            metadata = tf.RunMetadata()
            traced = sess.run(out, {placeholders[0]: x}, run_metadata=metadata,
                              options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE))
    names = {s.node_name for d in metadata.step_stats.dev_stats for s in d.node_stats}
    assert {"Rsqrt", "sub", "Tanh", "Exp"} <= names
    assert not any("_FusedElementwise" in s.timeline_label
                   for d in metadata.step_stats.dev_stats for s in d.node_stats)
    _same_bits(fast, traced)


def test_small_values_take_the_nodes_own_steps(compiled_runs, monkeypatch):
    x = np.ones((8, 96), np.float32)
    (got,) = _run(_layer_norm_gelu, [x], True, monkeypatch)
    (plain,) = _run(_layer_norm_gelu, [x], False, monkeypatch)
    _same_bits(got, plain)
    assert not compiled_runs


def test_no_chain_spans_a_node_that_changes_state(compiled_runs, monkeypatch):
    # m reads the variable's array (a Reshape of it: a view); the assign_add, waiting on two
    # matmuls, writes it after m has run and before the chain's last node: run at that
    # node's place, m would read the new value.
    def build():
        v = tf.Variable(np.ones((300, 300), np.float32), name="v")
        z = tf.placeholder(tf.float32, [None, 300])
        m = tf.reshape(tf.identity(v), tf.shape(z)) * 2.0
        eye = np.eye(300, dtype=np.float32)
        update = tf.assign_add(v, tf.exp(tf.matmul(tf.matmul(z, eye), eye)))
        with tf.control_dependencies([update]):
            later = tf.identity(z)
        return v, z, (m + 1.0) + later

    results = []
    for enabled in (True, False):
        monkeypatch.setattr(chain_steps, "ENABLED", enabled)
        graph = tf.Graph()
        with graph.as_default():
            v, z, out = build()
            with tf.Session(graph=graph) as sess:
                sess.run(v.initializer)
                results.append(sess.run(out, {z: np.zeros((300, 300), np.float32)}))
    np.testing.assert_array_equal(results[1], np.full((300, 300), 3.0, np.float32))
    _same_bits(results[0], results[1])
