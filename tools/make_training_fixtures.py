"""Write tests/fixtures/training/: optimizer updates, losses and seeded dropout from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_training_fixtures.py`.
The graphs are tests/engine/training_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). Per optimizer case `<case>.npz` holds the loss before each of the
steps, the variables and global step after them, and the slots ("slot:<slot>/<var>");
optimizers.json the slot names and node names per case. losses.npz and dropout.npz hold
the fetched values (and gradients, "grad:<key>"); losses.json and dropout.json the nodes.
"""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "training"
sys.path.insert(0, str(ROOT / "tests" / "engine"))

import numpy as np  # noqa: E402

import training_cases as cases  # noqa: E402


def _npz_key(key):
    return key.replace(":", "__").replace("/", "--")


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, resource in cases.CASES:
        values, info = cases.run_optimizer_case(tf, name, resource)
        case = cases.case_id(name, resource)
        np.savez(OUT / f"{case}.npz", **{_npz_key(k): v for k, v in values.items()})
        manifest[case] = info
    (OUT / "optimizers.json").write_text(json.dumps(manifest, indent=1) + "\n")
    for label, build in (("losses", cases.build_loss_cases),
                         ("dropout", cases.build_dropout_cases)):
        values, nodes = cases.run_named(tf, build)
        np.savez(OUT / f"{label}.npz", **{_npz_key(k): np.asarray(v) for k, v in values.items()})
        (OUT / f"{label}.json").write_text(json.dumps({"nodes": nodes}, indent=1) + "\n")
    print(f"wrote {len(manifest)} optimizer cases, losses and dropout to {OUT}")


if __name__ == "__main__":
    main()
