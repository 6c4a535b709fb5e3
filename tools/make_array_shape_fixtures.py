"""Write tests/fixtures/array_shape/: tf.sort, argsort, repeat, ensure_shape, parallel_stack,
fingerprint and the other array and shape ops of tests/engine/array_shape_cases.py, from
TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_array_shape_fixtures.py`.
values.npz, shapes.json, nodes.json.gz and errors.json as tools/fixture_common.py's
write_case_fixtures writes them; python_errors.json holds what the Python layer raises for
each PYTHON_ERRORS call and api.json the predicates', converters' and
count_up_to's answers (api_answers).
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import array_shape_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "array_shape"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")
    (OUT / "api.json").write_text(json.dumps(cases.api_answers(tf), indent=1) + "\n")


if __name__ == "__main__":
    main()
