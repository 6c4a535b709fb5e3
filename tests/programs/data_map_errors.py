"""Errors inside tf.data functions, as a TF 1.x input pipeline meets them: a bad record met by the
map function, a NaN caught by check_numerics, an index out of range in a filter or flat_map.

TensorFlow wraps such an error: "Error in user-defined function passed to MapDataset:N
transformation with iterator: Iterator::Root::...: <what the kernel said>", keeping its class.
N counts the datasets made in this process, so the pipelines run in a fixed order, one chain
each (no zip or concatenate, whose branches TensorFlow's thread pool may run in either order).
With the argument `interleave`, an interleave's error alone (its own process: see flat map).
"""

# fixture args interleave: interleave

import sys

import numpy as np

import engine as tf

CONFIG = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
TABLE = np.array([10, 20, 30], np.int64)


def lookup(x):
    """Stateless: TensorFlow runs such a map as ParallelMapV2."""
    return tf.gather(tf.constant(TABLE), x)


def checked(x):
    """Stateful (CheckNumerics): TensorFlow keeps such a map a plain Map."""
    return tf.debugging.check_numerics(10.0 / tf.cast(3 - x, tf.float32), "ratio")


def run(label, dataset, initializable=False, runs=1):
    with tf.Graph().as_default():
        if initializable:
            iterator = tf.data.make_initializable_iterator(dataset())
        else:
            iterator = tf.data.make_one_shot_iterator(dataset())
        next_element = iterator.get_next()
        with tf.Session(config=CONFIG) as sess:
            for _ in range(runs):
                if initializable:
                    sess.run(iterator.initializer)
                values = []
                try:
                    while True:
                        values.append(sess.run(next_element).tolist())
                except tf.errors.OpError as error:
                    # The kernel's words: the line before TensorFlow's [[{{node ...}}]] trailer.
                    lines = [line for line in error.message.splitlines()
                             if line and not line.startswith("\t")]
                    print(f"{label}: {values} then {type(error).__name__}: {lines[-1]}")


def main():
    numbers = lambda: tf.data.Dataset.range(5)  # noqa: E731
    run("map lookup", lambda: numbers().map(lookup))
    run("map checked", lambda: numbers().map(checked))
    run("map parallel", lambda: numbers().map(checked, num_parallel_calls=2))
    run("map then batch", lambda: numbers().map(lookup).batch(2))
    run("map take batch", lambda: numbers().map(checked).take(4).batch(2))
    run("shuffle repeat", lambda: numbers().map(lookup).shuffle(3, seed=4).repeat(2))
    run("repeat forever", lambda: numbers().map(checked).repeat())
    run("repeat twice", lambda: numbers().map(lookup).repeat(2).prefetch(1))
    run("take all", lambda: numbers().map(checked).take(-1).skip(0))
    run("skip take", lambda: numbers().map(checked).skip(1).take(3))
    run("filter", lambda: numbers().filter(lambda x: tf.equal(lookup(x) % 20, 0)))
    run("filter then map", lambda: numbers().filter(lambda x: x > 0).map(lookup))
    run("map map", lambda: numbers().map(lookup).map(lambda v: v // 10))
    run("cache", lambda: numbers().map(checked).cache())
    run("padded batch", lambda: numbers().map(lambda x: tf.fill([x], lookup(x))).padded_batch(2, [None]))
    run("initializable twice", lambda: numbers().map(lookup), initializable=True, runs=2)
    run("records", lambda: tf.data.Dataset.from_tensor_slices(np.array([b"a", b"b", b"bad", b"c"])).map(
        lambda s: lookup(tf.cast(tf.equal(s, "bad"), tf.int64) * 3)))
    # Last: after its error TensorFlow's prefetch thread may go on making the next elements'
    # datasets, which TensorFlow counts too.
    run("flat map", lambda: numbers().flat_map(lambda x: tf.data.Dataset.range(x).map(lambda y: lookup(x + y))))


def interleave_only():
    run("interleave", lambda: tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(2).map(checked), cycle_length=2))

if __name__ == "__main__":
    interleave_only() if sys.argv[1:] == ["interleave"] else main()
