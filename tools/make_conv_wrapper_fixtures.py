"""Write tests/fixtures/conv_wrappers/: tf.nn's convolution and pooling wrappers, relu_layer,
batch_norm_with_global_normalization and the distribution-aware loss scalings from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_conv_wrapper_fixtures.py`.
The graphs are tests/engine/conv_wrapper_cases.py's (values.npz, shapes.json, nodes.json.gz
and errors.json as tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import conv_wrapper_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "conv_wrappers"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
