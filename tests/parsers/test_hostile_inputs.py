"""Hostile inputs (issue 18): non-regular files, huge words, names that would drive a terminal.
One `error:` line, exit 2, short and printable; never a hang or a traceback."""

import os
import shutil

import pytest

import parsers
from parsers_testing import FIXTURES

GRAPH_PB = FIXTURES / "parsers" / "functions.pb"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_character_devices_are_refused_unread(device, run_info):
    code, out, err = run_info(device)
    assert (code, out) == (2, "")
    assert err == f"error: {device}: not a regular file (a character device); give a file or directory\n"


@pytest.mark.timeout(20)
def test_a_named_pipe_is_refused_without_blocking(tmp_path, run_info):
    pipe = tmp_path / "pipe.pb"
    os.mkfifo(pipe)  # nobody writes it: opening it to read would block forever
    code, _, err = run_info(pipe)
    assert code == 2 and err == f"error: {pipe}: not a regular file (a named pipe); give a file or directory\n"


def test_a_huge_leading_word_is_quoted_as_an_excerpt(tmp_path, run_info):
    path = tmp_path / "word.pbtxt"
    path.write_text("w" * 10_000_000 + " { }\n")
    code, _, err = run_info(path)
    assert code == 2 and len(err) < 400
    assert "(10000000 characters)" in err and err.count("\n") == 1


def test_control_characters_in_a_path_cannot_reach_the_terminal(tmp_path, run_info):
    path = tmp_path / "evil\n\x1b[2Jname.pb"
    path.write_bytes(b"garbage")
    code, _, err = run_info(path)
    assert code == 2 and "\x1b" not in err and err.count("\n") == 1
    assert "evil\\n\\x1b[2Jname.pb: " in err


def test_control_characters_in_a_file_name_are_escaped_in_the_summary(tmp_path, run_info):
    path = tmp_path / "evil\x1b[31m.pb"
    shutil.copy(GRAPH_PB, path)
    code, out, _ = run_info(path)
    assert code == 0 and "\x1b" not in out and "evil\\x1b[31m.pb" in out


def test_input_error_messages_are_capped():
    error = parsers.InputError("x.pb", "word " * 100_000)
    assert len(str(error)) < 1100 and str(error).endswith("(500000 characters)")
