"""A log's lines are bounded (issue 33): a file with no newline is refused with the one error
line and exit 2, read whole, read from stdin, or followed; a real log reads as before."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parsers.errors import InputError
from parsers.vlog import bounded, read_vlog, reader

ROOT = Path(__file__).resolve().parents[2]
COUNTER = ROOT / "sample_logs" / "counter.log"


def cli(*args, stdin=None):
    done = subprocess.run([sys.executable, "-m", "inspector", "vlog", *args], cwd=ROOT,
                          stdin=stdin, capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("follow", [[], ["--follow"]])
def test_dev_zero_is_refused_in_one_line(follow):
    code, out, err = cli("/dev/zero", *follow)
    assert code == 2 and out == ""
    assert err == "error: /dev/zero: no newline in 64 MiB" + (
        "" if follow else " from byte 0") + ": not a text log\n"


@pytest.mark.parametrize("follow", [[], ["--follow"]])
def test_stdin_without_newlines_is_refused(follow):
    code, out, err = cli("-", *follow, stdin=open("/dev/zero", "rb"))
    assert code == 2 and out == "" and err.startswith("error: -: no newline in 64 MiB")
    assert "Traceback" not in err


def test_a_long_line_after_good_ones_names_where_it_starts(monkeypatch):
    monkeypatch.setattr(bounded, "MAX_LINE", 1000)
    data = COUNTER.read_bytes() + b"x" * 5000
    with pytest.raises(InputError) as raised:
        reader._read_stream(io.BytesIO(data), "big.log", None, True)
    assert raised.value.message == (f"no newline in 1000 bytes from byte {len(COUNTER.read_bytes())}"
                                    ": not a text log")


def test_lines_up_to_the_bound_read_as_before(monkeypatch):
    longest = max(len(line) for line in COUNTER.read_bytes().splitlines(keepends=True))
    expected = read_vlog(COUNTER).to_json()
    monkeypatch.setattr(bounded, "MAX_LINE", longest)
    assert read_vlog(COUNTER).to_json() == expected


def test_progress_is_reported_as_the_file_is_read():
    seen = []
    read_vlog(COUNTER, progress=lambda done, total: seen.append((done, total)))
    size = COUNTER.stat().st_size
    assert seen[-1] == (size, size) and all(0 < done <= size for done, _ in seen)
