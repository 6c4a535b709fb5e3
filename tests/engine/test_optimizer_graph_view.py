"""engine.optimizer.graph_view: what a view hands to the next pass is what a fresh view reads.

Inside optimize(), the view of each pass's copy starts from the names, inputs and topological
order the previous pass's view kept, and a pass that only removed and rewired nodes returns
its own copy with those nodes deleted. Both must give exactly what reading the returned
GraphDef anew gives, or later passes would work on a graph that is not the one they got.
"""

from pathlib import Path

import pytest

from engine import optimizer
from engine.optimizer import graph_view
from engine.proto import graph_pb2, node_def_pb2, rewriter_config_pb2

GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"
ON = rewriter_config_pb2.RewriterConfig.ON


pytestmark = pytest.mark.usefixtures("optimizer_on")


def _fresh(graph_def):
    view = graph_view.GraphView(graph_def)  # outside sharing(): read from the GraphDef
    return view.order, {name: tuple(view.nodes[name].input) for name in view.nodes}, view


def _repeated(graph_def, copies):
    """`copies` copies of the graph under scopes: a graph with much to merge and fold."""
    result = graph_pb2.GraphDef()
    result.versions.CopyFrom(graph_def.versions)
    for copy in range(copies):
        for original in graph_def.node:
            node = result.node.add()
            node.CopyFrom(original)
            node.name = f"c{copy}/{original.name}"
            del node.input[:]
            node.input.extend(("^" if i.startswith("^") else "") + f"c{copy}/" + i.lstrip("^")
                              for i in original.input)
    return result


@pytest.mark.parametrize("name", ["cnn_train", "cond", "while_loop", "counter"])
def test_each_kept_index_is_what_a_fresh_view_reads(name, monkeypatch):
    path = GRAPHS / f"{name}.pb"
    if not path.exists():
        pytest.skip(f"no fixture {path.name}")
    graph_def = _repeated(graph_pb2.GraphDef.FromString(path.read_bytes()), 3)
    checked = []
    keep = graph_view.GraphView._keep_index

    def checking(graph, names, inputs, topological):
        fresh_names, fresh_inputs, fresh_view = _fresh(graph)
        assert names == fresh_names
        assert inputs == fresh_inputs
        if topological is not None:
            assert topological == fresh_view.topological_order()
        checked.append(topological is not None)
        keep(graph, names, inputs, topological)

    monkeypatch.setattr(graph_view.GraphView, "_keep_index", staticmethod(checking))
    options = rewriter_config_pb2.RewriterConfig(remapping=ON)
    result = optimizer.optimize(graph_def, rewrite_options=options)
    assert result.changed and len(checked) >= 6
    assert any(checked)  # some pass handed a topological order on


def _graph(names_inputs, version=0):
    graph_def = graph_pb2.GraphDef(version=version)
    graph_def.versions.producer = 7
    for name, inputs in names_inputs:
        graph_def.node.add(name=name, op="Identity", input=inputs)
    return graph_def


def test_removed_nodes_are_deleted_from_the_pass_copy_as_a_new_graph_would_hold_them():
    spec = [(f"n{i}", [f"n{i - 1}"] if i else []) for i in range(10)]
    graph_def = _graph(spec, version=3)
    view = graph_view.GraphView(graph_def)
    for name in ("n0", "n3", "n4", "n5", "n9"):  # the first, a run, the last
        view.remove(name)
    view.set_inputs(view.node("n6"), ["n2", "^n1"])
    result = view.to_graph_def()
    assert result is graph_def  # no node copied again
    expected = _graph([(f"n{i}", [f"n{i - 1}"] if i > 1 else []) for i in (1, 2, 6, 7, 8)])
    expected.node[0].input[:] = ["n0"]
    expected.node[2].input[:] = ["n2", "^n1"]
    assert result == expected  # the deprecated `version` goes, as from a new GraphDef


def test_a_graph_with_added_or_replaced_nodes_or_unknown_fields_is_written_anew():
    spec = [("a", []), ("b", ["a"]), ("c", ["b"])]
    replaced = graph_view.GraphView(_graph(spec))
    replaced.replace(node_def_pb2.NodeDef(name="b", op="Const"))
    replaced.remove("c")
    assert [n.op for n in replaced.to_graph_def().node] == ["Identity", "Const"]
    assert replaced.to_graph_def() is not replaced.graph_def

    unknown = _graph(spec)
    unknown.MergeFromString(b"\xf8\x01\x05")  # field 31, a varint: unknown to GraphDef
    view = graph_view.GraphView(unknown)
    view.remove("c")
    result = view.to_graph_def()
    assert result is not unknown and [n.name for n in result.node] == ["a", "b"]
    assert result.SerializeToString() == _graph(spec[:2]).SerializeToString()


def test_a_second_view_of_a_handed_over_graph_reads_it_anew():
    graph_def = _graph([("a", []), ("b", ["a"])])
    with graph_view.sharing():
        first = graph_view.GraphView(graph_def)
        first.to_graph_def()
        copy = graph_pb2.GraphDef()
        copy.CopyFrom(graph_def)
        graph_view.hand_over(graph_def, copy)
        taken = graph_view.GraphView(copy)
        assert taken.topological_order() == ["a", "b"]
        taken.set_inputs(taken.node("b"), [])
        again = graph_view.GraphView(copy)  # not the index handed over: it was used once
        assert again.inputs("b") == ()
