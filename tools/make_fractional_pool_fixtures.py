"""Write tests/fixtures/fractional_pool/: tf.nn.fractional_max_pool and fractional_avg_pool
(values, Philox-drawn boundaries over two runs, gradients) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_fractional_pool_fixtures.py`.
The graphs are tests/engine/fractional_pool_cases.py's (values.npz, shapes.json,
nodes.json.gz and errors.json as tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import fractional_pool_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "fractional_pool"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
