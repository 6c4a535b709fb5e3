"""Write tests/fixtures/spatial/: tf.nn.separable_conv2d, tf.nn.atrous_conv2d and the
transposed and separable tf.layers from TensorFlow.

Run with the TensorFlow venv (and tf-keras, whose legacy layers are tf.compat.v1.layers
under Keras 3): `.venv-tf/bin/python tools/make_spatial_fixtures.py`. The graphs are
tests/engine/spatial_cases.py's, run by layers_cases.run_case: per case `<case>.npz` holds
the fetched values (initial variables, outputs, gradients) and spatial.json the node names
and ops, the variables and the UPDATE_OPS per case.
"""

import json
import os

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import layers_cases  # tests/engine: on sys.path through fixture_common
import spatial_cases

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers as TF 1.x built them
OUT = FIXTURES / "spatial"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name in spatial_cases.CASES:
        values, description = layers_cases.run_case(tf, name, spatial_cases.CASES)
        np.savez(OUT / f"{name}.npz", **{npz_key(k): v for k, v in values.items()})
        manifest[name] = description
        print(f"{name}: {len(values)} values, {len(description['nodes'])} nodes")
    (OUT / "spatial.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
