"""The exporter on graphs and runs real TensorFlow wrote: what is drawn, how, and byte for byte."""

import re

import pytest

from dot_helpers import covering_item, drawn_edges, drawn_nodes, fixture, load_graph, load_run
from views import dot

GRAPHS = ["graphs/counter.pb", "graphs/mlp_train_sgd.pb", "graphs/mlp_train_adam.pb",
          "graphs/cnn_train.pb", "graphs/while_loop.pb"]
SMALL_BUDGETS = [dot.DotOptions(), dot.DotOptions(budget=25), dot.DotOptions(collapse=0)]


def _source(graph, options=dot.DotOptions()):
    return dot.to_source(graph, options)


@pytest.mark.parametrize("options", SMALL_BUDGETS, ids=["default", "budget25", "collapse0"])
@pytest.mark.parametrize("name", GRAPHS)
def test_every_node_or_its_folded_scope_is_drawn(name, options):
    graph = load_graph(name)
    source = _source(graph, options)
    ids = drawn_nodes(source)
    missing = [node.name for node in graph.node if covering_item(node.name, ids) is None]
    assert missing == []
    # Node ids in the DOT are the ids the SVG carries: the names, so a browser can search them.
    for node_id, node_attrs in ids.items():
        assert node_attrs["id"] == node_id


@pytest.mark.parametrize("name", GRAPHS + ["runs/two_cpu.pb"])
def test_same_input_same_dot_bytes(name):
    graph = load_run(name) if name.startswith("runs/") else load_graph(name)
    assert _source(graph) == _source(graph)
    folded = dot.DotOptions(budget=10)
    assert _source(graph, folded) == _source(graph, folded)


@pytest.mark.needs_dot
@pytest.mark.parametrize("name", ["graphs/counter.pb", "graphs/mlp_train_sgd.pb",
                                  "graphs/while_loop.pb", "runs/two_cpu.pb"])
def test_same_input_same_svg_bytes(name, tmp_path):
    graph = load_run(name) if name.startswith("runs/") else load_graph(name)
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    dot.export(graph, first)
    dot.export(graph, second)
    assert first.read_bytes() == second.read_bytes()


def test_counter_everything_drawn_with_ref_and_control_edges():
    source = _source(load_graph("graphs/counter.pb"))
    ids = drawn_nodes(source)
    assert {"counter", "counter/Assign", "counter/read", "counter/initial_value", "Const",
            "Add", "Assign", "init"} <= set(ids)
    assert 'subgraph cluster_counter {' in source  # the Variable sits in its own scope
    edges = {(src, dst): attrs for src, dst, attrs in drawn_edges(source)}
    assert edges[("counter/Assign", "init")]["style"] == "dashed"
    assert "label" not in edges[("counter/Assign", "init")]
    ref = edges[("counter", "counter/read")]
    assert ref["label"] == "int32_ref" and ref["style"] == "bold"
    assert edges[("Const", "Add")] == {"label": "int32", "color": "#4d4d4d",
                                       "tooltip": "Const:0 -> Add"}
    tooltip = ids["Assign"]["tooltip"]
    assert tooltip.startswith("Assign\\nop: Assign\\ninputs: counter, Add\\nT = DT_INT32")


def test_mlp_training_colours_gradients_and_training_ops():
    graph = load_graph("graphs/mlp_train_sgd.pb")
    source = _source(graph, dot.DotOptions(budget=1000))
    ids = drawn_nodes(source)
    applies = [node.name for node in graph.node if node.op.startswith("Apply")]
    assert applies
    for name in applies:
        assert ids[name]["fillcolor"] == dot.styles.FAMILY_COLOURS["training"]
    gradient = next(node.name for node in graph.node if node.name.startswith("gradients/")
                    and node.op == "MatMul")
    assert ids[gradient]["fillcolor"] == dot.styles.FAMILY_COLOURS["gradient"]
    assert ">training<" in source and ">gradient<" in source  # the legend's rows


