"""A model exported as a SavedModel as TF 1.x programs did it, then loaded and served in a new graph:
SavedModelBuilder with two tagged meta graphs, signatures and a main op, simple_save, the text
format, loader.load by tags, and the errors a wrong tag or directory gives.

`saved_model_serving.py [DIR]` writes its SavedModels under DIR and keeps them (tools/ use it to
make fixtures and to check the engine's SavedModels in TensorFlow); without DIR, a temporary one.
"""

import os
import shutil
import sys
import tempfile

import numpy as np

import engine as tf

CONFIG = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
INPUTS = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0], [0.0, 0.0, 0.0]], np.float32)


def build():
    """A small classifier with a training step, a local counter and a main op."""
    tf.set_random_seed(11)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    with tf.variable_scope("dense"):
        weights = tf.get_variable("weights", [3, 4], initializer=tf.random_normal_initializer())
        biases = tf.get_variable("biases", [4], initializer=tf.constant_initializer(0.1))
    logits = tf.add(tf.matmul(x, weights), biases, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    classes = tf.argmax(logits, 1, name="classes")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    served = tf.Variable(7, name="served", trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES])
    return {"x": x, "labels": labels, "logits": logits, "probs": probs, "classes": classes,
            "loss": loss, "train": train, "served": served}


def export(root):
    """Train two steps, then write `builder` (serve + train meta graphs), `text` and `simple`."""
    with tf.Graph().as_default():
        model = build()
        with tf.Session(config=CONFIG) as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(model["train"], {model["x"]: INPUTS, model["labels"]: [0, 1, 2]})
            predict = tf.saved_model.signature_def_utils.predict_signature_def(
                inputs={"x": model["x"]}, outputs={"probs": model["probs"], "classes": model["classes"]})
            logits = tf.saved_model.signature_def_utils.build_signature_def(
                inputs={"features": tf.saved_model.utils.build_tensor_info(model["x"])},
                outputs={"logits": tf.saved_model.utils.build_tensor_info(model["logits"])},
                method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME)
            signatures = {tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict,
                          "logits": logits}
            for name, as_text in (("builder", False), ("text", True)):
                builder = tf.saved_model.builder.SavedModelBuilder(os.path.join(root, name))
                builder.add_meta_graph_and_variables(
                    sess, [tf.saved_model.tag_constants.SERVING], signature_def_map=signatures,
                    main_op=tf.local_variables_initializer() if name == "builder" else None)
                builder.add_meta_graph([tf.saved_model.tag_constants.TRAINING])
                builder.save(as_text=as_text)
            tf.saved_model.simple_save(sess, os.path.join(root, "simple"), inputs={"x": model["x"]},
                                       outputs={"probs": model["probs"]})
            print("trained probs", sess.run(model["probs"], {model["x"]: INPUTS}))
    with tf.Graph().as_default():  # main_op() would set the restored variables back to their initial values
        print("main_op", sorted(inp.name for inp in tf.saved_model.main_op.main_op().control_inputs))
    try:
        tf.saved_model.builder.SavedModelBuilder(os.path.join(root, "builder"))
    except AssertionError as error:
        print("AssertionError", str(error).replace(root, "<root>"))


def serve(root, name, tags):
    """Load a SavedModel into a new graph and run each of its signatures on INPUTS."""
    with tf.Graph().as_default():
        with tf.Session(config=CONFIG) as sess:
            meta = tf.saved_model.loader.load(sess, tags, os.path.join(root, name))
            print(name, "tags", list(meta.meta_info_def.tags), "signatures", sorted(meta.signature_def))
            for key in sorted(meta.signature_def):
                signature = meta.signature_def[key]
                feeds = {tf.saved_model.utils.get_tensor_from_tensor_info(info): INPUTS
                         for info in signature.inputs.values()}
                fetches = {out: signature.outputs[out].name for out in sorted(signature.outputs)}
                print(" ", key, signature.method_name, sess.run(fetches, feeds))
            local = tf.local_variables()
            print("  local", [(v.op.name, sess.run(v)) for v in local])


def errors(root):
    with tf.Graph().as_default(), tf.Session() as sess:
        for tags, directory in ((["gpu"], "builder"), ([], "builder"), (["serve"], "missing")):
            try:
                tf.saved_model.loader.load(sess, tags, os.path.join(root, directory))
            except (RuntimeError, OSError) as error:
                print(type(error).__name__, str(error).replace(root, "<root>"))
    try:
        tf.saved_model.signature_def_utils.predict_signature_def({}, {"y": None})
    except ValueError as error:
        print("ValueError", error)
    print("maybe", tf.saved_model.loader.maybe_saved_model_directory(os.path.join(root, "text")),
          tf.saved_model.loader.maybe_saved_model_directory(root))


def main(root):
    export(root)
    for name in ("builder", "text", "simple"):
        print(name, "files", sorted(os.path.relpath(os.path.join(d, f), os.path.join(root, name))
                                    for d, _, files in os.walk(os.path.join(root, name)) for f in files))
    serve(root, "builder", [tf.saved_model.tag_constants.SERVING])
    serve(root, "builder", [tf.saved_model.tag_constants.TRAINING])
    serve(root, "text", ["serve"])
    serve(root, "simple", [tf.saved_model.tag_constants.SERVING])
    errors(root)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1])
    else:
        temporary = tempfile.mkdtemp()
        try:
            main(temporary)
        finally:
            shutil.rmtree(temporary)
