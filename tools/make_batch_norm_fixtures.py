"""Write tests/fixtures/ops/batch_norm.npz: TensorFlow 2.21's FusedBatchNormV3 and
FusedBatchNormGradV3 on the CPU's Eigen path (TF_ENABLE_ONEDNN_OPTS=0, which oneDNN's own
kernels replace otherwise), bit for bit, on tests/engine/batch_norm_cases.py's seeded inputs,
at intra_op_parallelism_threads 1 and 2 (the same bits at both, checked).

    .venv-tf/bin/python tools/make_batch_norm_fixtures.py"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import batch_norm_cases as cases

OUT = FIXTURES / "ops" / "batch_norm.npz"


def outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    for name in cases.CASES:
        # Inputs are fed, not constants: Grappler would fold the ops at optimisation time.
        with tf.Graph().as_default(), tf.Session(config=config) as session:
            feeds = {}

            def fed(value):
                placeholder = tf.placeholder(value.dtype, value.shape)
                feeds[placeholder] = value
                return placeholder

            tensors = cases.build(lambda op, **kw: getattr(tf.raw_ops, op)(**kw), name, fed)
            if cases.grad_refused(name):
                try:
                    session.run(tensors[5], feeds)
                    raise AssertionError(f"{name}: TensorFlow ran the gradient")
                except tf.errors.InvalidArgumentError as error:
                    # the kernel's own line of the message (after "Graph execution error:"
                    # and the node's stack)
                    lines = [line for line in error.message.splitlines() if line
                             and not line.startswith((" ", "\t", "Graph execution error",
                                                      "Detected at node", "Node:"))]
                    out[f"{name}__grad_error"] = np.array(lines[0])
                tensors = tensors[:5]
            for key, value in zip(cases.OUTPUTS, session.run(tensors, feeds)):
                if key in cases.compared(name):
                    out[f"{name}__{key}"] = value
    return out


def main():
    tf = tf_v1()
    one, two = outputs(tf, 1), outputs(tf, 2)
    for key in one:
        assert one[key].tobytes() == two[key].tobytes(), key
    np.savez_compressed(OUT, **one)
    print(f"{len(cases.CASES)} cases, the same bits at 1 and 2 threads; wrote {OUT} "
          f"({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
