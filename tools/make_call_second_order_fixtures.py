"""Write tests/fixtures/call_second_order/: second-order gradients through tf.function calls
(tf.gradients of tf.gradients, tf.hessians) from TensorFlow 2.21's graph mode.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_call_second_order_fixtures.py`.
The graphs are tests/engine/call_second_order_cases.py's (values.npz with each case's calls,
shapes.json, nodes.json.gz and errors.json as tools/fixture_common.py's write_case_fixtures
describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import call_second_order_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "call_second_order"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
