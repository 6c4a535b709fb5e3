"""`graph-inspector run`: GraphDef fixtures TensorFlow wrote, run in the engine."""

import io
from pathlib import Path

import numpy as np
import pytest

from engine.proto import config_pb2
from inspector.cli import main
from inspector.npy_files import read_npy

GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_before_ops_then_fetch(capsys):
    status, out, err = run(capsys, "run", str(GRAPHS / "counter.pb"), "--before", "init",
                           "--fetch", "Assign:0")
    assert (status, out, err) == (0, "Assign:0 = 1\n", "")


def test_json_feed_and_text_graph(capsys):
    status, out, _ = run(capsys, "run", str(GRAPHS / "placeholder_square.pbtxt"),
                         "--feed", "Placeholder:0=[1, 2, 3]", "--fetch", "Square:0")
    assert status == 0
    assert out == "Square:0 = [1. 4. 9.]\n"


def test_npy_feed_trace_and_save(capsys, tmp_path):
    feed = tmp_path / "x.npy"
    np.save(feed, np.array([0.0, 0.0, 5.0], dtype=np.float32))
    trace, saved = tmp_path / "run.pbtxt", tmp_path / "values.npz"
    status, out, _ = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"),
                         "--feed", f"Placeholder={feed}", "--fetch", "Square:0",
                         "--trace", str(trace), "--save", str(saved))
    assert status == 0 and out == "Square:0 = [ 0.  0. 25.]\n"
    from google.protobuf import text_format
    metadata = text_format.Parse(trace.read_text(), config_pb2.RunMetadata())
    (device,) = metadata.step_stats.dev_stats
    names = [s.node_name for s in device.node_stats]
    assert names[0] == "_SOURCE" and "Square" in names and "_retval_Square_0_0" in names
    assert len(metadata.partition_graphs) == 1
    np.testing.assert_array_equal(np.load(saved)["Square:0"], [0.0, 0.0, 25.0])


def test_binary_trace(capsys, tmp_path):
    trace = tmp_path / "run.pb"
    status, _, _ = run(capsys, "run", str(GRAPHS / "matmul_softmax.pb"), "--before",
                       "w/Assign", "--fetch", "Softmax:0", "--trace", str(trace))
    assert status == 0
    metadata = config_pb2.RunMetadata.FromString(trace.read_bytes())
    assert {s.node_name for s in metadata.step_stats.dev_stats[0].node_stats} >= {
        "MatMul", "Softmax", "w", "w/read", "x"}


def test_failing_graph_is_one_line_naming_node_op_and_place(capsys):
    status, out, err = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"),
                           "--fetch", "Square:0")
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: InvalidArgumentError: node 'Placeholder' (Placeholder)")
    assert "You must feed a value for placeholder tensor 'Placeholder'" in err
    # The line of the program that made it (from the GraphDef's debug_info), not TF's library.
    assert ", defined at tests/programs/placeholder_square.py:7:" in err


def test_uninitialised_variable_fails_with_exit_1(capsys):
    status, _, err = run(capsys, "run", str(GRAPHS / "counter.pb"), "--fetch", "Assign:0")
    assert status == 1
    assert "FailedPreconditionError" in err and "uninitialized value counter" in err


@pytest.mark.parametrize("argv, message", [
    (["--fetch", "nope:0"], "nope"),
    (["--fetch", "Square:0", "--feed", "Placeholder:0"], "expected NAME=FILE.npy or NAME=JSON"),
    (["--fetch", "Square:0", "--feed", "Placeholder:0=[1,"], "not a .npy file or JSON value"),
    (["--fetch", "Square:0", "--feed", "Placeholder:0=[1, 2]"], "Cannot feed value of shape"),
    ([], "nothing to run"),
])
def test_bad_input_is_exit_2_and_one_line(capsys, argv, message):
    status, _, err = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"), *argv)
    assert status == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_a_feed_file_is_a_npy_array_or_json(capsys, tmp_path):
    as_json, as_npy = tmp_path / "x.json", tmp_path / "x.npy"
    as_json.write_text("[1.5, -2.0, 3.0]")
    np.save(as_npy, np.array([1.5, -2.0, 3.0], np.float32))
    for feed in (as_json, as_npy):
        status, out, _ = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"), "--fetch",
                             "Square:0", "--feed", f"Placeholder:0={feed}")
        assert status == 0 and "2.25" in out and "9." in out


