"""Write tests/fixtures/ops/grouped_conv.npz: TensorFlow 2.21's grouped Conv2D (input depth a
multiple of the filter's; CPU's LaunchGrouped) values and its kernels' errors for grouped
inputs (tests/engine/grouped_conv_cases.py).

    .venv-tf/bin/python tools/make_grouped_conv_fixtures.py

Keys: `value__<case>` the output; `error__<case>` [error class, kernel message].
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import grouped_conv_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ops" / "grouped_conv.npz"


def main():
    tf = tf_v1()
    from tensorflow.core.protobuf import rewriter_config_pb2
    # No remapping: TensorFlow's _FusedConv2D refuses groups (grouped_conv_cases' doc).
    config = tf.ConfigProto(graph_options=tf.GraphOptions(rewrite_options=rewriter_config_pb2
                                                          .RewriterConfig(remapping=2)))
    stored = {f"value__{name}": cases.run_value_case(tf, name, config)
              for name in cases.VALUE_CASES}
    stored.update({f"error__{name}": np.array(cases.run_error_case(tf, name))
                   for name in cases.ERROR_CASES})
    np.savez_compressed(OUT, **stored)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(stored)} arrays)")


if __name__ == "__main__":
    main()
