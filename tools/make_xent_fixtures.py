"""Write tests/fixtures/ops/sparse_xent.npz: TensorFlow 2.21's float32
SparseSoftmaxCrossEntropyWithLogits and SoftmaxCrossEntropyWithLogits (loss and backprop) bit
for bit, on the logits of
tests/engine/reduce_order_cases.py's Softmax cases (the same row lengths: every part of
Eigen's reducer and exp's packet and scalar paths) with seeded labels
and, for the dense op, probability or one-hot labels (engine/kernels/cpu/eigen_reduce.py,
sparse_softmax_cross_entropy and softmax_cross_entropy, say what TensorFlow computes).

    .venv-tf/bin/python tools/make_xent_fixtures.py [--check]

The file holds the sha256 of each output's bits (NaNs canonical). Each case runs at
intra_op_parallelism_threads 1 and 2 and must give the same bits at both. `--check` instead
compares the engine's kernel with TensorFlow case by case (nothing is written)."""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, tf_v1

import reduce_order_cases as cases

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "sparse_xent.npz"


def tensorflow_outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        x, y = tf.placeholder(tf.float32), tf.placeholder(tf.int64)
        loss, backprop = tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=x, labels=y)
        for name, (logits, labels) in cases.xent_cases().items():
            out[f"loss__{name}"], out[f"backprop__{name}"] = session.run(
                [loss, backprop], {x: logits, y: labels})
        z = tf.placeholder(tf.float32)
        loss, backprop = tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=x, labels=z)
        for name, (logits, labels) in cases.dense_xent_cases().items():
            out[f"dense_loss__{name}"], out[f"dense_backprop__{name}"] = session.run(
                [loss, backprop], {x: logits, z: labels})
    return out


def engine_output(key):
    from engine.kernels.cpu import eigen_reduce
    what, name = key.split("__", 1)
    if what.startswith("dense_"):
        loss, backprop = eigen_reduce.softmax_cross_entropy(*cases.dense_xent_cases()[name])
    else:
        loss, backprop = eigen_reduce.sparse_softmax_cross_entropy(*cases.xent_cases()[name])
    return loss if what.endswith("loss") else backprop


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    tf = tf_v1()
    one, two = tensorflow_outputs(tf, 1), tensorflow_outputs(tf, 2)
    for key in one:
        assert np.array_equal(one[key].view(np.uint32), two[key].view(np.uint32)), key
    print(f"{len(one)} outputs, the same bits at 1 and 2 intra-op threads")
    if args.check:
        differing = 0
        for key, value in one.items():
            ours = engine_output(key)
            wrong = int(np.sum(cases.canonical_bits(ours).reshape(-1)
                               != cases.canonical_bits(value).reshape(-1)))
            differing += wrong > 0
            if wrong:
                print(f"{key}: {wrong} of {value.size} differ")
        print(f"{differing} of {len(one)} outputs differ")
        return
    keys = sorted(one)
    np.savez_compressed(OUT, keys=np.array(keys), digests=np.array(
        [np.frombuffer(bytes.fromhex(cases.digest(one[key])), np.uint8) for key in keys]))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
