"""Writes tests/fixtures/data_constants/constants.json with real TensorFlow: tf.data's
AUTOTUNE and cardinality constants and a pipeline using them
(tests/engine/data_constants_cases.py; tests/engine/test_data_constants.py replays it).

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_data_constants_fixtures.py
"""

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.data_constants_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "data_constants" / "constants.json"


def main():
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(replay(tf), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
