"""Writes tests/fixtures/queues/padding_priority.json with real TensorFlow: the
tf.PaddingFIFOQueue and tf.PriorityQueue scripts of tests/engine/padding_queue_cases.py
(tests/engine/test_padding_queues.py replays them on the engine).

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

from tests.engine.padding_queue_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "queues" / "padding_priority.json"


def main():
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(replay(tf), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
