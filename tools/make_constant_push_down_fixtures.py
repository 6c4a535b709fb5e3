"""Write tests/fixtures/optimizer/constant_push_down.npz: for each graph of
tests/engine/constant_push_down_cases.py, TensorFlow 2.21's output (its bits) and partition
graph (name, op, inputs of each node) once Grappler has moved its constants.

    .venv-tf/bin/python tools/make_constant_push_down_fixtures.py
"""

import json

import numpy as np

from fixture_common import FIXTURES, tf_v1
import constant_push_down_cases as cases


def main():
    tf = tf_v1()
    arrays, graphs = {}, {}
    for name in cases.CASES:
        value, nodes = cases.run(tf, name)
        arrays[name] = value
        graphs[name] = nodes
    out = FIXTURES / "optimizer" / "constant_push_down.npz"
    out.parent.mkdir(exist_ok=True)
    np.savez_compressed(out, __graphs__=json.dumps(graphs), **arrays)
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
