"""MatMul and Conv2D fused with BiasAdd and an activation, as TensorFlow 2.21's remapper does
on a CPU (engine/optimizer/contraction_fusion.py).

TensorFlow 2.21 (oneDNN off) ran this graph in a tf.compat.v1 Session and its partition graph
held: `<name>_act` _FusedMatMul / _FusedConv2D with fused_ops [BiasAdd, Relu|Relu6|Elu|
LeakyRelu]; for tanh, sigmoid and gelu the fused node is `<name>_b` with [BiasAdd] and the
activation stays; a float64 MatMul, a MatMul + AddV2 and a MatMul whose BiasAdd has two
readers (then only MatMul + BiasAdd fuse) as listed in TENSORFLOWS below.
"""

import numpy as np
import pytest

import engine as tf
from engine.proto import rewriter_config_pb2

RewriterConfig = rewriter_config_pb2.RewriterConfig
ACTIVATIONS = ("relu", "relu6", "elu", "leaky_relu", "tanh", "sigmoid")  # (and gelu: TF 1.x
# has no tf.nn.gelu; TensorFlow's run left it unfused as tanh and sigmoid)
# name -> (op, fused_ops) of the node TensorFlow's partition graph had there.
TENSORFLOWS = {
    **{f"mm_{a}_act": ("_FusedMatMul", ["BiasAdd", op]) for a, op in
       (("relu", "Relu"), ("relu6", "Relu6"), ("elu", "Elu"), ("leaky_relu", "LeakyRelu"))},
    **{f"cv_{a}_act": ("_FusedConv2D", ["BiasAdd", op]) for a, op in
       (("relu", "Relu"), ("relu6", "Relu6"), ("elu", "Elu"), ("leaky_relu", "LeakyRelu"))},
    **{f"mm_{a}_b": ("_FusedMatMul", ["BiasAdd"]) for a in ("tanh", "sigmoid")},
    **{f"cv_{a}_b": ("_FusedConv2D", ["BiasAdd"]) for a in ("tanh", "sigmoid")},
    "mm2c_b": ("_FusedMatMul", ["BiasAdd"]), "mm2c_relu": ("Relu", None),
    "mmd": ("MatMul", None), "mmd_b": ("BiasAdd", None),
    "mmadd": ("MatMul", None), "mmadd_b": ("AddV2", None),
}


def build():
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [2, 4], name="x")
    image = tf.placeholder(tf.float32, [1, 5, 5, 3], name="img")
    x64 = tf.placeholder(tf.float64, [2, 4], name="xd")
    bias = tf.constant(rng.randn(3).astype(np.float32))
    filter_bias = tf.constant(rng.randn(2).astype(np.float32))

    def weights():
        return tf.constant(rng.randn(4, 3).astype(np.float32))

    def filters():
        return tf.constant(rng.randn(3, 3, 3, 2).astype(np.float32))

    outputs = []
    for name in ACTIVATIONS:
        act = getattr(tf.nn, name)
        outputs.append(act(tf.nn.bias_add(tf.matmul(x, weights(), name=f"mm_{name}_mm"), bias,
                                          name=f"mm_{name}_b"), name=f"mm_{name}_act"))
        outputs.append(act(tf.nn.bias_add(tf.nn.conv2d(image, filters(), [1, 1, 1, 1], "SAME",
                                                       name=f"cv_{name}_cv"),
                                          filter_bias, name=f"cv_{name}_b"),
                           name=f"cv_{name}_act"))
    outputs.append(tf.nn.relu(tf.nn.bias_add(tf.matmul(x64, tf.constant(rng.randn(4, 3)),
                                                       name="mmd"),
                                             tf.constant(rng.randn(3)), name="mmd_b"),
                              name="mmd_relu"))
    outputs.append(tf.nn.relu(tf.add(tf.matmul(x, weights(), name="mmadd"), bias,
                                     name="mmadd_b"), name="mmadd_relu"))
    shared = tf.nn.bias_add(tf.matmul(x, weights(), name="mm2c"), bias, name="mm2c_b")
    outputs += [tf.nn.relu(shared, name="mm2c_relu"), tf.identity(shared, name="mm2c_id")]
    feeds = {x: rng.randn(2, 4), image: rng.randn(1, 5, 5, 3), x64: rng.randn(2, 4)}
    return outputs, feeds


def run(remapping):
    graph = tf.Graph()
    with graph.as_default():
        outputs, feeds = build()
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = remapping
    with tf.Session(graph=graph, config=config) as sess:
        metadata = tf.RunMetadata()
        values = sess.run(outputs, feeds, options=tf.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
    return values, {n.name: n for g in metadata.partition_graphs for n in g.node}


def test_the_remapper_fuses_what_tensorflows_fuses():
    _, nodes = run(RewriterConfig.DEFAULT)
    for name, (op, fused_ops) in TENSORFLOWS.items():
        assert nodes[name].op == op, name
        if fused_ops is not None:
            assert [s.decode() for s in nodes[name].attr["fused_ops"].list.s] == fused_ops
            assert len([i for i in nodes[name].input if not i.startswith("^")]) == 3
    for name in ACTIVATIONS[:4]:
        assert f"mm_{name}_mm" not in nodes and f"mm_{name}_b" not in nodes


@pytest.mark.parametrize("index", range(2 * len(ACTIVATIONS) + 4))
def test_a_fused_node_computes_what_the_unfused_ops_compute(index):
    fused, _ = run(RewriterConfig.DEFAULT)
    unfused, nodes = run(RewriterConfig.OFF)
    assert not any(n.op.startswith("_Fused") for n in nodes.values())
    np.testing.assert_allclose(fused[index], unfused[index], rtol=1e-6, atol=1e-6)
