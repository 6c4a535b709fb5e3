"""Every GraphDef TensorFlow wrote imports into the engine's graph unchanged (names, ops, edges,
attrs), loops and functions included; what the engine exports re-imports the same."""

from pathlib import Path

import pytest

import engine as tf
from engine.framework import op_registry

GRAPHS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "graphs").glob("*.pb"))


def _load(path):
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(path.read_bytes())
    return graph_def


@pytest.mark.parametrize("path", GRAPHS, ids=lambda p: p.stem)
def test_tensorflow_graph_def_imports_node_for_node(path):
    graph_def = _load(path)
    unknown = {n.op for n in graph_def.node if op_registry.lookup(n.op) is None} - {
        f.signature.name for f in graph_def.library.function}
    if unknown:
        pytest.skip(f"ops the engine does not know: {sorted(unknown)}")
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
    ops = graph.get_operations()
    assert sorted(op.name for op in ops) == sorted(n.name for n in graph_def.node)
    exported = {n.name: n for n in graph.as_graph_def(include_debug_info=False).node}
    for node in graph_def.node:
        mine = exported[node.name]
        assert mine.op == node.op
        assert sorted(mine.input) == sorted(node.input)
        assert mine.device == node.device
        for key, value in node.attr.items():
            assert mine.attr[key] == value, (node.name, key)
    assert len(graph.as_graph_def().library.function) == len(graph_def.library.function)


@pytest.mark.parametrize("path", GRAPHS[:6], ids=lambda p: p.stem)
def test_engine_export_reimports_identically(path):
    graph_def = _load(path)
    with tf.Graph().as_default() as first:
        tf.import_graph_def(graph_def, name="")
    exported = first.as_graph_def()
    with tf.Graph().as_default() as second:
        tf.import_graph_def(exported, name="")
    again = second.as_graph_def(include_debug_info=False)
    assert again == first.as_graph_def(include_debug_info=False)
