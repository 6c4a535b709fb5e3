"""tf.gather on resource variables (ResourceGather) built the same way by TensorFlow and the
engine: rows by int32 and int64 indices, a batch dimension, the sparse gradient an optimizer
applies (CASES, run by layers_cases.run_case: the variables after the step too), and the
kernel's errors (ERRORS). Fixtures in tests/fixtures/resource_gather/
(tools/make_resource_gather_fixtures.py)."""

import numpy as np

TABLE = (np.arange(24, dtype=np.float32).reshape(4, 6) - 10.0) / 7.0


def build_gather_and_train(tf):
    table = tf.Variable(TABLE, use_resource=True, name="table")
    rows = tf.gather(table, tf.constant([[3, 0], [1, 3]], tf.int32))
    wide = tf.gather(table, tf.constant([2, 2], tf.int64))
    loss = tf.reduce_sum(rows * rows) + tf.reduce_sum(tf.sin(wide))
    step = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
    grad = tf.convert_to_tensor(tf.gradients(loss, table)[0])
    return {"rows": rows, "wide": wide, "loss": loss, "grad:table": grad}, {}, [step]


def build_batch_dims(tf):
    table = tf.Variable(TABLE, use_resource=True, name="table")
    picked = tf.raw_ops.ResourceGather(resource=table.handle, dtype=tf.float32,
                                       indices=tf.constant([[1, 5], [5, 0], [0, 0], [2, 3]]),
                                       batch_dims=1)
    return {"picked": picked,
            "shape": tf.raw_ops.VariableShape(input=table.handle, out_type=tf.int64)}, {}, []


CASES = {"gather_and_train": build_gather_and_train, "batch_dims": build_batch_dims}


def _table(tf):
    table = tf.Variable(TABLE, use_resource=True, name="table")
    return table


ERRORS = {
    "index_out_of_range": lambda tf: tf.gather(
        _table(tf), tf.placeholder_with_default(tf.constant([[0, 4]]), None)),
    "negative_index": lambda tf: tf.gather(
        _table(tf), tf.placeholder_with_default(tf.constant([-1], tf.int64), None)),
    "uninitialized": lambda tf: tf.raw_ops.ResourceGather(
        resource=tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="nothing"),
        indices=[0], dtype=tf.float32),
}


def run_error(tf, name):
    """(error class name, the kernel's message line); the variable initialized first."""
    with tf.Graph().as_default():
        fetch = ERRORS[name](tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1]]
    return ["no error", ""]
