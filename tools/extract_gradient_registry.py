"""Write tests/fixtures/ops/gradients.json: what TensorFlow's gradient registry says of each op.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/extract_gradient_registry.py`. For
every op of engine/framework/op_defs.pbtxt: "registered" (a gradient function), "not differentiable"
(ops.NotDifferentiable) or "missing" (no entry: tf.gradients through it raises LookupError).
tests/engine/test_op_registry.py holds the engine's gradient registry to it.
"""

import json
import os
import re
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow  # noqa: E402,F401  (registers the gradients)
from tensorflow.python.framework import ops  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "ops" / "gradients.json"


def status(op_type):
    try:
        function = ops._gradient_registry.lookup(op_type)
    except LookupError:
        return "missing"
    return "not differentiable" if function is None else "registered"


def main():
    text = (ROOT / "engine" / "framework" / "op_defs.pbtxt").read_text()
    names = sorted(set(re.findall(r'^  name: "([^"]+)"$', text, re.M)))
    OUT.write_text(json.dumps({name: status(name) for name in names}, indent=0) + "\n")
    print(f"{OUT}: {len(names)} ops")


if __name__ == "__main__":
    main()
