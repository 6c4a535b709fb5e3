"""Write tests/fixtures/ops/bias_add_grad.npz: TensorFlow 2.21's channels-last BiasAddGrad,
float32 and float64, bit for bit (each channel's rows added one after another in the input's
dtype, from zero: engine/kernels/cpu/grad.py), on tests/engine/bias_grad_cases.py's seeded
inputs, at intra_op_parallelism_threads 1 and 2 (the same bits at both, checked).

    .venv-tf/bin/python tools/make_bias_grad_fixtures.py"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import bias_grad_cases as cases

OUT = FIXTURES / "ops" / "bias_add_grad.npz"


def outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        for name, (shape, dtype) in cases.cases().items():
            x = tf.placeholder(dtype)
            out[name] = session.run(tf.raw_ops.BiasAddGrad(out_backprop=x),
                                    {x: cases.case_input(name)})
    return out


def main():
    tf = tf_v1()
    one, two = outputs(tf, 1), outputs(tf, 2)
    for name in one:
        assert one[name].tobytes() == two[name].tobytes(), name
    np.savez_compressed(OUT, **one)
    print(f"{len(one)} cases, the same bits at 1 and 2 threads; wrote {OUT} "
          f"({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
