"""Write tests/fixtures/resource_gather/: what tf.gather on a resource variable (ResourceGather)
computes in TensorFlow, its gradient and SGD step, the graph's nodes, and its errors.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_resource_gather_fixtures.py`.
The graphs are tests/engine/resource_gather_cases.py's, run by layers_cases.run_case.
"""

import json

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import layers_cases  # tests/engine: on sys.path through fixture_common
import resource_gather_cases

OUT = FIXTURES / "resource_gather"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name in resource_gather_cases.CASES:
        values, description = layers_cases.run_case(tf, name, resource_gather_cases.CASES)
        np.savez(OUT / f"{name}.npz", **{npz_key(k): v for k, v in values.items()})
        manifest[name] = {"nodes": description["nodes"], "ops": description["ops"]}
    manifest["errors"] = {name: resource_gather_cases.run_error(tf, name)
                          for name in resource_gather_cases.ERRORS}
    (OUT / "resource_gather.json").write_text(json.dumps(manifest, indent=1, sort_keys=True)
                                              + "\n")


if __name__ == "__main__":
    main()
