"""Write tests/fixtures/functional/: tf.map_fn, tf.scan, tf.foldl, tf.foldr from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_functional_fixtures.py`.
The graphs are tests/engine/functional_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__out<i>`, `<case>__loss` and
`<case>__grad<j>` (j: 0 x, 1 y, 2 w; absent where TensorFlow's gradient is None);
shapes.json per case the outputs' static shapes; nodes.json.gz per case the graph's nodes
([name, op, inputs], in order: the loops, the loss and its gradients).
"""

import json

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, nodes_json, run_cases, tf_v1

import functional_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "functional"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    values, shapes, nodes = run_cases(tf, cases)
    np.savez_compressed(OUT / "values.npz", **values)
    (OUT / "shapes.json").write_text(json.dumps(shapes, indent=0) + "\n")
    # gzipped: the node lists are 480 KB as text, 22 KB so.
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    print(f"wrote {len(cases.CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
