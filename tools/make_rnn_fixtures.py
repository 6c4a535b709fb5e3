"""Write tests/fixtures/rnn/: what tf.TensorArray, tf.nn.dynamic_rnn (while loops over
TensorArrays), bidirectional_dynamic_rnn, LSTMCell and DropoutWrapper built and computed in
TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_rnn_fixtures.py [CASE...]`.
The graphs are tests/engine/tensor_array_cases.py's and dynamic_rnn_cases.py's, run by
layers_cases.run_case; per case `<case>.npz` holds the fetched values, rnn.json the node
names and ops, the variables per case, and the errors (class, first line) of the
TensorArray programs that must fail. Named cases are rewritten alone.
"""

import json
import os
import sys

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import dynamic_rnn_cases  # tests/engine: on sys.path through fixture_common
import layers_cases
import static_rnn_cases
import tensor_array_cases

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers as TF 1.x built them
OUT = FIXTURES / "rnn"

TABLES = {**{name: tensor_array_cases.CASES for name in tensor_array_cases.CASES},
          **{name: dynamic_rnn_cases.CASES for name in dynamic_rnn_cases.CASES},
          **{name: static_rnn_cases.CASES for name in static_rnn_cases.CASES}}


def main(only):
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest_path = OUT / "rnn.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest = {k: v for k, v in manifest.items()
                if k in TABLES or k in ("errors", "static_errors")}
    for name, table in TABLES.items():
        if only and name not in only:
            continue
        values, description = layers_cases.run_case(tf, name, table)
        np.savez(OUT / f"{name}.npz", **{npz_key(k): v for k, v in values.items()})
        manifest[name] = description
        print(f"{name}: {len(values)} values, {len(description['nodes'])} nodes")
    if not only or "errors" in only:
        manifest["errors"] = {name: tensor_array_cases.run_error(tf, name)
                              for name in tensor_array_cases.ERRORS}
    if not only or "static_errors" in only:
        manifest["static_errors"] = {name: static_rnn_cases.run_error(tf, name)
                                     for name in static_rnn_cases.ERRORS}
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(set(sys.argv[1:]))
