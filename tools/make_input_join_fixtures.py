"""Write tests/fixtures/input_join/: tf.train.batch_join, shuffle_batch_join and the maybe_
batching forms (nodes, dequeued batches) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_input_join_fixtures.py`.
The graphs are tests/engine/input_join_cases.py's (values.npz, shapes.json, nodes.json.gz
and errors.json as tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import input_join_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "input_join"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
