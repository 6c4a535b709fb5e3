"""Write tests/fixtures/nms_padded/: tf.image.non_max_suppression_padded's cases of
tests/engine/nms_padded_cases.py, from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_nms_padded_fixtures.py`.
values.npz, shapes.json (and nodes.json.gz, errors.json, unused: TensorFlow's graph is a
function call) as tools/fixture_common.py's write_case_fixtures writes them;
python_errors.json the Python layer's errors.
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import nms_padded_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "nms_padded"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "nodes.json.gz").unlink()
    (OUT / "errors.json").unlink()
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")


if __name__ == "__main__":
    main()
