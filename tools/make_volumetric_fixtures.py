"""Write tests/fixtures/volumetric/: tf.nn.conv3d, max_pool3d and avg_pool3d (Conv3D,
MaxPool3D, AvgPool3D and their gradients) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_volumetric_fixtures.py`.
The graphs are tests/engine/volumetric_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__out<i>`, `<case>__loss` and
`<case>__grad0` (the gradient with respect to x, where the case is differentiable);
shapes.json per case the outputs' static shapes; nodes.json.gz per case the graph's nodes
([name, op, inputs], in order: the ops, the loss and its gradients); errors.json per error
case TensorFlow's error class and the kernel's message.
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import volumetric_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "volumetric"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
