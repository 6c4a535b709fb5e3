"""A TF2 SavedModel's signature run in a TF1 session, for the debugger tests: while_scalar's
loop (tests/fixtures/tf2/while_scalar) sums over x, doubling what is positive (a tf.cond in
the loop body); the call is inlined and the loop lowered, so its body's nodes are steps."""

from pathlib import Path

import numpy as np

import engine as tf

MODEL = Path(__file__).resolve().parents[2] / "fixtures" / "tf2" / "while_scalar"

with tf.Graph().as_default() as graph, tf.Session(graph=graph) as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], str(MODEL))
    signature = meta.signature_def["serving_default"]
    total = sess.run(signature.outputs["total"].name,
                     {signature.inputs["x"].name: np.array([1.5, -2.0, 0.25], np.float32)})
    print("total =", total)
