"""Write tests/fixtures/ops/reduce_order.npz: TensorFlow 2.21's float32 Sum and Mean over
innermost axes, Softmax and LogSoftmax, bit for bit (Eigen's order of additions, its exp,
log and reciprocal on the paths it takes: engine/kernels/cpu/eigen_reduce.py).

    .venv-tf/bin/python tools/make_reduce_order_fixtures.py [--check]

The inputs are seeded (tests/engine/reduce_order_cases.py makes them again in the test);
the file holds the sha256 of each output's bits (NaNs canonical) and the Sum and Mean
outputs' bits themselves (uint32). Each case runs at intra_op_parallelism_threads
1 and 2, and must give the same bits at both (the values do not depend on the threads).
Sum and Mean run with keep_dims both ways (the same values).

`--check` instead compares the engine's NumPy reference with TensorFlow on every case and
prints how many values differ (nothing is written). NaNs compare equal whatever their payload
(cases.canonical_bits): Eigen's plog makes 0xFFFFFFFF, which the engine does not reproduce.
"""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, tf_v1

import reduce_order_cases as cases

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "reduce_order.npz"


def tensorflow_outputs(tf, threads):
    """{key: float32 array}: sum__/mean__/softmax__/log_softmax__<case>."""
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        x = tf.placeholder(tf.float32)
        for name, (shape, axes) in cases.sum_cases().items():
            feed = {x: cases.sum_input(name, shape)}
            for op, fn in (("sum", tf.reduce_sum), ("mean", tf.reduce_mean)):
                kept, dropped = session.run([fn(x, list(axes), keepdims=True),
                                             fn(x, list(axes), keepdims=False)], feed)
                assert np.array_equal(kept.reshape(-1).view(np.uint32),
                                      dropped.reshape(-1).view(np.uint32)), (op, name)
                out[f"{op}__{name}"] = dropped
        for name, shape in cases.softmax_cases().items():
            feed = {x: cases.softmax_input(name, shape)}
            out.update({f"{op}__{name}": value for op, value in session.run(
                {"softmax": tf.nn.softmax(x), "log_softmax": tf.nn.log_softmax(x)},
                feed).items()})
    return out


def stored_form(outputs):
    """{"keys": names, "digests": [N, 32] uint8 sha256 of each output's bits} and, for the
    Sum and Mean outputs (a few values a case), "bits__<key>": their bits."""
    keys = sorted(outputs)
    stored = {"keys": np.array(keys),
              "digests": np.array([np.frombuffer(bytes.fromhex(cases.digest(outputs[key])),
                                                 np.uint8) for key in keys])}
    stored.update({f"bits__{key}": np.ascontiguousarray(outputs[key], np.float32)
                   .reshape(-1).view(np.uint32) for key in keys
                   if key.split("__")[0] in ("sum", "mean")})
    return stored


def reference(key):
    from engine.kernels.cpu import eigen_reduce
    op, name = key.split("__", 1)
    if op in ("sum", "mean"):
        shape, axes = cases.sum_cases()[name]
        x = cases.sum_input(name, shape)
        outer, inner = eigen_reduce.innermost(x, axes) or (0, 0)
        if outer == 0:
            return None
        rows = x.reshape(outer, inner)
        return eigen_reduce.row_sums(rows) if op == "sum" else eigen_reduce.row_means(rows)
    shape = cases.softmax_cases()[name]
    rows = cases.softmax_input(name, shape).reshape(-1, shape[-1])
    return (eigen_reduce.softmax if op == "softmax" else eigen_reduce.log_softmax)(rows)


def check(outputs):
    differing = 0
    for key, value in outputs.items():
        ours = reference(key)
        if ours is None:
            print(f"{key}: rows of one value (nothing to add): skipped")
            continue
        wrong = int(np.sum(cases.canonical_bits(ours).reshape(-1)
                           != cases.canonical_bits(value).reshape(-1)))
        differing += wrong > 0
        print(f"{key}: {wrong} of {value.size} differ")
    print(f"{differing} of {len(outputs)} cases differ")


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
        check(one)
        return
    np.savez_compressed(OUT, **stored_form(one))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
