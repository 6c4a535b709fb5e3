"""Every GraphDef TensorFlow wrote (tests/fixtures/graphs) imports and computes TF's values.

Each manifest <name>.json names the fetches, feeds, ops to run first (`before`), targets,
how many steps, and the values TensorFlow fetched (<name>.values.npz; stacked per step when
steps > 1). Graphs with control flow or gradients wait for a later issue and are skipped
with the ops that need it named.
"""

import builtins
import json
from pathlib import Path

import numpy as np
import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"
MANIFESTS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".tf.json"))

# Control flow (v1 frames and v2 functional ops): a later issue.
CONTROL_FLOW_OPS = {"SymbolicGradient"}


def _manifest_id(path):
    return path.stem


def later_issue_reason(graph_def):
    """Why this graph waits for a later issue, or None."""
    control = sorted({n.op for n in graph_def.node if n.op in CONTROL_FLOW_OPS})
    reasons = []
    if control:
        reasons.append(f"control flow ({', '.join(control)})")
    return " and ".join(reasons) or None


def feed_value(entry):
    if isinstance(entry, dict) and "npy" in entry:
        return np.load(FIXTURES / entry["npy"])
    return entry


def kernel_message(error):
    """The kernel's message in TensorFlow 2.x's "Graph execution error:" text."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    if lines and lines[0].startswith("Graph execution error"):
        lines = lines[1:]
        for i, line in enumerate(lines):
            if line.startswith("Node: "):
                lines = lines[i + 1:]
                break
    return lines[0] if lines else ""


def load(path):
    import engine as tf
    manifest = json.loads(path.read_text())
    graph_def = tf.GraphDef()
    graph_def.ParseFromString((FIXTURES / f"{path.stem}.pb").read_bytes())
    return tf, manifest, graph_def


def imported(tf, graph_def):
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    return graph


@pytest.mark.parametrize("path", MANIFESTS, ids=_manifest_id)
def test_graph_fixture_computes_tensorflows_values(path):
    tf, manifest, graph_def = load(path)
    reason = later_issue_reason(graph_def)
    if reason:
        pytest.skip(f"{path.stem}: {reason}: a later issue")
    graph = imported(tf, graph_def)
    fetches, targets = manifest["fetches"], manifest["targets"]
    feeds = {name: feed_value(value) for name, value in manifest["feeds"].items()}
    steps = manifest.get("steps", 1)
    config = tf.ConfigProto(**manifest["config"]) if manifest.get("config") else None
    with tf.Session(graph=graph, config=config) as sess:
        for op in manifest["before"]:
            sess.run(op)
        rows = [sess.run(fetches + targets, feeds)[:len(fetches)] for _ in range(steps)]
    expected = np.load(FIXTURES / manifest["values"])
    for i, name in enumerate(fetches):
        want = expected[name.replace(":", "__")]
        got = np.stack([np.asarray(row[i]) for row in rows]) if steps > 1 else np.asarray(rows[0][i])
        assert got.shape == want.shape, name
        assert got.dtype == want.dtype, name
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


ERROR_CASES = [(path, i) for path in MANIFESTS
               for i, _ in enumerate(json.loads(path.read_text()).get("errors", []))]


@pytest.mark.parametrize("path,index", ERROR_CASES,
                         ids=[f"{p.stem}-{i}" for p, i in ERROR_CASES])
def test_graph_fixture_fails_as_tensorflow_failed(path, index):
    tf, manifest, graph_def = load(path)
    case = manifest["errors"][index]
    graph = imported(tf, graph_def)
    feeds = {name: feed_value(value) for name, value in case["feeds"].items()}
    expected = getattr(tf.errors, case["error"], None) or getattr(builtins, case["error"])
    with tf.Session(graph=graph) as sess:
        with pytest.raises(expected) as caught:
            sess.run(case["fetches"], feeds)
        assert kernel_message(caught.value) == case["message"]
        if case.get("node"):
            assert caught.value.node_def.name == case["node"]
        # A failed run leaves the session usable.
        good = {name: feed_value(value) for name, value in manifest["feeds"].items()}
        sess.run(manifest["fetches"], good)
