"""What a program's partition graphs look like on TensorFlow and on the engine, run by run.

    .venv/bin/python tools/partition_diff.py [--attrs] [--all] PROGRAM.py [ARGS...]

PROGRAM is written `import engine as tf` (as tests/programs/ are). It runs twice, each in its
own process: on the engine, and on TensorFlow through tools/tf_shim (the interpreter of
.venv-tf, or --tf-python). In both, every Session.run is asked for its partition graphs
(RunOptions.output_partition_graphs) and they are kept run by run. Then the graphs of each
run are compared node by node (name, op, inputs; attrs too with --attrs) with
views.graph_diff, and what differs is printed: where the engine's optimizer (engine/optimizer)
is not yet Grappler, in the terms of a real program. Runs are matched by their order; the
program should make the same Session.run calls on both (seeded, no wall-clock branches).
Only the first run that differs is shown in full unless --all.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# Run in each child before the program: Session.run (wherever its class defines it) asks for
# the partition graphs and writes them to $GI_PARTITIONS/run_<k>_<partition>.pb.
BOOTSTRAP = r"""
import os, runpy, sys
import engine as tf
out = os.environ["GI_PARTITIONS"]
owner = next(c for c in tf.Session.__mro__ if "run" in vars(c))
original = owner.run
count = [0]

def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    asked = tf.RunOptions()
    if options is not None:
        asked.CopyFrom(options)
    asked.output_partition_graphs = True
    metadata = run_metadata if run_metadata is not None else tf.RunMetadata()
    result = original(self, fetches, feed_dict, asked, metadata)
    k, count[0] = count[0], count[0] + 1
    for p, graph in enumerate(metadata.partition_graphs):
        with open(os.path.join(out, f"run_{k:05d}_{p:03d}.pb"), "wb") as f:
            f.write(graph.SerializeToString())
    return result

owner.run = run
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _capture(python, program, args, pythonpath, folder):
    """Runs the program under `python`; its partition graphs land in `folder`."""
    env = dict(os.environ, GI_PARTITIONS=str(folder), PYTHONPATH=pythonpath,
               TF_CPP_MIN_LOG_LEVEL="3")
    path = Path(program).resolve()  # the program runs in its own folder (its data files)
    done = subprocess.run([python, "-c", BOOTSTRAP, str(path), *args], env=env,
                          cwd=str(path.parent), capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise SystemExit(f"error: {program} failed under {python}:\n{tail}")


def _runs(folder):
    """{run index: GraphDef of all its partitions' nodes}."""
    from engine.proto import graph_pb2

    runs = {}
    for path in sorted(Path(folder).glob("run_*.pb")):
        index = int(path.stem.split("_")[1])
        graph = runs.setdefault(index, graph_pb2.GraphDef())
        part = graph_pb2.GraphDef.FromString(path.read_bytes())
        graph.node.extend(part.node)
    return runs


def _without_attrs(graph):
    from engine.proto import graph_pb2

    plain = graph_pb2.GraphDef()
    plain.CopyFrom(graph)
    for node in plain.node:
        node.ClearField("attr")
    return plain


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    parser.add_argument("--tf-python", default=str(REPO / ".venv-tf" / "bin" / "python"))
    parser.add_argument("--attrs", action="store_true", help="compare attrs too")
    parser.add_argument("--all", action="store_true", help="every differing run in full")
    options = parser.parse_args(argv)
    from views import graph_diff

    with tempfile.TemporaryDirectory() as ours, tempfile.TemporaryDirectory() as theirs:
        _capture(sys.executable, options.program, options.args, str(REPO), ours)
        _capture(options.tf_python, options.program, options.args,
                 str(REPO / "tools" / "tf_shim"), theirs)
        engine_runs, tf_runs = _runs(ours), _runs(theirs)
    print(f"{options.program}: {len(tf_runs)} Session.runs on TensorFlow, "
          f"{len(engine_runs)} on the engine")
    shown = same = differing = total = 0
    for index in sorted(set(tf_runs) & set(engine_runs)):
        theirs_graph, ours_graph = tf_runs[index], engine_runs[index]
        if not options.attrs:
            theirs_graph, ours_graph = _without_attrs(theirs_graph), _without_attrs(ours_graph)
        change = graph_diff.diff(theirs_graph, ours_graph)
        total += len(theirs_graph.node)
        differing += len(change.added) + len(change.removed) + len(change.changed)
        if change.empty:
            same += 1
            continue
        print(f"run {index}: {change.summary()} (TensorFlow's graph -> the engine's)")
        if shown and not options.all:
            continue
        shown += 1
        for name in change.removed:
            print(f"  - {name} ({_op(theirs_graph, name)}): only TensorFlow's")
        for name in change.added:
            print(f"  + {name} ({_op(ours_graph, name)}): only the engine's")
        for node_change in change.changed:
            print(f"  ~ {node_change.name}: " + "; ".join(node_change.details))
    print(f"{same} of {len(set(tf_runs) & set(engine_runs))} runs node for node the same; "
          f"{differing} nodes differ (added, removed or changed) over {total} of TensorFlow's")
    return 0


def _op(graph, name):
    return next((node.op for node in graph.node if node.name == name), "?")


if __name__ == "__main__":
    sys.exit(main())
