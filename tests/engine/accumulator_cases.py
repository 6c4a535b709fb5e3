"""One script of tf.ConditionalAccumulator uses, replayed on TensorFlow (tools/
make_accumulator_fixtures.py) and on the engine (tests/engine/test_accumulators.py): each
entry of what `replay` returns is what a run gave, or the error class and message it raised.
"""

import numpy as np


def kernel_message(message):
    """The kernel's own words in a session's error message (TensorFlow 2.x puts them on the
    line after "Node: ...", under "Graph execution error:")."""
    lines = message.splitlines()
    after_node = [line for before, line in zip(lines, lines[1:]) if before.startswith("Node: ")]
    return (after_node or lines)[0]


def replay(tf):
    graph = tf.Graph()
    with graph.as_default():
        acc = tf.ConditionalAccumulator(tf.float32, shape=[2], shared_name="acc")
        summed = tf.ConditionalAccumulator(tf.float64, shape=[None], reduction_type="SUM")
        grad = tf.placeholder(tf.float32, [None])
        step = tf.placeholder(tf.int64, [])
        apply = acc.apply_grad(grad, local_step=step)
        take = acc.take_grad(2)
        take_zero = acc.take_grad(0)
        count = acc.num_accumulated()
        set_step = acc.set_global_step(step)
        apply_sum = summed.apply_grad(tf.constant([1.5, 2.5, 3.5], tf.float64), local_step=0)
        take_sum = summed.take_grad(2)
        names = [acc.name, acc.accumulator_ref.op.name, count.op.name, take.op.type,
                 str(take.shape), str(take_sum.shape), acc.dtype.name]
        log = {"names": names}
        with tf.Session() as sess:
            def run(label, fetch, feed=None):
                try:
                    value = sess.run(fetch, feed)
                    log[label] = value.tolist() if isinstance(value, np.ndarray) else \
                        None if value is None else value.item() if hasattr(value, "item") \
                        else value
                except tf.errors.OpError as error:
                    log[label] = [type(error).__name__, kernel_message(error.message)]
            run("count_empty", count)
            run("apply_a", apply, {grad: [1.0, 2.0], step: 0})
            run("apply_b", apply, {grad: [3.0, 5.0], step: 4})
            run("count_two", count)
            run("take_mean", take)
            run("count_after_take", count)
            run("apply_stale", apply, {grad: [100.0, 100.0], step: 0})
            run("count_after_stale", count)
            run("apply_current", apply, {grad: [0.5, 0.25], step: 1})
            run("apply_later", apply, {grad: [1.5, 0.75], step: 9})
            run("take_second", take)
            run("set_step_back", set_step, {step: 0})
            run("apply_after_set_back", apply, {grad: [2.0, 4.0], step: 0})
            run("count_after_set_back", count)
            run("set_step_ahead", set_step, {step: 7})
            run("apply_older_than_set", apply, {grad: [2.0, 4.0], step: 6})
            run("count_after_older", count)
            run("apply_wrong_shape", apply, {grad: [1.0, 2.0, 3.0], step: 7})
            run("take_zero", take_zero)
            run("apply_sum_1", apply_sum)
            run("apply_sum_2", apply_sum)
            run("take_sum", take_sum)
    return log
