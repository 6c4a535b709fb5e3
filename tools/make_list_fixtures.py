"""Write tests/fixtures/lists/: what TensorFlow's TensorList ops (TF2's TensorArray) compute,
their gradients, and their kernels' error messages.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_list_fixtures.py [CASE...]`.
The graphs are tests/engine/tensor_list_cases.py's (tf.raw_ops, TF1 graph mode), run by
layers_cases.run_case; per case `<case>.npz` holds the fetched values (strings as bytes
arrays), lists.json the node names and ops per case and the errors (class, the kernel's
line) of the programs that must fail. Named cases are rewritten alone.
"""

import json
import sys

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import layers_cases  # tests/engine: on sys.path through fixture_common
import tensor_list_cases

OUT = FIXTURES / "lists"


def storable(value):
    """A fetched value as .npz holds it without pickling: strings as a bytes array."""
    value = np.asarray(value)
    return value.astype(bytes) if value.dtype == object else value


def main(only):
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest_path = OUT / "lists.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest = {k: v for k, v in manifest.items()
                if k in tensor_list_cases.CASES or k == "errors"}
    for name in tensor_list_cases.CASES:
        if only and name not in only:
            continue
        values, description = layers_cases.run_case(tf, name, tensor_list_cases.CASES)
        np.savez(OUT / f"{name}.npz", **{npz_key(k): storable(v) for k, v in values.items()})
        manifest[name] = {"nodes": description["nodes"], "ops": description["ops"]}
        print(f"{name}: {len(values)} values, {len(description['nodes'])} nodes")
    if not only or "errors" in only:
        manifest["errors"] = {name: tensor_list_cases.run_error(tf, name)
                              for name in tensor_list_cases.ERRORS}
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(set(sys.argv[1:]))
