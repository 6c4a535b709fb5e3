"""A conv-net training step traced with FULL_TRACE, its RunMetadata written to a file; the same
program on TensorFlow or on the engine, for `graph-inspector diff --stats TF.pb ENGINE.pb`.

  engine:      .venv/bin/python tools/traced_convnet.py -o engine.pb
  TensorFlow:  PYTHONPATH=tools/tf_shim .venv-tf/bin/python tools/traced_convnet.py -o tf.pb

bench/convnet_program.py's net, the mean of ten traced steps after twenty untraced ones:
  .venv/bin/python tools/traced_convnet.py --size bench --warmup 20 --runs 10 -o engine_runs
  PYTHONPATH=tools/tf_shim .venv-tf/bin/python tools/traced_convnet.py --size bench \
      --warmup 20 --runs 10 -o tf_runs
  graph-inspector diff --stats tf_runs engine_runs

`--size small` is tests/fixtures/runs' program (2 images of 6x6: a small file); `--size bench`
is bench/convnet_program.py's (32 images of 16x16, two conv layers, Adam). The traced step
comes after --warmup untraced ones, so neither side is timed compiling or allocating.
"""

import argparse

import numpy as np

import engine as tf

SIZES = {  # batch, image side, conv filters, dense units, optimizer
    "small": (2, 6, (2,), 3, "sgd"),
    "bench": (32, 16, (8, 16), 64, "adam"),
}


def build(size):
    batch, side, filters, units, optimizer = SIZES[size]
    tf.set_random_seed(1)
    images = tf.placeholder(tf.float32, [None, side, side, 1], name="images")
    labels = tf.placeholder(tf.float32, [None, 10], name="labels")
    net, channels = images, 1
    for layer, count in enumerate(filters):
        with tf.name_scope(f"conv{layer}"):
            kernel = tf.Variable(tf.truncated_normal([3, 3, channels, count], stddev=0.3,
                                                     seed=layer + 1), name="kernel")
            bias = tf.Variable(tf.constant(0.1, shape=[count]), name="bias")
            net = tf.nn.relu(tf.nn.conv2d(net, kernel, [1, 1, 1, 1], "SAME") + bias)
            net = tf.nn.max_pool(net, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        side, channels = side // 2, count
    with tf.name_scope("dense"):
        flat = tf.reshape(net, [-1, side * side * channels])
        weights = tf.Variable(tf.truncated_normal([side * side * channels, units], stddev=0.3,
                                                  seed=7), name="weights")
        hidden = tf.nn.relu(tf.matmul(flat, weights))
        out = tf.Variable(tf.truncated_normal([units, 10], stddev=0.3, seed=8), name="out")
        logits = tf.matmul(hidden, out)
    loss = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits), name="loss")
    if optimizer == "adam":
        train = tf.train.AdamOptimizer(1e-3).minimize(loss, name="train")
    else:
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    rng = np.random.RandomState(0)
    feed = {images: rng.uniform(0, 1, (batch, SIZES[size][1], SIZES[size][1], 1)).astype(np.float32),
            labels: np.eye(10, dtype=np.float32)[rng.randint(0, 10, batch)]}
    return loss, train, feed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True,
                        help="the RunMetadata file to write; with --runs N, an events directory")
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--warmup", type=int, default=5, help="untraced steps first")
    parser.add_argument("--runs", type=int, default=1,
                        help="traced steps: more than one are written as tagged run metadata of"
                             " an events file in the directory -o names (diff --stats takes"
                             " their mean, steadier than one step)")
    args = parser.parse_args()
    loss, train, feed = build(args.size)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(args.warmup):
            sess.run([loss, train], feed)
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
        writer = tf.summary.FileWriter(args.output) if args.runs > 1 else None
        for step in range(args.runs):
            metadata = tf.RunMetadata()
            value, _ = sess.run([loss, train], feed, options=options, run_metadata=metadata)
            if writer is not None:
                writer.add_run_metadata(metadata, f"step {step}")
    if writer is not None:
        writer.close()
    else:
        with open(args.output, "wb") as f:
            f.write(metadata.SerializeToString())
    print(f"loss {value:.4f}; wrote {args.output}: {args.runs} traced step(s)")


if __name__ == "__main__":
    main()
