"""What the snippet tests (test_api_snippets, test_tf1_snippets, test_breadth_snippets) check
of each snippet: run by the engine, it builds the GraphDef and prints what TensorFlow 2.21
did (tests/fixtures/engine_api/, written by tools/make_api_fixtures.py)."""

import contextlib
import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.runtime import resources
from engine.proto import graph_pb2

FIXTURES_DIR = Path(__file__).parent.parent / "fixtures" / "engine_api"


def load(file_name):
    """{snippet name: {"code", "stdout", "graph_def"}} of one fixture file."""
    return json.loads((FIXTURES_DIR / file_name).read_text())


def graph_cases(fixtures, output_only=()):
    """The snippet names to compare graphs of: those in `output_only` skipped, with its reason."""
    return [pytest.param(name, marks=pytest.mark.skip(reason=output_only[name]))
            if name in output_only else name for name in sorted(fixtures)]


def run_snippet(code):
    tf.reset_default_graph()
    # queues, readers and iterators numbered from 0, as where TensorFlow printed the names
    # (its fixture writer ran every snippet in one process: a name a snippet prints after an
    # earlier snippet's numbered resource would show a larger number there)
    resources.restart_unique_names()
    out = io.StringIO()
    # sys.stderr the interpreter's own, as where TensorFlow's fixture writer ran: tf.Print
    # writes to file descriptor 2 then, where a snippet's stderr_of reads it (the engine writes
    # to a sys.stderr a program put in place of it: engine/kernels/common.py)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(sys.__stderr__):
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


def assert_graph_def_matches(fixture, comparable=lambda graph_def: graph_def):
    """The snippet's GraphDef has TensorFlow's nodes (op, inputs, device, attrs), in its
    order; `comparable` drops from both what cannot be the same in two processes."""
    want = graph_pb2.GraphDef()
    text_format.Parse(fixture["graph_def"], want)
    _, got = run_snippet(fixture["code"])
    assert diff_nodes(comparable(want), comparable(got)) == []
    assert [n.name for n in got.node] == [n.name for n in want.node]


def assert_output_matches(fixture):
    stdout, _ = run_snippet(fixture["code"])
    assert stdout.splitlines() == fixture["stdout"].splitlines()
