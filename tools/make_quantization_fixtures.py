"""Write tests/fixtures/quantization/: the fake-quantization ops of
tests/engine/quantization_cases.py, from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_quantization_fixtures.py`.
values.npz, shapes.json, nodes.json.gz and errors.json as tools/fixture_common.py's
write_case_fixtures writes them; python_errors.json holds the shape functions' and the
Python layer's errors for each PYTHON_ERRORS call, dtypes.json what the quantized DTypes
answer.
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import quantization_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "quantization"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")
    (OUT / "dtypes.json").write_text(json.dumps(cases.dtype_answers(tf), indent=1) + "\n")


if __name__ == "__main__":
    main()
