"""views/body_search.py: finding a node in a TF2 SavedModel's graph and every function body,
counted against TensorFlow's own account of the bodies (tests/fixtures/tf2/reference/)."""

import json
import re
from pathlib import Path

import pytest

import parsers
from views.body_search import BodySearch, Hit

TF2 = Path(__file__).resolve().parents[1] / "fixtures" / "tf2"
QUERIES = ("ReadVariableOp", "^while/add", "Identity_1$", "conv", "_Arg")


def tensorflows_nodes(model):
    """(graph label, node name, op) of the top-level graph and every function, from
    functions.json: a body's arguments, its nodes, a `<output>_RetVal` per output."""
    [meta] = json.loads((TF2 / "reference" / model / "functions.json").read_text())["meta_graphs"]
    rows = [("serve", name, op) for name, op, _ in meta["graph_nodes"]]
    for function in meta["functions"]:
        label = f"function {function['name']}"
        rows += [(label, name, "_Arg") for name, _ in function["input_arg"]]
        rows += [(label, name, op) for name, op in function["nodes"]]
        rows += [(label, f"{name}_RetVal", "_Retval") for name, _ in function["output_arg"]]
    return rows


@pytest.mark.parametrize("model", ["while_cond", "keras_cnn", "tf_keras_mlp"])
@pytest.mark.parametrize("query", QUERIES)
def test_finds_what_tensorflows_bodies_hold(model, query):
    search = BodySearch(parsers.load(TF2 / model).functions, "serve")
    flags = 0 if any(ch.isupper() for ch in query) else re.IGNORECASE
    pattern = re.compile(query, flags)
    expected = {(graph, name) for graph, name, op in tensorflows_nodes(model)
                if pattern.search(name) or pattern.search(op)}
    found = search.find(query)
    assert {(hit.graph, hit.node) for hit in found} == expected
    assert len(found) == len(expected)


def test_whole_name_matches_come_first_and_hits_group_by_graph():
    search = BodySearch(parsers.load(TF2 / "while_cond").functions, "serve")
    found = search.find("while/cond")
    assert found[0] == Hit("function while_body_13", "while/cond")
    grouped = search.by_graph(found)
    assert list(grouped)[0] == "function while_body_13"
    assert search.summary(found) == f"{len(found)} matches in {len(grouped)} functions"
    assert search.summary(search.find("saver_filename")) == "1 match in the graph"
    assert search.summary(search.find("nothing here")) == "0 matches"


def test_every_function_of_the_library_is_searched_those_reached_first():
    library = parsers.load(TF2 / "tf_keras_mlp").functions
    search = BodySearch(library, "serve")
    reached = [f.label for f in library.reached_from("serve")]
    assert search.graphs[:len(reached) + 1] == ["serve"] + reached
    assert sorted(search.graphs[1:]) == sorted(f.label for f in library)
