"""Writes tests/fixtures/cluster/accumulators.json with real TensorFlow: what a
tf.ConditionalAccumulator does with fresh and stale gradients, its counts and steps, and
the errors it raises (tests/engine/test_accumulators.py replays the same script).

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_accumulator_fixtures.py
"""

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.accumulator_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "cluster" / "accumulators.json"


def main():
    OUT.write_text(json.dumps(replay(tf), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
