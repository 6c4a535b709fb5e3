"""Write tests/fixtures/lookup/lookup.json and <case>.npz: what TensorFlow's lookup tables
(tf.lookup in graph mode, their raw ops) compute, the nodes they build, and their kernels'
error messages.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_lookup_fixtures.py`. The
graphs are tests/engine/lookup_table_cases.py's; the vocabulary files beside the fixtures
are read by both. Exported entries are put in key order (a hash table keeps none).
"""

import json

import numpy as np

from fixture_common import FIXTURES, tf_v1

import lookup_table_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "lookup"


def main():
    tf = tf_v1()
    manifest = {"nodes": {}, "errors": {}}
    for name in lookup_table_cases.CASES:
        values, nodes = lookup_table_cases.run_case(tf, name)
        np.savez(OUT / f"{name}.npz", **values)
        manifest["nodes"][name] = nodes
        print(f"{name}: {len(values)} values, {len(nodes)} nodes")
    for name in lookup_table_cases.ERRORS:
        manifest["errors"][name] = lookup_table_cases.run_error(tf, name)
    (OUT / "lookup.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
