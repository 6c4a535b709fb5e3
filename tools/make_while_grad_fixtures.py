"""Write tests/fixtures/while_grad/: gradients through tf.while_loop (v1) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_while_grad_fixtures.py`.
The graphs are tests/engine/while_grad_cases.py's, built with tensorflow.compat.v1 (after
disable_v2_behavior). values.npz holds per case `<case>__loss` and `<case>__grad<i>`;
nodes.json per case the graph's nodes ([name, op, inputs], in order); simple.pbtxt is the
GraphDef of the simple loop and its gradient (node names, inputs, attrs), and simple.json
its values at x = 2.
"""

import json

import numpy as np

from fixture_common import FIXTURES, node_list, nodes_json, tf_v1

import while_grad_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "while_grad"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    values = {}
    for name in cases.CASES:
        for key, value in cases.run_case(tf, name).items():
            values[f"{name}__{key}"] = np.asarray(value)
    np.savez(OUT / "values.npz", **values)
    nodes = {}
    for name in cases.CASES:
        with tf.Graph().as_default() as graph:
            cases.build_case(tf, name)
        nodes[name] = node_list(graph)
    (OUT / "nodes.json").write_text(nodes_json(nodes))
    graph = tf.Graph()
    with graph.as_default():
        x, y, grad = cases.build_simple(tf)
        with tf.Session() as sess:
            y_value, grad_value = sess.run([y, grad], {x: 2.0})
    (OUT / "simple.pbtxt").write_text(str(graph.as_graph_def()))
    (OUT / "simple.json").write_text(json.dumps({"x": 2.0, "y": float(y_value),
                                                 "grad": float(grad_value)}) + "\n")
    print(f"wrote {len(cases.CASES)} cases and the simple loop's GraphDef to {OUT}")


if __name__ == "__main__":
    main()
