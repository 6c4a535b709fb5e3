"""Graphs whose constants TensorFlow's constant folding moves (ReduceDivToReciprocalMul,
ConstantPushDown): each builds on two fed float32 vectors `x` and `y` with `tf` bound to
TensorFlow's tf.compat.v1 (tools/make_constant_push_down_fixtures.py) or the engine
(tests/engine/test_constant_push_down.py), which compare partition graphs and bits."""

import numpy as np

CASES = {
    "mul_chain": lambda tf, x, y: x * y * 3.0,
    "const_first": lambda tf, x, y: 3.0 * (x * y),
    "add_chain": lambda tf, x, y: x + y + 1.5,
    "sub_chain": lambda tf, x, y: (x - y) - 1.5,
    "const_minus": lambda tf, x, y: 1.5 - (x - y),
    "sum_minus": lambda tf, x, y: (x + y) - 1.5,
    "const_plus_diff": lambda tf, x, y: 1.5 + (x - y),
    "product_over": lambda tf, x, y: x * y / 3.0,
    "div_by_const": lambda tf, x, y: x / np.sqrt(2.0),
    "fetched_twice": lambda tf, x, y: (x * y) * 3.0 + (x * y),
    "constant_chain": lambda tf, x, y: ((x + 1.0) + 2.0) + 3.0,
}


def inputs():
    rng = np.random.RandomState(0)
    return (rng.uniform(-5, 5, 259).astype(np.float32),
            rng.uniform(0.5, 3, 259).astype(np.float32))


def build(tf, name):
    """(graph, x placeholder, y placeholder, output) of case `name`."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.placeholder(tf.float32, [None], name="y")
        out = CASES[name](tf, x, y)
    return graph, x, y, out


def run(tf, name):
    """(the output's value, the partition graph's nodes as (name, op, inputs), _Arg and
    _Retval left out)."""
    graph, x, y, out = build(tf, name)
    xs, ys = inputs()
    with graph.as_default(), tf.Session() as sess:
        metadata = tf.RunMetadata()
        value = sess.run(out, {x: xs, y: ys},
                         options=tf.RunOptions(output_partition_graphs=True),
                         run_metadata=metadata)
    nodes = sorted([node.name, node.op, list(node.input)]
                   for partition in metadata.partition_graphs for node in partition.node
                   if node.op not in ("_Arg", "_Retval"))
    return value, nodes
