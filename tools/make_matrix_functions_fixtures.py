"""Write tests/fixtures/matrix_functions/: tf.linalg.pinv, expm, lu and lu_solve from
TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_matrix_functions_fixtures.py`.
The graphs are tests/engine/matrix_functions_cases.py's (values.npz, shapes.json,
nodes.json.gz and errors.json as tools/make_volumetric_fixtures.py describes them);
python_errors.json holds what the Python layer raises for each PYTHON_ERRORS call.
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import matrix_functions_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "matrix_functions"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")


if __name__ == "__main__":
    main()
