"""Write tests/fixtures/metrics_more/: TensorFlow's values after each update step, local
variable names, static shapes and graph nodes of tests/engine/metrics_cases.py (the TF 1.x
streaming metrics beyond the basic ones).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_metrics_fixtures.py`.
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import metrics_cases as cases  # tests/engine: on sys.path through fixture_common


def main():
    write_case_fixtures(tf_v1(), cases, FIXTURES / "metrics_more")


if __name__ == "__main__":
    main()
