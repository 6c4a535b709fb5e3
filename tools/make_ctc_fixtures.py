"""Write tests/fixtures/ctc/: tf.nn's CTC functions (CTCLoss and its gradient, the greedy and
beam search decoders, ctc_loss_v2, collapse_repeated, ctc_unique_labels) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_ctc_fixtures.py`. The graphs
are tests/engine/ctc_cases.py's (values.npz, shapes.json, nodes.json.gz and errors.json as
tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import ctc_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ctc"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
