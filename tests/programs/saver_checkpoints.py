"""tf.train.Saver as TF 1.x programs used it: global_step in the name, max_to_keep, latest_checkpoint,
restore, var_list as a dict, sharded saves across two devices, import_meta_graph."""

import os
import shutil
import sys
import tempfile

import numpy as np

import engine as tf

CONFIG = tf.ConfigProto(device_count={"CPU": 2}, inter_op_parallelism_threads=1,
                        intra_op_parallelism_threads=1)


def build(sharded=False):
    """Variables of several dtypes on two devices, a training step, and the Saver."""
    tf.set_random_seed(3)
    with tf.device("/cpu:0"):
        kernel = tf.Variable(tf.random_normal([3, 2]), name="dense/kernel")
        bias = tf.Variable(tf.zeros([2]), name="dense/bias")
        vocab = tf.Variable(np.array([b"alpha", b"beta", b""], dtype=object), name="vocab")
    with tf.device("/cpu:1"):
        counts = tf.Variable(np.array([1, 2, 3], np.int64), name="counts")
        scale = tf.Variable(np.float64(0.5), name="scale")
    step = tf.train.get_or_create_global_step()
    train = tf.group(tf.assign_add(kernel, tf.fill([3, 2], 0.25)), tf.assign_add(bias, [1.0, -1.0]),
                     tf.assign_add(counts, [1, 1, 1]), tf.assign_add(step, 1), name="train")
    saver = tf.train.Saver(max_to_keep=2, sharded=sharded)
    return {"variables": [kernel, bias, vocab, counts, scale, step], "train": train, "step": step,
            "saver": saver}


def train_and_save(directory, sharded):
    with tf.Graph().as_default():
        parts = build(sharded)
        with tf.Session(config=CONFIG) as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(parts["train"])
                saved = parts["saver"].save(sess, os.path.join(directory, "model.ckpt"),
                                            global_step=parts["step"])
                print("saved", os.path.basename(saved))
            trained = sess.run(parts["variables"])
            print("files", sorted(os.listdir(directory)))
            state = tf.train.get_checkpoint_state(directory)
            print("kept", [os.path.basename(p) for p in state.all_model_checkpoint_paths])
            sess.run(tf.global_variables_initializer())
            parts["saver"].restore(sess, tf.train.latest_checkpoint(directory))
            restored = sess.run(parts["variables"])
            print("restored equal", all(np.array_equal(a, b) for a, b in zip(trained, restored)))
            print("restored", restored)


def restore_by_dict(latest):
    with tf.Graph().as_default():
        other = tf.Variable(tf.zeros([3, 2]), name="other")
        saver = tf.train.Saver({"dense/kernel": other})
        with tf.Session(config=CONFIG) as sess:
            saver.restore(sess, latest)
            print("dict", sess.run(other))


def restore_imported(latest):
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(latest + ".meta")
        with tf.Session(config=CONFIG) as sess:
            saver.restore(sess, latest)
            for variable in tf.global_variables():
                print("imported", variable.op.name, sess.run(variable))


def main():
    root = tempfile.mkdtemp()
    try:
        for sharded in (False, True):
            print("sharded", sharded)
            directory = os.path.join(root, f"sharded_{sharded}")
            os.makedirs(directory)
            train_and_save(directory, sharded)
            latest = tf.train.latest_checkpoint(directory)
            restore_by_dict(latest)
            restore_imported(latest)
        print("missing", tf.train.latest_checkpoint(os.path.join(root, "nothing")))
    finally:
        shutil.rmtree(root)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
