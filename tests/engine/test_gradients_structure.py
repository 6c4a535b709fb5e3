"""The gradient and training subgraphs the engine builds are TensorFlow's, node for node.

The training programs (tests/programs) build their graphs on the engine; the GraphDefs real
TensorFlow 2.21 wrote for the same programs (tests/fixtures/graphs) must match them: the same
node names in the same order, ops, inputs (control inputs included) and attrs.
"""

import importlib
import sys
from pathlib import Path

import pytest

import engine as tf

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = ["mlp_train_sgd", "mlp_train_adam", "cnn_train"]


def _nodes(graph_def):
    return [(n.name, n.op, list(n.input), {k: v.SerializeToString(deterministic=True)
                                          for k, v in n.attr.items() if k != "value"})
            for n in graph_def.node]


@pytest.fixture(scope="module", autouse=True)
def _programs_on_path():
    sys.path.insert(0, str(REPO / "tests" / "programs"))
    yield
    sys.path.remove(str(REPO / "tests" / "programs"))


@pytest.mark.parametrize("name", PROGRAMS)
def test_training_graph_equals_tensorflows(name):
    module = importlib.import_module(name)
    graph = tf.Graph()
    with graph.as_default():
        module.build()
    ours = graph.as_graph_def(include_debug_info=False)
    theirs = tf.GraphDef()
    theirs.ParseFromString((REPO / "tests" / "fixtures" / "graphs" / f"{name}.pb").read_bytes())
    assert [n[0] for n in _nodes(ours)] == [n[0] for n in _nodes(theirs)]
    for a, b in zip(_nodes(ours), _nodes(theirs)):
        assert a == b, a[0]


def test_mlp_gradient_subgraph_names():
    module = importlib.import_module("mlp_train_sgd")
    graph = tf.Graph()
    with graph.as_default():
        module.build()
    names = {op.name: op.type for op in graph.get_operations()}
    assert names["gradients/grad_ys_0"] == "Fill"
    assert names["gradients/loss_grad/Tile"] == "Tile"
    assert names["gradients/layer1/Relu_grad/ReluGrad"] == "ReluGrad"
    assert names["gradients/layer2/MatMul_grad/tuple/group_deps"] == "NoOp"
    assert names["gradients/layer2/add_grad/tuple/control_dependency_1"] == "Identity"
    assert names["train/update_layer1/weights/ApplyGradientDescent"] == "ApplyGradientDescent"
    assert names["train"] == "NoOp"
    gradient_ops = [n for n in names if n.startswith("gradients/")]
    assert len(gradient_ops) == 60  # as in the GraphDef TensorFlow wrote
