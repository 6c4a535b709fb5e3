"""Each TF1 snippet (api_snippets.py) builds the GraphDef and prints what TensorFlow 2.21 did."""

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.proto import graph_pb2

FIXTURES = json.loads((Path(__file__).parent.parent / "fixtures" / "engine_api" /
                       "snippets.json").read_text())


def run_snippet(code):
    tf.reset_default_graph()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"tf": tf, "np": np})
    return out.getvalue(), tf.get_default_graph().as_graph_def(include_debug_info=False)


def node_summary(graph_def):
    return [(n.name, n.op, list(n.input), n.device,
             {k: v.SerializeToString(deterministic=True) for k, v in n.attr.items()})
            for n in graph_def.node]


def diff_nodes(want, got):
    want_nodes = {n[0]: n for n in node_summary(want)}
    got_nodes = {n[0]: n for n in node_summary(got)}
    problems = []
    for name in want_nodes.keys() | got_nodes.keys():
        a, b = want_nodes.get(name), got_nodes.get(name)
        if a is None or b is None:
            problems.append(f"{name}: {'missing' if b is None else 'extra'}")
            continue
        if a[1:4] != b[1:4]:
            problems.append(f"{name}: want {a[1:4]} got {b[1:4]}")
        for key in a[4].keys() | b[4].keys():
            if a[4].get(key) != b[4].get(key):
                problems.append(f"{name}: attr {key} want {a[4].get(key)!r} got {b[4].get(key)!r}")
    return sorted(problems)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_graph_def_matches_tensorflow(name):
    fixture = FIXTURES[name]
    want = graph_pb2.GraphDef()
    text_format.Parse(fixture["graph_def"], want)
    _, got = run_snippet(fixture["code"])
    assert diff_nodes(want, got) == []
    assert [n.name for n in got.node] == [n.name for n in want.node]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_output_matches_tensorflow(name):
    fixture = FIXTURES[name]
    stdout, _ = run_snippet(fixture["code"])
    assert stdout.splitlines() == fixture["stdout"].splitlines()
