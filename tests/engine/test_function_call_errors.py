"""Hostile SavedModels: a function that calls itself, a call of a function the library lacks.

Both are tests/fixtures/tf2/while_scalar with its saved_model.pb edited. Inlining such a call
would never end, and running it would recurse without end: the run fails at once with an
InvalidArgumentError saying so, inlined (function_optimization on) or not (the function
library refuses to instantiate it). TensorFlow 2.21 overflows its stack on the recursive one
(the session segfaults); on the missing one its placer fails the whole graph with
InvalidArgumentError 'Failed to find function "no_such_function" in function library', the
words the engine's inliner uses (its function runtime's own, when not inlined: NotFoundError
"Function no_such_function is not defined."). `graph-inspector run` finds both before it runs
anything and prints one line, exit 2 (bad input).
"""

import shutil
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.proto import rewriter_config_pb2, saved_model_pb2
from inspector.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tf2" / "while_scalar"
EXPECTED = np.load(FIXTURE.parent / "reference" / "while_scalar" / "expected.npz")
RewriterConfig = rewriter_config_pb2.RewriterConfig
INLINING_OFF = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=RewriterConfig(function_optimization=RewriterConfig.OFF)))


def recursive(graph_def):
    """The signature wrapper's call now calls the wrapper itself."""
    for function in graph_def.library.function:
        if function.signature.name.startswith("__inference_signature_wrapper"):
            for node in function.node_def:
                if node.op.endswith("PartitionedCall"):
                    node.attr["f"].func.name = function.signature.name


def missing(graph_def):
    for node in graph_def.node:
        if node.name == "PartitionedCall":
            node.attr["f"].func.name = "no_such_function"


def edited(tmp_path, edit):
    folder = tmp_path / edit.__name__
    shutil.copytree(FIXTURE, folder)
    saved_model = saved_model_pb2.SavedModel.FromString((folder / "saved_model.pb").read_bytes())
    edit(saved_model.meta_graphs[0].graph_def)
    (folder / "saved_model.pb").write_bytes(saved_model.SerializeToString())
    return folder


def run_signature(folder, config=None):
    with tf.Graph().as_default() as graph, tf.Session(graph=graph, config=config) as sess:
        tf.saved_model.loader.load(sess, ["serve"], str(folder))
        return sess.run("PartitionedCall:0", {"serving_default_x:0": EXPECTED["serving_default/x"]})


RECURSION = (r"Function __inference_signature_wrapper_serve_\d+ calls itself "
             r"\(__inference_signature_wrapper_serve_\d+ -> "
             r"__inference_signature_wrapper_serve_\d+\): a recursive function can be neither "
             r"inlined nor run")


@pytest.mark.parametrize("config", [None, INLINING_OFF], ids=["inlined", "not inlined"])
def test_a_function_that_calls_itself_fails_at_once(tmp_path, config):
    with pytest.raises(tf.errors.InvalidArgumentError, match=RECURSION):
        run_signature(edited(tmp_path, recursive), config)


def test_a_call_of_a_missing_function_fails_with_tensorflows_words(tmp_path):
    folder = edited(tmp_path, missing)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='Failed to find function "no_such_function" in function library'):
        run_signature(folder)
    with pytest.raises(tf.errors.NotFoundError, match="Function no_such_function is not defined"):
        run_signature(folder, INLINING_OFF)


@pytest.mark.parametrize("edit", [recursive, missing])
def test_graph_inspector_run_prints_one_line(tmp_path, capsys, edit):
    status = main(["run", str(edited(tmp_path, edit)), "--fetch", "PartitionedCall:0",
                   "--feed", "serving_default_x:0=[1.5, -2, 0.25]"])
    captured = capsys.readouterr()
    # Bad input, found before anything runs (inspector/function_calls.py): exit 2, the file named.
    assert status == 2 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {tmp_path}")
    assert ("calls itself" if edit is recursive else "'no_such_function', which the graph's "
            "library does not define") in lines[0]


def many_unused(graph_def):
    """3,000 copies of the signature wrapper that nothing calls (a library of 10^5 functions,
    56 MB, made each run copy every function into every optimizer pass: 24 s and 2.4 GB)."""
    wrapper = next(f for f in graph_def.library.function
                   if f.signature.name.startswith("__inference_signature_wrapper"))
    for number in range(3000):
        copy = graph_def.library.function.add()
        copy.CopyFrom(wrapper)
        copy.signature.name = f"unused_{number}"


def test_a_run_hands_the_optimizer_only_the_functions_it_calls(tmp_path, monkeypatch):
    from engine.optimizer import session_rewrite

    given = []

    def recording(graph_def, **options):
        given.append({f.signature.name for f in graph_def.library.function})
        return optimize(graph_def, **options)
    optimize = session_rewrite.optimize
    monkeypatch.setattr(session_rewrite, "optimize", recording)
    value = run_signature(edited(tmp_path, many_unused))
    np.testing.assert_allclose(value, EXPECTED["serving_default/total"], rtol=1e-6)
    assert any(any(name.startswith("__inference_signature_wrapper") for name in names)
               for names in given)
    assert not any(name.startswith("unused_") for names in given for name in names)
