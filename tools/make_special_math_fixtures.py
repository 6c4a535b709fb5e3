"""Write tests/fixtures/mathops/special_math.npz and errors.json: what TensorFlow computes for
tests/engine/special_math_cases.py (values and tf.gradients of the special math and
manipulation ops, float32 and float64), the kernels' error texts, and the static shapes of the
new ops' outputs (static_shapes.json), and the nodes of a graph of the new APIs with
tf.gradients through them (graph_nodes.json).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_special_math_fixtures.py`.
"""

import json

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import special_math_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name, dtype, prefix in special_math_cases.case_keys():
        for key, value in special_math_cases.run_case(tf, name, dtype).items():
            arrays[npz_key(f"{prefix}/{key}")] = value
    np.savez_compressed(OUT / "special_math.npz", **arrays)
    errors = {name: special_math_cases.run_error(tf, name)
              for name in special_math_cases.ERRORS}
    (OUT / "special_math_errors.json").write_text(json.dumps(errors, indent=1, sort_keys=True)
                                                  + "\n")
    shapes = special_math_cases.static_shapes(tf)
    (OUT / "static_shapes.json").write_text(json.dumps(shapes, indent=1, sort_keys=True) + "\n")
    nodes = special_math_cases.gradient_graph_nodes(tf)
    (OUT / "graph_nodes.json").write_text(
        "[\n" + ",\n".join(json.dumps(node) for node in nodes) + "\n]\n")
    print(f"{OUT}: {len(arrays)} arrays, {len(errors)} errors")


if __name__ == "__main__":
    main()
