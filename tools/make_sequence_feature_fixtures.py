"""Writes tests/fixtures/sequence_features/fixed_len_sequence.json with real TensorFlow: the
FixedLenSequenceFeature parses of tests/engine/sequence_feature_cases.py, and
sequence_example.json: the SequenceExample parses of tests/engine/sequence_example_cases.py
(tests/engine/test_sequence_features.py replays them on the engine).

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_padding_queue_fixtures.py
"""

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine import sequence_example_cases  # noqa: E402
from tests.engine.sequence_feature_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "sequence_features" / "fixed_len_sequence.json"
SEQUENCE_OUT = REPO / "tests" / "fixtures" / "sequence_features" / "sequence_example.json"


def main():
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(replay(tf), indent=1) + "\n")
    SEQUENCE_OUT.write_text(json.dumps(sequence_example_cases.replay(tf), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)} and {SEQUENCE_OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
