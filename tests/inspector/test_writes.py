"""Every command's writes: whole or not at all, never over an input, paths checked first."""

import errno
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inspector import cli
from views import outputs

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ROOT / "tests/fixtures/graphs/counter.pb"
BIG_GRAPH = ROOT / "tests/fixtures/graphs/cnn_train.pb"   # its .dot is 70 kB
TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"
LOG = ROOT / "sample_logs/mlp_train.log"
OLD = b"the old output, which a failed write must leave as it was\n"


def run(capsys, *argv):
    status = cli.main([*map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def no_temporaries(folder):
    return not [p for p in Path(folder).rglob("*") if p.name.endswith((".tmp", ".old"))]


class FullDisk:
    """A file object that takes `room` bytes, then fails as a full disk does."""

    def __init__(self, handle, mode, encoding=None, room=100):
        import os
        self._file = os.fdopen(handle, mode, encoding=encoding)
        self._room = room

    def write(self, data):
        if len(data) > self._room:
            self._file.write(data[:self._room])
            self._file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        self._room -= len(data)
        return self._file.write(data)

    def __getattr__(self, name):
        return getattr(self._file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self._file.close()


@pytest.fixture
def full_disk(monkeypatch):
    monkeypatch.setattr(outputs, "_fdopen", FullDisk)


WRITERS = {
    "dot": lambda tmp, out: ["dot", GRAPH, "-o", out],
    "trace": lambda tmp, out: ["trace", TWO_CPU_RUN, "-o", out],
    "run --trace": lambda tmp, out: ["run", GRAPH, "--target", "init", "--trace", out],
    "run --save": lambda tmp, out: ["run", GRAPH, "--before", "init", "--fetch", "Add:0",
                                    "--save", out],
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_failed_write_leaves_the_old_file_byte_identical(capsys, tmp_path, full_disk, writer):
    out = tmp_path / "out.dot"
    out.write_bytes(OLD)
    status, _, stderr = run(capsys, *WRITERS[writer](tmp_path, out))
    assert status == 2
    assert stderr == f"error: {out}: cannot write: No space left on device\n"
    assert out.read_bytes() == OLD
    assert no_temporaries(tmp_path)


def test_vlog_out_dir_stops_at_a_failed_write(capsys, tmp_path, full_disk):
    status, _, stderr = run(capsys, "vlog", LOG, "-o", tmp_path / "out")
    assert status == 2 and stderr.startswith("error: ") and stderr.count("\n") == 1
    assert "cannot write: No space left on device" in stderr
    assert no_temporaries(tmp_path)


def test_tensorboard_keeps_the_old_run_when_a_write_fails(capsys, tmp_path, monkeypatch):
    assert run(capsys, "tensorboard", GRAPH, "--logdir", tmp_path)[0] == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "counter.pb").iterdir()}
    from engine.summary import record_writer

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record_writer.RecordWriter, "write", full)
    status, _, stderr = run(capsys, "tensorboard", GRAPH, "--logdir", tmp_path)
    assert status == 2
    assert stderr == f"error: {tmp_path / 'counter.pb'}: cannot write: No space left on device\n"
    assert {p.name: p.read_bytes() for p in (tmp_path / "counter.pb").iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter.pb"]


def test_a_failed_tensorboard_leaves_no_log_folder_it_made(capsys, tmp_path, monkeypatch):
    from engine.summary import record_writer

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record_writer.RecordWriter, "write", full)
    logdir = tmp_path / "logs"
    status, _, stderr = run(capsys, "tensorboard", GRAPH, "--logdir", logdir)
    assert status == 2 and "cannot write: No space left on device" in stderr
    assert list(tmp_path.iterdir()) == []  # the log folder it made is not left behind
    logdir.mkdir()  # a folder that was there stays, empty as it was
    assert run(capsys, "tensorboard", GRAPH, "--logdir", logdir)[0] == 2
    assert [p.name for p in tmp_path.iterdir()] == ["logs"] and list(logdir.iterdir()) == []


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux prlimit")
@pytest.mark.parametrize("argv", [
    ["dot", BIG_GRAPH, "-o", "{out}"],
    ["trace", ROOT / "sample_logs/mlp_train.log", "-o", "{out}"],
])
def test_a_file_size_limit_leaves_the_old_file_byte_identical(tmp_path, argv):
    """A real failing write: the kernel refuses past 4 KiB (EFBIG)."""
    out = tmp_path / "out.dot"
    out.write_bytes(OLD)
    done = subprocess.run(["prlimit", "--fsize=4096", sys.executable, "-m", "inspector",
                           *[str(a).format(out=out) for a in argv]],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"error: {out}: cannot write: File too large\n"
    assert out.read_bytes() == OLD
    assert no_temporaries(tmp_path)


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux prlimit")
def test_vlog_out_dir_under_a_file_size_limit_leaves_no_truncated_file(tmp_path):
    done = subprocess.run(["prlimit", "--fsize=4096", sys.executable, "-m", "inspector", "vlog",
                           str(LOG), "-o", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "cannot write: File too large" in done.stderr and done.stderr.count("error:") == 1
    assert no_temporaries(tmp_path)
    # the run takes back what it wrote, and the directory it made
    assert not (tmp_path / "out").exists()


def test_vlog_out_dir_that_fails_keeps_what_was_there_before(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    done = subprocess.run(["prlimit", "--fsize=4096", sys.executable, "-m", "inspector", "vlog",
                           str(LOG), "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "cannot write: File too large" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "mine\n"


# ---- an output equal to an input ---------------------------------------------------------------

def test_output_equal_to_an_input_is_refused(capsys, tmp_path):
    graph = tmp_path / "g.pb"
    graph.write_bytes(GRAPH.read_bytes())
    run_file = tmp_path / "r.pb"
    run_file.write_bytes(TWO_CPU_RUN.read_bytes())
    text_graph = tmp_path / "g.pbtxt"
    text_graph.write_text((ROOT / "tests/fixtures/graphs/counter.pbtxt").read_text())
    svg = tmp_path / "g.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    dot_graph = tmp_path / "g.dot"
    dot_graph.write_bytes(GRAPH.read_bytes())  # a GraphDef, whatever its name says
    cases = [
        (["dot", svg, "-o", svg], svg),  # refused before the input is even read
        (["dot", dot_graph, "-o", tmp_path / "." / "g.dot"], tmp_path / "." / "g.dot"),
        (["dot", graph, "--stats", dot_graph, "-o", dot_graph], dot_graph),
        (["run", text_graph, "--target", "init", "--trace", text_graph], text_graph),
        (["run", graph, "--fetch", "Add:0", "--save", graph], graph),
        (["trace", run_file, "-o", run_file], run_file),
    ]
    for argv, out in cases:
        before = Path(out).read_bytes()
        status, stdout, stderr = run(capsys, *argv)
        assert (status, stdout) == (2, ""), argv
        assert stderr == f"error: {out}: the output is the input file; choose another output\n"
        assert Path(out).read_bytes() == before


def test_a_hard_link_to_the_input_is_the_input(capsys, tmp_path):
    graph = tmp_path / "g.pb"
    graph.write_bytes(GRAPH.read_bytes())
    (tmp_path / "link.dot").hardlink_to(graph)
    status, _, stderr = run(capsys, "dot", graph, "-o", tmp_path / "link.dot")
    assert status == 2 and "the output is the input file" in stderr


# ---- paths checked before any work -------------------------------------------------------------

def test_a_trace_into_a_missing_directory_fails_before_the_run(capsys, tmp_path):
    missing = tmp_path / "nonexistent" / "t.pb"
    status, stdout, stderr = run(capsys, "run", GRAPH, "--before", "init", "--fetch", "Add:0",
                                 "--trace", missing)
    assert (status, stdout) == (2, "")  # nothing ran: no values printed
    assert stderr == f"error: {missing}: no such directory: {missing.parent}\n"


def test_save_writes_exactly_the_named_file(capsys, tmp_path):
    out = tmp_path / "values"  # numpy.savez alone would write values.npz
    status, _, stderr = run(capsys, "run", GRAPH, "--before", "init", "--fetch", "Add:0",
                            "--save", out)
    assert status == 0, stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["values"]
    assert np.load(out)["Add:0"] == 1
    status, stdout, stderr = run(capsys, "run", GRAPH, "--fetch", "Add:0", "--save", tmp_path)
    assert (status, stdout) == (2, "")
    assert stderr == f"error: {tmp_path}: is a directory; give a file name\n"


def test_stdout_only_where_the_format_allows(capsys, tmp_path):
    status, stdout, stderr = run(capsys, "run", GRAPH, "--fetch", "Add:0", "--trace", "-")
    assert (status, stdout) == (2, "")
    assert stderr == "error: -: cannot write this to stdout: stdout carries the fetched values\n"
    status, _, stderr = run(capsys, "vlog", LOG, "-o", "-")
    assert status == 2 and stderr == "error: -: a directory is needed here, not stdout\n"
    status, _, stderr = run(capsys, "tensorboard", GRAPH, "--logdir", "-")
    assert status == 2 and stderr == "error: -: a directory is needed here, not stdout\n"
    assert not (Path.cwd() / "-").exists()


def test_new_files_get_the_usual_permissions(capsys, tmp_path):
    import os
    out = tmp_path / "g.dot"
    assert run(capsys, "dot", GRAPH, "-o", out)[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    out.chmod(0o640)
    assert run(capsys, "dot", GRAPH, "-o", out)[0] == 0
    assert out.stat().st_mode & 0o777 == 0o640  # a replaced file keeps its mode


def test_devices_are_written_in_place_and_links_followed(capsys, tmp_path):
    assert run(capsys, "trace", TWO_CPU_RUN, "-o", "/dev/null")[0] == 0
    assert Path("/dev/null").is_char_device()
    real = tmp_path / "real.json"
    real.write_bytes(OLD)
    (tmp_path / "link.json").symlink_to(real)
    assert run(capsys, "trace", TWO_CPU_RUN, "-o", tmp_path / "link.json")[0] == 0
    assert (tmp_path / "link.json").is_symlink() and real.read_bytes().startswith(b"{")


def test_two_outputs_naming_one_file_are_refused(capsys, tmp_path):
    out = tmp_path / "both"
    status, stdout, stderr = run(capsys, "run", GRAPH, "--before", "init", "--fetch", "Add:0",
                                 "--save", out, "--trace", out)
    assert (status, stdout) == (2, "")
    assert stderr == f"error: {out}: --save and --trace name the same file\n"
    assert not out.exists()


@pytest.mark.parametrize("flag, words", [(0, "permission denied"), (1, "read-only file system")])
def test_an_unwritable_folder_says_whether_it_is_mounted_read_only(capsys, tmp_path, monkeypatch,
                                                                   flag, words):
    # `mount -o ro` gave 'permission denied', which no chmod fixes (found on a read-only tmpfs)
    import os
    from types import SimpleNamespace

    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if os.fspath(path) == str(tmp_path)
                        else real_access(path, mode))
    monkeypatch.setattr(os, "statvfs", lambda path: SimpleNamespace(f_flag=os.ST_RDONLY * flag))
    status, out, err = run(capsys, "dot", GRAPH, "-o", tmp_path / "g.dot")
    assert (status, out) == (2, "")
    assert err == f"error: {tmp_path / 'g.dot'}: cannot write in {tmp_path} ({words})\n"
    status, _, err = run(capsys, "vlog", LOG, "-o", tmp_path)
    assert err == f"error: {tmp_path}: not writable ({words})\n"
    assert list(tmp_path.iterdir()) == []