def test_mlp_training_folds_gradients_under_a_small_budget():
    graph = load_graph("graphs/mlp_train_adam.pb")
    source = _source(graph, dot.DotOptions(budget=12))
    ids = drawn_nodes(source)
    box = ids["gradients"]
    count = sum(1 for node in graph.node if node.name.startswith("gradients/"))
    assert box["shape"] == "box"
    assert box["label"].startswith(f"gradients\\n{count} nodes\\n")
    assert not any(name.startswith("gradients/") for name in ids)
    # Edges into and out of the box are folded: one per (source, target, kind).
    edges = [(src, dst, attrs.get("style")) for src, dst, attrs in drawn_edges(source)]
    assert len(edges) == len(set(edges))


def test_while_loop_back_edges_do_not_constrain_the_layout():
    graph = load_graph("graphs/while_loop.pb")
    source = _source(graph)
    ops = {node.name: node.op for node in graph.node}
    back = [(src, dst, attrs) for src, dst, attrs in drawn_edges(source)
            if ops.get(src) == "NextIteration"]
    assert len(back) == 2
    for src, dst, attrs in back:
        assert ops[dst] == "Merge"
        assert attrs["constraint"] == "false" and attrs["color"] == "#6a3d9a"
    assert "subgraph cluster_while {" in source


def test_cnn_renders_with_every_op_family_in_the_legend():
    graph = load_graph("graphs/cnn_train.pb")
    source = _source(graph, dot.DotOptions(budget=1000))
    for family in ("nn", "gradient", "training", "state"):
        assert f">{family}<" in source


def test_two_cpu_partitions_one_cluster_per_device_with_send_recv_pairs():
    run = load_run("runs/two_cpu.pb")
    source = _source(run, dot.DotOptions(color="device"))
    devices = sorted(graph.node[0].device for graph in run.partition_graphs)
    palette = dot.styles.device_palette(devices)
    for device in devices:
        line, fill = palette[device]
        assert f'subgraph "cluster_{device}:" {{' in source
        assert f'fillcolor="{fill}" id="device:{device}"' in source
    nodes = {node.name: (node.op, graph.node[0].device)
             for graph in run.partition_graphs for node in graph.node}
    ids = drawn_nodes(source)
    for name, (op, device) in nodes.items():
        assert ids[name]["fillcolor"] == palette[device][1]  # coloured by device
    pairs = [(src, dst, attrs) for src, dst, attrs in drawn_edges(source)
             if nodes[src][0] == "_Send"]
    assert pairs and all(nodes[dst][0] == "_Recv" for _, dst, _ in pairs)
    for src, dst, attrs in pairs:
        assert nodes[src][1] != nodes[dst][1]
        assert attrs["color"] == palette[nodes[src][1]][0]
        assert attrs["label"].startswith("edge_")  # the rendezvous tensor_name
    assert len(pairs) == sum(1 for op, _ in nodes.values() if op == "_Recv")


def test_stats_from_the_run_overlay_a_graph_from_another_file():
    graph = load_graph("graphs/two_cpu.pb")
    costs = dot.node_costs(load_run("runs/two_cpu.pb"))
    source = _source(graph, dot.DotOptions(color="time", costs=costs))
    ids = drawn_nodes(source)
    assert "time " in ids["product"]["tooltip"]
    assert ids["product"]["fillcolor"] == dot.styles.SCALE_COLOURS[-1]  # the costliest op
    assert ">op time<" in source


@pytest.mark.needs_dot
def test_svg_node_ids_are_names_and_tooltips_the_node_summary(tmp_path):
    out = tmp_path / "counter.svg"
    dot.export(load_graph("graphs/counter.pb"), out)
    svg = out.read_text()
    assert '<g id="counter/read" class="node">' in svg
    assert 'xlink:title="counter/read&#10;op: Identity&#10;inputs: counter' in svg
    assert re.search(r'stroke-dasharray="5,2" d=', svg)  # the dashed control edge


@pytest.mark.needs_dot
def test_partition_svg_keeps_device_clusters(tmp_path):
    out = tmp_path / "two_cpu.svg"
    dot.export(load_run("runs/two_cpu.pb"), out, dot.DotOptions(color="device"))
    svg = out.read_text()
    assert svg.count('class="cluster"') >= 3  # two devices and the legend at least
    assert ">CPU:0</text>" in svg and ">CPU:1</text>" in svg
    assert "_Send" in svg and "_Recv" in svg


def test_fixture_helper_skips_with_the_missing_name():
    with pytest.raises(pytest.skip.Exception, match="no_such.pb not made yet"):
        fixture("graphs/no_such.pb")
