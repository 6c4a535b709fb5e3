"""Fuzz cases that read through the engine's TF1 API instead of the command line: TFRecords
by tf_record_iterator, TFRecordDataset and TFRecordReader, checkpoints by CheckpointReader.

`read(how, path)` -> (exit status, stderr): 0 and "" when the file reads; 2 and one
`error: <class>: <message>` line when it fails with an error TensorFlow raises (an OpError,
or the IndexError its CheckpointReader gives an out-of-range read). Anything else (a Python
error leaking, a MemoryError) propagates, for the worker to report as a crash.
"""

import engine as tf

HOW = ("engine:iterator", "engine:dataset", "engine:reader", "engine:checkpoint")


def _iterator(path):
    for _ in tf.python_io.tf_record_iterator(path):
        pass


def _dataset(path):
    with tf.Graph().as_default():
        next_record = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(path)).get_next()
        with tf.Session() as sess:
            try:
                while True:
                    sess.run(next_record)
            except tf.errors.OutOfRangeError:
                pass


def _reader(path):
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(1, tf.string)
        enqueue, close = queue.enqueue([path]), queue.close()
        _, value = tf.TFRecordReader().read(queue)
        with tf.Session() as sess:
            sess.run(enqueue)
            sess.run(close)
            try:
                while True:
                    sess.run(value)
            except tf.errors.OutOfRangeError:
                pass


def _checkpoint(path):
    reader = tf.train.load_checkpoint(path)
    for name in reader.get_variable_to_shape_map():
        reader.get_tensor(name)


_READS = {"engine:iterator": _iterator, "engine:dataset": _dataset, "engine:reader": _reader,
          "engine:checkpoint": _checkpoint}


def _tensorflows(how, error):
    """Whether a Python error is one TensorFlow raises here too."""
    if how != "engine:checkpoint":
        return False
    if isinstance(error, IndexError):  # its binding's word for an out-of-range read
        return str(error) == "Read less bytes than requested"
    if isinstance(error, UnicodeDecodeError):  # a state file that is no UTF-8 (TensorFlow 2.21)
        return True
    return str(error).startswith(("Couldn't find 'checkpoint' file",  # load_checkpoint(dir)
                                  "Invalid checkpoint state loaded from "))


def read(how, path):
    try:
        _READS[how](path)
    except (tf.errors.OpError, IndexError, ValueError) as error:
        if not isinstance(error, tf.errors.OpError) and not _tensorflows(how, error):
            raise
        message = " ".join(str(getattr(error, "message", error)).split())
        return 2, f"error: {type(error).__name__}: {message[:500]}\n"
    return 0, ""
