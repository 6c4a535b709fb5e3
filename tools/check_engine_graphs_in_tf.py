"""Check that GraphDefs the engine writes import into real TensorFlow and compute its values.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_engine_graphs_in_tf.py`. For each
graph fixture (tests/fixtures/graphs/<name>.json), the engine (the project's .venv, in a
subprocess) builds the same program with `import engine as tf` and writes as_graph_def();
TensorFlow imports that GraphDef and runs the fixture's manifest (before ops, feeds, fetches,
targets, steps), and the values must equal what TensorFlow computed from its own graph.
Graphs the engine cannot build yet are reported as skipped, with the engine's error.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GRAPHS = REPO / "tests" / "fixtures" / "graphs"
ENGINE_PYTHON = REPO / ".venv" / "bin" / "python"

# Writes one program's graph, built by our engine, to argv[2] (run with the project's venv).
BUILD_WITH_ENGINE = """
import importlib, sys
sys.path.insert(0, "tests/programs")  # programs import each other by plain name
import engine as tf
module = importlib.import_module(sys.argv[1])
if sys.argv[3] == "v2":
    tf.enable_resource_variables()
module.build()
graph_def = tf.get_default_graph().as_graph_def(include_debug_info=False)
open(sys.argv[2], "wb").write(graph_def.SerializeToString())
"""


def program_of(name):
    """The tests/programs module whose build() makes fixture `name` (make_fixtures' table)."""
    sys.path.insert(0, str(REPO / "tools"))
    from make_fixtures import GRAPHS as SPECS
    base = name[:-3] if name.endswith("_v2") else name
    return next(spec.program for spec in SPECS if spec.name == base)


def feed_value(value, np):
    if isinstance(value, dict) and "npy" in value:
        return np.load(GRAPHS / value["npy"])
    return np.asarray(value)


def run_in_tensorflow(tf, np, graph_bytes, manifest):
    graph_def = tf.GraphDef.FromString(graph_bytes)
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1,
                            device_count=manifest.get("config", {}).get("device_count", {}))
    with tf.Session(graph=graph, config=config) as sess:
        for op in manifest.get("before", []):
            sess.run(graph.get_operation_by_name(op))
        feeds = {graph.get_tensor_by_name(name): feed_value(value, np)
                 for name, value in manifest.get("feeds", {}).items()}
        fetches = [graph.get_tensor_by_name(name) for name in manifest["fetches"]]
        targets = [graph.get_operation_by_name(name) for name in manifest.get("targets", [])]
        steps = [sess.run(fetches + targets, feeds)[:len(fetches)]
                 for _ in range(manifest.get("steps", 1))]
    if manifest.get("steps", 1) == 1:
        return dict(zip(manifest["fetches"], steps[0]))
    return {name: np.stack([step[i] for step in steps]) for i, name in enumerate(manifest["fetches"])}


FUNCTIONAL_OPS = {"While", "StatelessWhile", "If", "StatelessIf", "Case", "StatelessCase"}


def functional_control_flow(tf, graph):
    """The functional (v2) control-flow ops in a GraphDef given as a path or as bytes."""
    data = graph.read_bytes() if isinstance(graph, Path) else graph
    return {node.op for node in tf.GraphDef.FromString(data).node} & FUNCTIONAL_OPS


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()

    failures = 0
    for manifest_path in sorted(GRAPHS.glob("*.json")):
        if manifest_path.name.endswith(".tf.json"):
            continue
        name = manifest_path.stem
        manifest = json.loads(manifest_path.read_text())
        with tempfile.NamedTemporaryFile(suffix=".pb") as out:
            built = subprocess.run(
                [str(ENGINE_PYTHON), "-c", BUILD_WITH_ENGINE, program_of(name), out.name,
                 manifest.get("mode", "v1")], cwd=REPO, capture_output=True, text=True)
            if built.returncode != 0:
                reason = (built.stderr.strip().splitlines() or ["?"])[-1]
                print(f"skip {name}: the engine cannot build it yet ({reason})")
                continue
            graph_bytes = Path(out.name).read_bytes()
        functional = functional_control_flow(tf, GRAPHS / f"{name}.pb")
        if functional and not functional_control_flow(tf, graph_bytes):
            print(f"skip {name}: TensorFlow built {', '.join(sorted(functional))}; the engine "
                  f"builds control flow v1 (it imports and runs v2 graphs, it does not build them)")
            continue
        try:
            values = run_in_tensorflow(tf, np, graph_bytes, manifest)
        except Exception as error:  # report every graph, not just the first failure
            failures += 1
            print(f"FAIL {name}: TensorFlow could not import or run it: {error}")
            continue
        expected = np.load(GRAPHS / manifest["values"])
        for fetch, value in values.items():
            want = expected[fetch.replace(":", "__")]
            if not np.allclose(value, want, rtol=1e-5, atol=1e-6, equal_nan=True):
                failures += 1
                print(f"FAIL {name}: {fetch} = {value!r}, TensorFlow computed {want!r}")
                break
        else:
            print(f"ok   {name}: {len(values)} fetches equal")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
