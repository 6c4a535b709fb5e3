"""Write tests/fixtures/layers/: what tf.layers, embedding_lookup, the candidate samplers,
the sampled losses and the recurrent cells built and computed in TensorFlow.

Run with the TensorFlow venv (and tf-keras, whose legacy layers are tf.compat.v1.layers
under Keras 3): `.venv-tf/bin/python tools/make_layers_fixtures.py`. The graphs are
tests/engine/layers_cases.py's, sampled_cases.py's and rnn_cases.py's; per case
`<case>.npz` holds the fetched values (initial variables, outputs, gradients, variables
after the update ops) and layers.json the node names and ops, the variables and the
UPDATE_OPS per case.
"""

import json
import os

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import layers_cases as cases  # tests/engine: on sys.path through fixture_common
import rnn_cases
import sampled_cases

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers as TF 1.x built them
OUT = FIXTURES / "layers"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    every = [(name, cases.CASES) for name in cases.CASES]
    every += [(name, sampled_cases.CASES) for name in sampled_cases.CASES]
    every += [(name, rnn_cases.CASES) for name in rnn_cases.CASES]
    for name, table in every:
        values, description = cases.run_case(tf, name, table)
        np.savez(OUT / f"{name}.npz", **{npz_key(k): v for k, v in values.items()})
        manifest[name] = description
        print(f"{name}: {len(values)} values, {len(description['nodes'])} nodes")
    (OUT / "layers.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
