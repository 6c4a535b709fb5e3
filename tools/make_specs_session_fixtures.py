"""Writes tests/fixtures/specs_session/cases.json with real TensorFlow: type specs, tf.data
options, session handles, the sparse conditional accumulator, tf.IdentityReader and the TF1
toggles, from the scripts of tests/engine/specs_session_cases.py, which
tests/engine/test_specs_session_misc.py replays on the engine.

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_specs_session_fixtures.py
"""

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.specs_session_cases import REPLAYS, replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "specs_session" / "cases.json"


def main():
    tf.get_logger().setLevel("ERROR")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    results = {name: replay(name, tf) for name in REPLAYS}
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
