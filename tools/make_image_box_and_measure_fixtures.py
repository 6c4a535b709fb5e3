"""Write tests/fixtures/image_box_and_measure/: tf.image's YIQ/YUV, SSIM, MS-SSIM,
resize_image_with_pad, draw_bounding_boxes and the non-max suppressions with scores and
overlaps, from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_image_box_and_measure_fixtures.py`.
The graphs are tests/engine/image_box_and_measure_cases.py's; the files are
tools/make_image_fixtures.py's (values.npz, shapes.json, nodes.json.gz, errors.json).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import image_box_and_measure_cases as cases  # tests/engine: on sys.path through fixture_common


def main():
    write_case_fixtures(tf_v1(), cases, FIXTURES / "image_box_and_measure")


if __name__ == "__main__":
    main()
