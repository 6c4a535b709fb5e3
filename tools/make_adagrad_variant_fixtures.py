"""Write tests/fixtures/adagrad_variants/: tf.train.ProximalAdagradOptimizer and
AdagradDAOptimizer steps (variables and slots; dense, sparse, ref and resource) from
TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_adagrad_variant_fixtures.py`.
The graphs are tests/engine/adagrad_variant_cases.py's (values.npz, shapes.json,
nodes.json.gz and errors.json as tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import adagrad_variant_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "adagrad_variants"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
