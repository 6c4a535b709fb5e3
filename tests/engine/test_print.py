"""tf.print and tf.strings.format against TensorFlow 2.21: the bytes each program writes to
file descriptors 1 and 2 and to a "file://" stream, the nodes the API builds (names and op
types), the formatted strings and their static shapes, and the errors for bad input
(tests/fixtures/print/print.json, tools/make_print_fixtures.py)."""

import json
import os
import sys
from pathlib import Path

import pytest

import engine as tf
import print_cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "print"
                      / "print.json").read_text())


@pytest.mark.parametrize("name", sorted(print_cases.CASES))
def test_printed_bytes_and_nodes_are_tensorflows(name, tmp_path):
    got = print_cases.run_case(tf, name, str(tmp_path))
    want = FIXTURE["print"][name]
    for key in ("stdout", "stderr", "file", "nodes"):
        assert got[key] == want[key], key


def test_a_file_stream_appends_run_after_run(tmp_path):
    path = tmp_path / "log.txt"
    with tf.Graph().as_default():
        print_op = tf.print("step", tf.constant([1, 2]), output_stream=f"file://{path}")
        with tf.Session() as sess:
            sess.run(print_op)
            sess.run(print_op)
    assert path.read_bytes() == b"step [1 2]\nstep [1 2]\n"


@pytest.mark.parametrize("name", sorted(print_cases.FORMAT_CASES))
def test_string_format_is_tensorflows(name):
    assert print_cases.run_format_case(tf, name) == FIXTURE["format"][name]


@pytest.mark.parametrize("name", sorted(print_cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert print_cases.run_error(tf, name) == FIXTURE["errors"][name]


@pytest.mark.parametrize("level", print_cases.LOG_LEVELS)
def test_logging_streams_are_tensorflows_log_lines(level):
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(repo))
    got = print_cases.run_log_program(sys.executable, "import engine as tf", level, env)
    assert got == FIXTURE["log_levels"][level]


def test_a_program_that_put_its_own_streams_in_sys_gets_the_text_there(monkeypatch):
    """The debugger's program-output pane (and a notebook) replace sys.stdout and sys.stderr:
    tf.print and tf.Print then write there, not under the TUI onto the terminal."""
    import io
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    tf.reset_default_graph()
    x = tf.constant([1.5, 2.0])
    printed = tf.print("x:", x, output_stream=sys.stdout)
    logged = tf.print("to stderr", x)
    passed = tf.Print(x, [x], message="old print: ")
    with tf.Session() as sess:
        sess.run([printed, logged, passed])
    assert out.getvalue() == "x: [1.5 2]\n"
    assert sorted(err.getvalue().splitlines()) == ["old print: [1.5 2]", "to stderr [1.5 2]"]
