"""Write tests/fixtures/crop_and_resize/: tf.image.crop_and_resize (CropAndResize and its
gradients CropAndResizeGradImage and CropAndResizeGradBoxes) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_crop_and_resize_fixtures.py`.
The graphs are tests/engine/crop_and_resize_cases.py's (values.npz, shapes.json,
nodes.json.gz and errors.json as tools/make_volumetric_fixtures.py describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import crop_and_resize_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "crop_and_resize"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
