"""Write tests/fixtures/image/: tf.image, tf.random_crop and tf.nn.depth_to_space /
space_to_depth from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_image_fixtures.py`.
The graphs are tests/engine/image_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__out<i>`, `<case>__loss` and
`<case>__grad0` (the gradient with respect to x, where the case is differentiable);
shapes.json per case the outputs' static shapes; nodes.json.gz per case the graph's nodes
([name, op, inputs], in order: the ops, the loss and its gradients); errors.json per error
case TensorFlow's error class and the kernel's message.
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import image_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "image"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
