"""Write tests/fixtures/volumetric/: tf.nn.conv3d, max_pool3d and avg_pool3d (Conv3D,
MaxPool3D, AvgPool3D and their gradients) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_volumetric_fixtures.py`.
The graphs are tests/engine/volumetric_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__out<i>`, `<case>__loss` and
`<case>__grad0` (the gradient with respect to x, where the case is differentiable);
shapes.json per case the outputs' static shapes; nodes.json.gz per case the graph's nodes
([name, op, inputs], in order: the ops, the loss and its gradients); errors.json per error
case TensorFlow's error class and the kernel's message.
"""

import json

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, nodes_json, run_cases, tf_v1

import volumetric_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "volumetric"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    values, shapes, nodes = run_cases(tf, cases)
    np.savez_compressed(OUT / "values.npz", **values)
    lines = [f"{json.dumps(name)}: {json.dumps(value)}" for name, value in shapes.items()]
    (OUT / "shapes.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    errors = {name: list(cases.run_error_case(tf, name)) for name in cases.ERROR_CASES}
    (OUT / "errors.json").write_text(json.dumps(errors, indent=0) + "\n")
    print(f"wrote {len(cases.CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
