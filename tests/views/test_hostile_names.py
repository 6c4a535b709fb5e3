"""Hostile node names (issue 18): thousands of `/` levels, backslashes, HTML-shaped names and
control characters draw as valid DOT and well-formed SVG, and the scope tree has no recursion."""

import xml.dom.minidom

import pytest

from engine.proto import graph_pb2
from views import dot
from views.graph_index import GraphIndex

DEEP = "/".join(f"s{i}" for i in range(3000))
HOSTILE = ["x\\", '<<IMG SRC="/etc/passwd"/>>', "esc\x1b[31mred", "new\nline", "nul\x00z",
           'q"uote', "a:b:c", "node", "bidi\u202eevil"]


def graph_of(names, device=""):
    graph = graph_pb2.GraphDef()
    for name in names:
        graph.node.add(name=name, op="NoOp", device=device)
    graph.node.add(name="sink", op="NoOp", input=[f"^{name}" for name in names])
    return graph


def test_deep_scope_tree_is_built_without_recursion():
    index = GraphIndex.of_graph(graph_of([DEEP, "top"]))
    root = index.scope_tree()
    assert root.count == 3
    deepest = list(root.walk())[-1]
    assert deepest.name == DEEP.rpartition("/")[0] and deepest.depth == 2999
    assert [scope.name for scope in root.walk()][:3] == ["", "s0", "s0/s1"]


@pytest.mark.parametrize("focus", [None, DEEP])
def test_deep_names_draw(focus):
    options = dot.DotOptions(focus=focus) if focus else dot.DotOptions()
    source = dot.to_source(graph_of([DEEP, "top"]), options)
    assert source.count("subgraph") <= 64 + 1  # clusters nest at most MAX_NESTING deep


@pytest.mark.needs_dot
def test_deep_names_render_to_svg():
    svg = dot.render(dot.to_source(graph_of([DEEP, "top"])), "svg")
    xml.dom.minidom.parseString(svg)


def _svg_ids(svg):
    document = xml.dom.minidom.parseString(svg)
    return {element.getAttribute("id") for element in document.getElementsByTagName("g")}


@pytest.mark.needs_dot
@pytest.mark.parametrize("device", ["", "/job:a/device:CPU:\x1b[2J0"])
def test_hostile_names_render_to_well_formed_svg(device):
    graph = graph_of(HOSTILE, device)
    svg = dot.render(dot.to_source(graph), "svg")
    assert b"\x1b" not in svg and b"\x00" not in svg
    ids = _svg_ids(svg)  # parses: well-formed XML
    # Every node keeps its own element, its id the name with controls written as escapes.
    for expected in ["x\\", '<<IMG SRC="/etc/passwd"/>>', "esc\\x1b[31mred", "new\\nline",
                     'q"uote', "a:b:c", "node", "bidi\\u202eevil"]:
        assert expected in ids
    edges = [title for title in ids if title.startswith("edge")]
    assert len(edges) == len(HOSTILE)  # every edge reached its node (no `:` read as a port)


@pytest.mark.needs_dot
def test_hostile_names_in_a_partition_view_keep_their_edges():
    parts = [graph_of(["a:1", "b\\"], "/job:localhost/replica:0/task:0/device:CPU:0"),
             graph_of(["c"], "/job:localhost/replica:0/task:0/device:CPU:1")]
    source = dot.to_source(parts, dot.DotOptions(collapse=0))
    svg = dot.render(source, "svg")
    ids = _svg_ids(svg)
    assert not any(i.startswith("node") for i in ids)  # no stray nodes made from edge ends