@pytest.mark.parametrize("content, message", [
    (b"[1.5, -2", "neither a .npy array nor JSON"),
    (b"\x93NUMPY\x01\x00garbage", "a damaged .npy header"),
    (b"\xff\xfe binary", "neither a .npy array nor JSON"),
    (b"[" * 100000 + b"]" * 100000, "neither a .npy array nor JSON (nested too deeply)"),
    (None, "No such file or directory"),
])
def test_a_bad_feed_file_is_named_in_one_line(capsys, tmp_path, content, message):
    feed = tmp_path / "input.json"
    if content is not None:
        feed.write_bytes(content)
    status, _, err = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"), "--fetch",
                         "Square:0", "--feed", f"Placeholder:0={feed}")
    assert status == 2
    assert err.startswith(f"error: {feed}: cannot read the feed for Placeholder:0")
    assert message in err and err.count("\n") == 1


def npy_bytes(descr, shape, data=b"", fortran=False):
    """A .npy file's bytes under a header written as NumPy writes it (any header, any data)."""
    header = {"descr": descr, "fortran_order": fortran, "shape": shape}
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, header)
    return stream.getvalue() + data


@pytest.mark.parametrize("content, message", [
    (npy_bytes("<f4", (50000, 50000, 1000), b"\0" * 16),  # 10 TB declared: not allocated
     "its .npy header declares 50000x50000x1000 float32 (10000000000000 bytes), the file "
     "holds 16 bytes after the header (truncated?)"),
    (npy_bytes("<f4", (3,), b"\0" * 10), "declares 3 float32 (12 bytes), the file holds 10 "
                                          "bytes after the header (truncated?)"),
    (npy_bytes("<f4", (3,), b"\0" * 16), "declares 3 float32 (12 bytes), the file holds 16 "
                                          "bytes after the header"),
    (npy_bytes("<f4", (-1, 3), b"\0" * 12), "its .npy header declares a negative dimension"),
    (npy_bytes("|O", (1,), b"\x80\x04N."), "a .npy array of Python objects (a pickle): never loaded"),
    (npy_bytes([("a", "<f4"), ("b", "|O")], (1,), b"\0" * 16), "(a pickle): never loaded"),
    (npy_bytes("<f4", (3,))[:20], "a damaged .npy header (EOF"),
])
def test_a_npy_feed_is_checked_against_its_header_before_it_is_read(capsys, tmp_path, content,
                                                                     message):
    feed = tmp_path / "input.npy"
    feed.write_bytes(content)
    status, _, err = run(capsys, "run", str(GRAPHS / "placeholder_square.pb"), "--fetch",
                         "Square:0", "--feed", f"Placeholder:0={feed}")
    assert status == 2, err
    assert err.startswith(f"error: {feed}: cannot read the feed for Placeholder:0: ")
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("array", [np.arange(6, dtype="<f4").reshape(2, 3),
                                   np.asfortranarray(np.arange(6, dtype=">i8").reshape(2, 3)),
                                   np.array(["ab", "c"]), np.float64(2.5)])
def test_a_npy_feed_reads_as_np_load_reads_it(tmp_path, array):
    path = tmp_path / "input.npy"
    np.save(path, array)
    with open(path, "rb") as file:
        value = read_npy(file)
    expected = np.load(path, allow_pickle=False)
    assert value.dtype == expected.dtype and value.flags.writeable
    np.testing.assert_array_equal(value, expected)


def test_not_a_graph_is_exit_2(capsys, tmp_path):
    bogus = tmp_path / "bogus.pb"
    bogus.write_bytes(b"\xff\xff\xff not a protobuf")
    status, _, err = run(capsys, "run", str(bogus), "--fetch", "x:0")
    assert status == 2 and err.startswith(f"error: {bogus}")


def test_fetching_an_op_name_gives_its_first_output_and_an_op_without_outputs_runs(capsys):
    status, out, _ = run(capsys, "run", str(GRAPHS / "placeholder_square.pbtxt"),
                         "--feed", "Placeholder:0=[1, 2, 3]", "--fetch", "Square")
    assert (status, out) == (0, "Square:0 = [1. 4. 9.]\n")
    status, out, _ = run(capsys, "run", str(GRAPHS / "counter.pb"), "--fetch", "init")
    assert (status, out) == (0, "init: ran\n")
    status, out, _ = run(capsys, "run", str(GRAPHS / "counter.pb"), "--before", "init",
                         "--fetch", "Assign")
    assert (status, out) == (0, "Assign:0 = 1\n")
