"""Writes tests/fixtures/fixed_length_records/records.json with real TensorFlow: the
tf.data.FixedLengthRecordDataset scripts of tests/engine/fixed_length_record_cases.py
(tests/engine/test_fixed_length_records.py replays them on the engine).

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_fixed_length_record_fixtures.py
"""

import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.fixed_length_record_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "fixed_length_records" / "records.json"


def main():
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        OUT.write_text(json.dumps(replay(tf, directory), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
