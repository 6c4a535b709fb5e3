"""Write tests/fixtures/elementary_math/: what TensorFlow computes for
tests/engine/elementary_math_cases.py (values and tf.gradients of tf.math's elementary
functions, complex numbers and tf.bitwise in each case's dtypes: elementary_math.npz), the
errors (elementary_math_errors.json), the static shapes of the new APIs' outputs
(static_shapes.json), and the nodes of a graph of the new APIs with tf.gradients through them
(graph_nodes.json.gz).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_elementary_math_fixtures.py`.
"""

import json

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, npz_key, tf_v1

import elementary_math_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "elementary_math"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name, dtype, prefix in elementary_math_cases.case_keys():
        for key, value in elementary_math_cases.run_case(tf, name, dtype).items():
            arrays[npz_key(f"{prefix}/{key}")] = value
    np.savez_compressed(OUT / "elementary_math.npz", **arrays)
    errors = {name: elementary_math_cases.run_error(tf, name)
              for name in elementary_math_cases.ERRORS}
    (OUT / "elementary_math_errors.json").write_text(json.dumps(errors, indent=1, sort_keys=True)
                                                  + "\n")
    shapes = elementary_math_cases.static_shapes(tf)
    (OUT / "static_shapes.json").write_text(json.dumps(shapes, indent=1, sort_keys=True) + "\n")
    nodes = elementary_math_cases.gradient_graph_nodes(tf)
    (OUT / "graph_nodes.json.gz").write_bytes(gzip_bytes(
        "[\n" + ",\n".join(json.dumps(node) for node in nodes) + "\n]\n"))
    print(f"{OUT}: {len(arrays)} arrays, {len(errors)} errors")


if __name__ == "__main__":
    main()
