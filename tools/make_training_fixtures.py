"""Write tests/fixtures/training/: optimizer updates, losses and seeded dropout from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_training_fixtures.py`.
The graphs are tests/engine/training_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). Per optimizer case `<case>.npz` holds the loss before each of the
steps, the variables and global step after them, and the slots ("slot:<slot>/<var>");
optimizers.json the slot names and node names per case. losses.npz and dropout.npz hold
the fetched values (and gradients, "grad:<key>"); losses.json and dropout.json the nodes.
"""

import json

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import training_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "training"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, resource in cases.CASES:
        values, info = cases.run_optimizer_case(tf, name, resource)
        case = cases.case_id(name, resource)
        np.savez(OUT / f"{case}.npz", **{npz_key(k): v for k, v in values.items()})
        manifest[case] = info
    (OUT / "optimizers.json").write_text(json.dumps(manifest, indent=1) + "\n")
    for label, build in (("losses", cases.build_loss_cases),
                         ("dropout", cases.build_dropout_cases)):
        values, nodes = cases.run_named(tf, build)
        np.savez(OUT / f"{label}.npz", **{npz_key(k): np.asarray(v) for k, v in values.items()})
        (OUT / f"{label}.json").write_text(json.dumps({"nodes": nodes}, indent=1) + "\n")
    print(f"wrote {len(manifest)} optimizer cases, losses and dropout to {OUT}")


if __name__ == "__main__":
    main()
