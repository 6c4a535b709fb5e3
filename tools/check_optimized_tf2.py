"""Run what `graph-inspector optimize` wrote for a TF2 SavedModel fixture with TensorFlow 2.21 and
check it gives TensorFlow's outputs: the optimized function bodies, written back into the
library, are valid FunctionDefs that compute the same.

    .venv/bin/graph-inspector optimize tests/fixtures/tf2/keras_cnn -o /tmp/keras_cnn.pb
    .venv-tf/bin/python tools/check_optimized_tf2.py keras_cnn /tmp/keras_cnn.pb

The written GraphDef is imported as it is; its restore function (itself optimized) restores the
SavedModel's variables and its init op fills the tables, as the SavedModel loader would; each
signature of reference/<model>/run_metadata.json is run on the inputs of expected.npz.
"""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

TF2 = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tf2"


def check(model, graph_path):
    v1 = tf.compat.v1
    expected = np.load(TF2 / "reference" / model / "expected.npz")
    manifest = json.loads((TF2 / "reference" / model / "run_metadata.json").read_text())
    graph_def = v1.GraphDef.FromString(Path(graph_path).read_bytes())
    failures = 0
    for key, run in manifest.items():
        if key == "train":
            continue  # it changes the variables; predict reads the same ones
        with tf.Graph().as_default() as graph, v1.Session(graph=graph) as sess:
            tf.import_graph_def(graph_def, name="")
            restore = [op for op in graph.get_operations() if op.type == "StatefulPartitionedCall"
                       and "traced_restore" in op.get_attr("f").name]
            prefix = str(TF2 / model / "variables" / "variables")
            for op in restore:
                sess.run(op, {graph.get_tensor_by_name("saver_filename:0"): prefix})
            sess.run(graph.get_operation_by_name("NoOp"))  # __saved_model_init_op: tables
            values = sess.run(list(run["fetches"]), {name: expected[ref] for name, ref in run["feeds"].items()})
            for (name, ref), value in zip(run["fetches"].items(), values):
                same = np.allclose(value, expected[ref], rtol=1e-5, atol=1e-6)
                failures += not same
                print(f"{model} {key} {name}: {'same as TensorFlow' if same else 'DIFFERENT'}")
    return failures


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(1 if check(sys.argv[1], sys.argv[2]) else 0)
