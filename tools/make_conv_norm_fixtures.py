"""Write tests/fixtures/conv_norm/: tf.nn.depthwise_conv2d and tf.nn.lrn from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_conv_norm_fixtures.py`.
The graphs are tests/engine/conv_norm_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__out<i>`, `<case>__loss` and
`<case>__grad<j>` (j: 0 x, 1 f); shapes.json per case the outputs' static shapes;
nodes.json.gz per case the graph's nodes ([name, op, inputs], in order: the ops, the loss
and its gradients); errors.json per error case TensorFlow's error class and the kernel's
message (the line after "Node: ..." in the message TensorFlow 2's session gives).
"""

import gzip
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "conv_norm"
sys.path.insert(0, str(ROOT / "tests" / "engine"))

import numpy as np  # noqa: E402

import conv_norm_cases as cases  # noqa: E402


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    OUT.mkdir(parents=True, exist_ok=True)
    values, shapes, nodes = {}, {}, {}
    for name in cases.CASES:
        case_values, shapes[name] = cases.run_case(tf, name)
        values.update({f"{name}__{key}": np.asarray(v) for key, v in case_values.items()})
        with tf.Graph().as_default() as graph:
            cases.build_case(tf, name)
        nodes[name] = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    np.savez_compressed(OUT / "values.npz", **values)
    lines = [f"{json.dumps(name)}: {json.dumps(value)}" for name, value in shapes.items()]
    (OUT / "shapes.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    lines = [f"{json.dumps(name)}: [\n" + ",\n".join(json.dumps(n) for n in case) + "]"
             for name, case in nodes.items()]
    # gzip (no timestamp, so the bytes repeat), as tests/fixtures/functional's.
    text = ("{\n" + ",\n".join(lines) + "\n}\n").encode()
    (OUT / "nodes.json.gz").write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    errors = {}
    for name in cases.ERROR_CASES:
        errors[name] = list(cases.run_error_case(tf, name))
    (OUT / "errors.json").write_text(json.dumps(errors, indent=0) + "\n")
    print(f"wrote {len(cases.CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
