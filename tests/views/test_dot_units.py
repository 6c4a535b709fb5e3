"""The exporter on GraphDefs built here: folding, series, expand/focus, edge kinds, partitions."""

import pytest

from bench.dot_large import large_graph
from dot_helpers import covering_item, drawn_edges, drawn_nodes
from engine.proto import graph_pb2, types_pb2
from views import dot

FLOAT = types_pb2.DT_FLOAT


def graph_of(*nodes):
    """A GraphDef from (name, op, inputs, attrs) tuples."""
    graph = graph_pb2.GraphDef()
    for name, op, inputs, *attrs in nodes:
        node = graph.node.add(name=name, op=op, input=list(inputs))
        for key, value in (attrs[0] if attrs else {}).items():
            node.attr[key].type = value
    return graph


@pytest.fixture(scope="module")
def blocks40():
    return large_graph(blocks=40)


def test_a_series_of_same_shaped_scopes_folds_into_one_box(blocks40):
    source = dot.to_source(blocks40, dot.DotOptions(budget=30))
    ids = drawn_nodes(source)
    assert ids["block[000-039]"]["label"].startswith("block[000-039] x40\\n2000 nodes\\n")
    assert ids["block[000-039]"]["shape"] == "box3d"
    assert not any(name.startswith("block0") for name in ids)
    assert all(covering_item(node.name, ids) for node in blocks40.node)
    edges = {(src, dst): attrs for src, dst, attrs in drawn_edges(source)}
    assert edges[("x", "block[000-039]")]["label"] == "float [?,64]"
    assert edges[("block[000-039]", "init")]["style"] == "dashed"  # 240 control edges, one line
    assert len(edges) < 10
    # Within budget the series opens: one box per block.
    ids = drawn_nodes(dot.to_source(blocks40, dot.DotOptions(budget=60)))
    assert "block[000-039]" not in ids and ids["block017"]["label"].startswith("block017\\n50 nodes")


def test_expand_splits_the_series_around_the_opened_scope(blocks40):
    source = dot.to_source(blocks40, dot.DotOptions(expand=("block007",), budget=12))
    ids = drawn_nodes(source)
    assert "block[000-006]" in ids and "block[008-039]" in ids
    assert ids["block[008-039]"]["label"].startswith("block[008-039] x32\\n")
    assert 'subgraph cluster_block007 {' in source
    assert "block007/input" in ids and "block007/output" in ids
    edges = {(src, dst) for src, dst, _ in drawn_edges(source)}
    assert ("block[000-006]", "block007/input") in edges
    assert ("block007/output", "block[008-039]") in edges


def test_expand_takes_globs_and_refuses_unknown_scopes(blocks40):
    source = dot.to_source(blocks40, dot.DotOptions(expand=("block00[12]",), budget=10))
    assert 'subgraph cluster_block001 {' in source and 'subgraph cluster_block002 {' in source
    with pytest.raises(ValueError, match=r"no scope matches --expand 'nope' \(top-level scopes: "
                                         r"block000, block001"):
        dot.to_source(blocks40, dot.DotOptions(expand=("nope",)))


def test_focus_shows_the_neighbourhood_and_folds_the_rest(blocks40):
    focus = "block010/dense_1/MatMul"
    source = dot.to_source(blocks40, dot.DotOptions(focus=focus, radius=1, budget=30))
    ids = drawn_nodes(source)
    assert ids[focus]["penwidth"] == "3"
    for neighbour in ("block010/dense_0/Relu", "block010/dense_1/kernel/read",
                      "block010/dense_1/BiasAdd"):
        assert ids[neighbour]["penwidth"] == "2"
    assert "block[000-009]" in ids and "block[011-039]" in ids
    assert len(ids) < 40
    with pytest.raises(ValueError, match="no node named 'nope' to --focus on"):
        dot.to_source(blocks40, dot.DotOptions(focus="nope"))


def test_collapse_depth_folds_scopes_below_it():
    graph = large_graph(blocks=3)
    ids = drawn_nodes(dot.to_source(graph, dot.DotOptions(collapse=0)))
    assert "block[000-002]" in ids and "loss" in ids
    ids = drawn_nodes(dot.to_source(graph, dot.DotOptions(collapse=1, budget=1000)))
    assert "block000/input" in ids and "block000/dense_[0-2]" in ids
    ids = drawn_nodes(dot.to_source(graph, dot.DotOptions(budget=1000)))
    assert all(node.name in ids for node in graph.node)


def test_numbered_ops_of_one_kind_fold_as_a_series():
    nodes = [(f"c_{number}", "Const", [], {"dtype": FLOAT}) for number in range(1, 6)]
    graph = graph_of(*nodes, ("sum", "AddN", [f"c_{number}" for number in range(1, 6)]))
    ids = drawn_nodes(dot.to_source(graph, dot.DotOptions(budget=3)))
    assert set(ids) == {"c_[1-5]", "sum", "legend:table"}
    assert ids["c_[1-5]"]["label"] == "c_[1-5] x5\\n5 nodes\\n5 Const"


def test_scopes_with_different_insides_are_not_a_series():
    graph = graph_of(("layer1/MatMul", "MatMul", []), ("layer1/Relu", "Relu", []),
                     ("layer2/Add", "AddV2", []), ("layer2/Relu", "Relu", []))
    ids = drawn_nodes(dot.to_source(graph, dot.DotOptions(budget=2)))
    assert {"layer1", "layer2"} <= set(ids)


