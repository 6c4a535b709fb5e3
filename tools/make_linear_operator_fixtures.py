"""Writes tests/fixtures/linear_operators/ with real TensorFlow: every public method of every
tf.linalg.LinearOperator class on the cases of tests/engine/linear_operator_cases.py, in float32
and float64 (records.json.gz: static shapes, hints, types, errors, graph nodes; values.npz:
the values), which tests/engine/test_linear_operators.py replays on the engine.

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_linear_operator_fixtures.py
"""

import gzip
import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO)]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

from tests.engine.linear_operator_cases import pack, replay  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "linear_operators"


def main():
    tf.get_logger().setLevel("ERROR")
    records, arrays = replay(tf)
    OUT.mkdir(parents=True, exist_ok=True)
    flat, index = pack(arrays)
    text = json.dumps({"records": records, "index": index}, indent=0, sort_keys=True)
    with gzip.GzipFile(OUT / "records.json.gz", "wb", mtime=0) as out:
        out.write(text.encode() + b"\n")
    np.savez_compressed(OUT / "values.npz", **flat)
    print(f"wrote {len(records)} records and {len(arrays)} arrays to {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
