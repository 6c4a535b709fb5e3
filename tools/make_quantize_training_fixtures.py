"""Write tests/fixtures/random_gen_math/quantize_training.json: TensorFlow's
tf.train.do_quantize_training_on_graphdef on small graphs (input and output GraphDefs as
base64 of their bytes, and its errors), and the values its rewritten graph computes.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_quantize_training_fixtures.py`.
"""

import base64
import json

import numpy as np

from fixture_common import FIXTURES, tf_v1

OUT = FIXTURES / "random_gen_math" / "quantize_training.json"
X = np.array([[0.5, -1.25, 2.0], [3.0, 0.75, -0.5]], np.float32)


def _matmul_with_saver(tf):
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.Variable(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4), name="w")
    tf.matmul(x, w, name="mm")
    tf.train.Saver()


def _activations(tf):
    x = tf.placeholder(tf.float32, [1, 4, 4, 2], name="x")
    kernel = tf.constant(np.ones((2, 2, 2, 3), np.float32), name="k")
    conv = tf.nn.conv2d(tf.nn.relu6(x), kernel, [1, 1, 1, 1], "SAME", name="conv")
    t = tf.tanh(tf.reshape(conv, [-1, 3]))
    tf.matmul(t, tf.ones([3, 2]), name="mm")
    tf.matmul(tf.identity(t), tf.ones([3, 1]), name="mm2")
    tf.matmul(tf.nn.relu(t), tf.sigmoid(tf.ones([3, 1])), name="mm3")


def _three_inputs(tf):
    a, b, c = (tf.placeholder(tf.float32, [2, 2], name=n) for n in "abc")
    tf.matmul(tf.matmul(a, b), c)


GRAPHS = {"matmul_with_saver": _matmul_with_saver, "activations": _activations,
          "three_inputs": _three_inputs}


def main():
    tf = tf_v1()
    out = {}
    for name, build in GRAPHS.items():
        with tf.Graph().as_default() as graph:
            build(tf)
        graph_def = graph.as_graph_def()
        case = {"input": base64.b64encode(graph_def.SerializeToString()).decode()}
        try:
            rewritten = tf.train.do_quantize_training_on_graphdef(graph_def, 8)
            case["output"] = base64.b64encode(rewritten.SerializeToString()).decode()
        except Exception as error:  # noqa: BLE001  (TensorFlow's class and words recorded)
            case["error"] = [type(error).__name__, str(error)]
        out[name] = case
    with tf.Graph().as_default() as graph:
        _matmul_with_saver(tf)
    rewritten = tf.train.do_quantize_training_on_graphdef(graph.as_graph_def(), 4)
    with tf.Graph().as_default():
        tf.import_graph_def(rewritten, name="")
        with tf.Session() as sess:
            sess.run("w/Assign")
            runs = [sess.run("mm:0", {"x:0": X * scale}).tolist() for scale in (1.0, 3.0)]
            ranges = sess.run(["x/Min/Variable:0", "x/Max/Variable:0"])
    out["run_4_bits"] = {"mm": runs, "x_range": [float(v) for v in ranges]}
    try:
        tf.train.do_quantize_training_on_graphdef(graph.as_graph_def(), 0)
    except Exception as error:  # noqa: BLE001
        out["bits_zero"] = [type(error).__name__, str(error)]
    OUT.write_text(json.dumps(out, indent=0) + "\n")


if __name__ == "__main__":
    main()
