"""Write tests/fixtures/stateless_random/: TensorFlow's values, static shapes, graph nodes,
kernel errors (errors.json) and Python-level errors (api_errors.json) of
tests/engine/stateless_random_cases.py (tf.random.stateless_*, fold_in, split,
experimental.stateless_shuffle, create_rng_state, the raw stateless ops).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_stateless_random_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import stateless_random_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "stateless_random"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    api_errors = {name: list(cases.run_api_error_case(tf, name))
                  for name in cases.API_ERROR_CASES}
    (OUT / "api_errors.json").write_text(json.dumps(api_errors, indent=0) + "\n")


if __name__ == "__main__":
    main()