def test_resource_and_control_edges():
    graph = graph_of(("v", "VarHandleOp", [], {"dtype": FLOAT}),
                     ("read", "ReadVariableOp", ["v"], {"dtype": FLOAT}),
                     ("init", "NoOp", ["^read"]))
    edges = {(src, dst): attrs for src, dst, attrs in drawn_edges(dot.to_source(graph))}
    assert edges[("v", "read")]["label"] == "resource"
    assert edges[("v", "read")]["arrowhead"] == "normalodiamond"
    assert edges[("read", "init")]["style"] == "dashed"


def _partition(device, *nodes):
    graph = graph_of(*nodes)
    for node in graph.node:
        node.device = device
    return graph


def _send_recv(name, op, tensor, inputs=()):
    node = graph_pb2.GraphDef().node.add(name=name, op=op, input=list(inputs))
    for key, value in (("tensor_name", tensor), ("send_device", "/cpu:0"),
                       ("recv_device", "/cpu:1")):
        node.attr[key].s = value.encode()
    return node


def test_partitions_pair_send_and_recv_and_keep_colliding_names_apart():
    cpu0 = _partition("/cpu:0", ("a", "Const", [], {"dtype": FLOAT}), ("_SOURCE", "NoOp", []))
    cpu0.node.append(_send_recv("a/_0", "_Send", "edge_a", ["a"]))
    cpu1 = _partition("/cpu:1", ("_SOURCE", "NoOp", []))
    cpu1.node.append(_send_recv("a/_1", "_Recv", "edge_a"))
    cpu1.node.add(name="neg", op="Neg", input=["a/_1"])
    for node in cpu0.node[2:]:
        node.device = "/cpu:0"
    for node in cpu1.node[1:]:
        node.device = "/cpu:1"
    index = dot.index_of([cpu0, cpu1])
    assert index.devices == ["/cpu:0", "/cpu:1"]
    assert {"_SOURCE@0", "_SOURCE@1"} <= set(index.nodes)
    sendrecv = [edge for edge in index.edges if edge.kind == "sendrecv"]
    assert [(edge.src, edge.dst, edge.label) for edge in sendrecv] == [("a/_0", "a/_1", "edge_a")]
    source = dot.to_source([cpu0, cpu1])
    assert 'subgraph "cluster_/cpu:0:" {' in source and 'subgraph "cluster_/cpu:1:" {' in source


def test_a_live_graph_is_drawn_through_as_graph_def():
    class LiveGraph:
        def as_graph_def(self):
            return graph_of(("x", "Placeholder", [], {"dtype": FLOAT}))

    assert "x" in drawn_nodes(dot.to_source(LiveGraph()))
    with pytest.raises(TypeError, match="cannot draw a int"):
        dot.index_of(3)


def test_stats_colour_folded_boxes_by_their_summed_time(blocks40):
    costs = {node.name: dot.NodeCost(time_us=10.0, bytes=4) for node in blocks40.node
             if node.op == "MatMul"}
    costs["x"] = dot.NodeCost(time_us=1.0, bytes=4)
    source = dot.to_source(blocks40, dot.DotOptions(color="memory", costs=costs, budget=30))
    ids = drawn_nodes(source)
    assert "time 1.2 ms, output 480 B" in ids["block[000-039]"]["tooltip"]
    assert ids["block[000-039]"]["fillcolor"] == dot.styles.SCALE_COLOURS[-1]
    assert ids["init"]["fillcolor"] == dot.styles.NO_STATS
    assert ">output memory<" in source and ">no stats<" in source


def test_unknown_colour_mode_names_the_choices():
    with pytest.raises(ValueError, match=r"unknown colour mode: 'size' \(must be one of \['op'"):
        dot.DotOptions(color="size")


def test_render_errors_say_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(dot.RenderError, match="dot binary is not on PATH"):
        dot.render("digraph {}", "svg")
    with pytest.raises(dot.RenderError, match="unknown output format: 'bmp'"):
        dot.render("digraph {}", "bmp")
    with pytest.raises(dot.RenderError, match="cannot run"):
        dot.render("digraph {}", "svg", dot=str(tmp_path / "no-dot"))
    monkeypatch.undo()
    with pytest.raises(dot.RenderError, match="unknown output format: 'txt'"):
        dot.export(graph_of(("x", "NoOp", [])), tmp_path / "x.txt")


@pytest.mark.needs_dot
def test_render_reports_dot_syntax_errors():
    with pytest.raises(dot.RenderError, match=r"dot failed \(exit 1\): .*syntax error"):
        dot.render("digraph { a -> }", "svg")


@pytest.mark.needs_dot
def test_export_writes_dot_svg_and_png(tmp_path):
    graph = graph_of(("x", "Placeholder", [], {"dtype": FLOAT}), ("y", "Neg", ["x"], {"T": FLOAT}))
    dot.export(graph, tmp_path / "g.dot")
    dot.export(graph, tmp_path / "g.svg")
    dot.export(graph, tmp_path / "g.png")
    assert (tmp_path / "g.dot").read_text().startswith("digraph graph_inspector {")
    assert b'<g id="y" class="node">' in (tmp_path / "g.svg").read_bytes()
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")


def test_a_live_engine_graph_is_drawn():
    tf = pytest.importorskip("engine")
    if not hasattr(tf, "Graph"):
        pytest.skip("engine.Graph is not there yet")
    graph = tf.Graph()
    with graph.as_default():
        state = tf.Variable(0, name="counter")
        tf.assign(state, tf.add(state, tf.constant(1)), name="update")
    source = dot.to_source(graph)
    ids = drawn_nodes(source)
    assert {"counter", "counter/read", "update"} <= set(ids)
    edges = {(src, dst): attrs for src, dst, attrs in drawn_edges(source)}
    assert edges[("counter", "update")]["label"].startswith("int32_ref")
