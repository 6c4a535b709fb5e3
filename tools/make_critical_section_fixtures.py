"""Writes tests/fixtures/critical_section/cases.json with real TensorFlow: tf.CriticalSection's
graphs, what its executes give in one run and from several threads, and the errors its
builds raise (tests/engine/test_critical_section.py replays the same script on the engine).

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_critical_section_fixtures.py
"""

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.critical_section_cases import replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "critical_section" / "cases.json"


def main():
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(replay(tf), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
