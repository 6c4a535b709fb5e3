"""What the fixture writers (tools/make_*_fixtures.py) share: TensorFlow quiet and in TF1
graph mode, the case modules of tests/engine importable, and the forms the fixtures are
written in (.npz keys, node lists one node a line, gzip that repeats its bytes).

Import it before TensorFlow: the environment it sets is read when TensorFlow loads.
"""

import gzip
import json
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # oneDNN's reordered sums round apart

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
# The case modules (tests/engine/*_cases.py) build each graph for TensorFlow and the engine.
sys.path.insert(0, str(ROOT / "tests" / "engine"))


def tf_v1():
    """tensorflow.compat.v1 in graph mode (ref variables, Session.run), its logger quiet."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    return tf


def npz_key(name):
    """A tensor or variable name as an .npz key, which may hold neither ':' nor '/'."""
    return name.replace(":", "__").replace("/", "--")


def node_list(graph):
    """[name, op, inputs] of each node of a tf.Graph, in graph order."""
    return [[node.name, node.op, list(node.input)] for node in graph.as_graph_def().node]


def run_cases(tf, cases):
    """({"<case>__<key>": array}, {case: static shapes}, {case: node list}) over a case module
    whose run_case(tf, name) gives (values, shapes) and build_case(tf, name) the graph."""
    values, shapes, nodes = {}, {}, {}
    for name in cases.CASES:
        case_values, shapes[name] = cases.run_case(tf, name)
        values.update({f"{name}__{key}": np.asarray(v) for key, v in case_values.items()})
        with tf.Graph().as_default() as graph:
            cases.build_case(tf, name)
        nodes[name] = node_list(graph)
    return values, shapes, nodes


def write_case_fixtures(tf, cases, out):
    """A cases module's fixtures in `out`: values.npz (run_cases' values), shapes.json (each
    case's static output shapes), nodes.json.gz (each case's nodes) and errors.json (per
    cases.ERROR_CASES entry, TensorFlow's error class and the kernel's message)."""
    out.mkdir(parents=True, exist_ok=True)
    values, shapes, nodes = run_cases(tf, cases)
    np.savez_compressed(out / "values.npz", **values)
    lines = [f"{json.dumps(name)}: {json.dumps(value)}" for name, value in shapes.items()]
    (out / "shapes.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    (out / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    errors = {name: list(cases.run_error_case(tf, name)) for name in cases.ERROR_CASES}
    (out / "errors.json").write_text(json.dumps(errors, indent=0) + "\n")
    print(f"wrote {len(cases.CASES)} cases to {out}")


def nodes_json(nodes):
    """{case: node list} as JSON text with one node a line, so a fixture's diff reads."""
    lines = [f"{json.dumps(name)}: [\n" + ",\n".join(json.dumps(n) for n in case) + "]"
             for name, case in nodes.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def gzip_bytes(text):
    """`text` gzipped with no timestamp, so that the same fixture writes the same bytes."""
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


class BinaryRunner:
    """A float32 binary op of two fed tensors in one session of `tf`: `run(a, b)` its output,
    `run.one_at_a_time(a, b)` each pair alone (one-element tensors take Eigen's scalar path)."""

    def __init__(self, tf, op):
        self.a = tf.placeholder(tf.float32, None)
        self.b = tf.placeholder(tf.float32, None)
        self.output = op(self.a, self.b)
        self.session = tf.Session()

    def __call__(self, a, b):
        return self.session.run(self.output, {self.a: a, self.b: b})

    def one_at_a_time(self, a, b):
        return np.array([self(a[i:i + 1], b[i:i + 1])[0] for i in range(a.size)], np.float32)


def differing(ours, theirs):
    """Where two float32 arrays' bits differ (two NaNs of any payload agree)."""
    return np.nonzero((ours.view(np.uint32) != theirs.view(np.uint32))
                      & ~(np.isnan(ours) & np.isnan(theirs)))[0]


def check_binary(tf, op, op_name, packet, scalar, cases, scalar_count=2000):
    """Print, per case (name -> (a, b)), how many of the engine's packet-path values
    (`packet(a, b)`) and of its first `scalar_count` scalar-path values differ from
    TensorFlow's `op`, with up to three of each."""
    with tf.Graph().as_default():
        run = BinaryRunner(tf, op)
        for name, (a, b) in cases.items():
            a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
            for path, ours, theirs, count in (
                    ("packet", packet, run, a.size),
                    ("scalar", scalar, run.one_at_a_time, min(scalar_count, a.size))):
                a_part, b_part = a[:count], b[:count]
                wrong = differing(ours(a_part, b_part), theirs(a_part, b_part))
                print(f"{name}: {wrong.size} of {count} differ on the {path} path")
                for i in wrong[:3]:
                    print(f"  {op_name}({a_part[i]!r}, {b_part[i]!r})")
