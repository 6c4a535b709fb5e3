"""Vocabulary remapping programs for TensorFlow (tools/make_vocab_remap_fixtures.py) and the
engine (test_vocab_remap.py): the ops themselves and tf.train.warm_start with VocabInfo."""

import os

import numpy as np

OLD_VOCAB = ["apple", "banana", "cherry", "date"]
NEW_VOCAB = ["date", "fig", "banana", "apple", "grape"]
OLD_CLASSES = ["neg", "pos"]
NEW_CLASSES = ["pos", "neutral", "neg"]


def write_inputs(tf, directory):
    """Vocabulary files and a TF1 checkpoint `old/model.ckpt` of emb [4, 3], dense [3, 2],
    bias [2]; the checkpoint is saved by the caller's framework."""
    for name, words in (("old_vocab.txt", OLD_VOCAB), ("new_vocab.txt", NEW_VOCAB),
                        ("old_classes.txt", OLD_CLASSES), ("new_classes.txt", NEW_CLASSES)):
        with open(os.path.join(directory, name), "w") as f:
            f.write("".join(word + "\n" for word in words))
    with tf.Graph().as_default():
        tf.get_variable("emb", initializer=tf.constant(
            np.arange(12, dtype=np.float32).reshape(4, 3) + 1))
        tf.get_variable("dense", initializer=tf.constant(
            np.arange(6, dtype=np.float32).reshape(3, 2) * 10))
        tf.get_variable("other", initializer=tf.constant([7.0, 8.0]))
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            tf.train.Saver().save(session, os.path.join(directory, "old", "model.ckpt"))


def op_cases(tf, raw, directory):
    """{case: values or (error class, message)}: GenerateVocabRemapping and
    LoadAndRemapMatrix run through tf.raw_ops (`raw`)."""
    old, new = os.path.join(directory, "old_vocab.txt"), os.path.join(directory, "new_vocab.txt")
    ckpt = os.path.join(directory, "old", "model.ckpt")
    cases = {
        "remap_all": lambda: raw.GenerateVocabRemapping(
            new_vocab_file=new, old_vocab_file=old, new_vocab_offset=0, num_new_vocab=5),
        "remap_offset": lambda: raw.GenerateVocabRemapping(
            new_vocab_file=new, old_vocab_file=old, new_vocab_offset=1, num_new_vocab=3),
        "remap_old_size": lambda: raw.GenerateVocabRemapping(
            new_vocab_file=new, old_vocab_file=old, new_vocab_offset=0, num_new_vocab=5,
            old_vocab_size=2),
        "remap_past_end": lambda: raw.GenerateVocabRemapping(
            new_vocab_file=new, old_vocab_file=old, new_vocab_offset=3, num_new_vocab=5),
        "load": lambda: raw.LoadAndRemapMatrix(
            ckpt_path=ckpt, old_tensor_name="emb",
            row_remapping=tf.constant([3, -1, 1, 0], tf.int64),
            col_remapping=tf.constant([2, -1], tf.int64),
            initializing_values=tf.constant([100.0, 101, 102, 103, 104]), num_rows=4,
            num_cols=2),
        "load_all_columns": lambda: raw.LoadAndRemapMatrix(
            ckpt_path=ckpt, old_tensor_name="emb",
            row_remapping=tf.constant([2, -1], tf.int64),
            col_remapping=tf.constant([], tf.int64),
            initializing_values=tf.constant([-1.0, -2, -3]), num_rows=2, num_cols=3),
        "too_few_values": lambda: raw.LoadAndRemapMatrix(
            ckpt_path=ckpt, old_tensor_name="emb",
            row_remapping=tf.constant([3, -1, 1, 0], tf.int64),
            col_remapping=tf.constant([2, -1], tf.int64),
            initializing_values=tf.constant([1.0]), num_rows=4, num_cols=2),
        "too_many_values": lambda: raw.LoadAndRemapMatrix(
            ckpt_path=ckpt, old_tensor_name="emb",
            row_remapping=tf.constant([0, 1], tf.int64),
            col_remapping=tf.constant([], tf.int64),
            initializing_values=tf.constant([1.0]), num_rows=2, num_cols=3),
        "row_out_of_range": lambda: raw.LoadAndRemapMatrix(
            ckpt_path=ckpt, old_tensor_name="emb",
            row_remapping=tf.constant([7, 0], tf.int64),
            col_remapping=tf.constant([], tf.int64),
            initializing_values=tf.constant([], tf.float32), num_rows=2, num_cols=3),
    }
    results = {}
    for name, build in cases.items():
        with tf.Graph().as_default():
            outputs = build()
            outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
            shapes = [t.shape.as_list() for t in outputs]
            with tf.Session() as session:
                try:
                    values = [np.asarray(v).tolist() for v in session.run(outputs)]
                    results[name] = {"values": values, "shapes": shapes}
                except tf.errors.OpError as error:
                    message = error.message
                    if "Graph execution error" in message:  # TensorFlow's wrapping
                        message = message.split("\n")[-2]
                    results[name] = {"error": [type(error).__name__, message],
                                     "shapes": shapes}
    return results


def warm_start_case(tf, directory):
    """warm_start with VocabInfo for rows (with OOV buckets and a backup initializer, on a
    partitioned variable), for columns, and plainly for the rest; returns values and the ops
    the warm start added."""
    old, new = os.path.join(directory, "old_vocab.txt"), os.path.join(directory, "new_vocab.txt")
    old_classes = os.path.join(directory, "old_classes.txt")
    new_classes = os.path.join(directory, "new_classes.txt")
    with tf.Graph().as_default() as graph:
        emb = tf.get_variable("emb", shape=[6, 3], initializer=tf.zeros_initializer(),
                              partitioner=tf.fixed_size_partitioner(2))
        dense = tf.get_variable("dense", shape=[3, 3], initializer=tf.zeros_initializer())
        other = tf.get_variable("other", shape=[2], initializer=tf.zeros_initializer())
        before = len(graph.get_operations())
        tf.train.warm_start(
            os.path.join(directory, "old"), vars_to_warm_start=".*",
            var_name_to_vocab_info={
                "emb": tf.train.VocabInfo(new_vocab=new, new_vocab_size=5, num_oov_buckets=1,
                                          old_vocab=old,
                                          backup_initializer=tf.ones_initializer()),
                "dense": tf.train.VocabInfo(new_vocab=new_classes, new_vocab_size=3,
                                            num_oov_buckets=0, old_vocab=old_classes,
                                            axis=1)})
        ops = [[op.name, op.type] for op in graph.get_operations()[before:]]
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            values = {"emb": np.asarray(session.run(tf.convert_to_tensor(emb))).tolist(),
                      "dense": session.run(dense).tolist(), "other": session.run(other).tolist()}
    return {"values": values, "ops": ops}
