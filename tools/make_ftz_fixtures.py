"""Write tests/fixtures/ftz/: products and quotients TensorFlow's CPU kernels flush to zero
(FTZ) where NumPy keeps a denormal, in float32 and float64.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_ftz_fixtures.py`.
The graphs are tests/engine/ftz_cases.py's (values.npz, shapes.json, nodes.json.gz as
tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import ftz_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ftz"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
