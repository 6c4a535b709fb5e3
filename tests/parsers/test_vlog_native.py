"""The C scanner (parsers.vlog._scanner) reads every log as the pure-Python reader does.

The same VlogLog (graphs, executions, events, line and unparsed counts) and the same `--json`
bytes, on the sample logs, mixes of them, damaged and hostile logs; its prefix matchers agree
with the regexes they stand for, its JSON with json.dumps; and without it (not compiled, or
GRAPH_INSPECTOR_VLOG_NATIVE=off) the package reads logs the reference way.
"""

import io
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.errors import InputError
from parsers.vlog import bounded, native, prefix, reader
from parsers.vlog.executor_trace import PROCESS_LINE
from parsers.vlog.model import Execution, ExecutedNode, GraphDump

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_logs").glob("*.log"))
scanner = native.scanner
needs_scanner = pytest.mark.skipif(
    scanner is None, reason="parsers.vlog._scanner is not built here (no C compiler at install)")


def read_with_scanner(path, events=True):
    """The log as the scanner reads it; fails where it declined to."""
    parser = reader.VlogParser(str(path), keep_events=events)
    with open(path, "rb") as stream:
        assert native.feed_file(parser, stream, reader.CACHE_LIMIT), "the scanner declined"
    return parser.close()


def read_reference(path, events=True):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(native, "scanner", None)
        return reader.read_vlog(path, events=events)


def json_bytes(log, scanner_writes):
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        if not scanner_writes:
            patch.setattr(native, "scanner", None)
        log.write_json(out)
    return out.buffer.getvalue()


def assert_same(path, events=True):
    fast, reference = read_with_scanner(path, events), read_reference(path, events)
    assert (fast.lines, fast.unparsed_lines) == (reference.lines, reference.unparsed_lines)
    assert list(fast.event_counts.items()) == list(reference.event_counts.items())
    assert fast.event_rows == reference.event_rows
    assert len(fast.graphs) == len(reference.graphs)
    for ours, theirs in zip(fast.graphs, reference.graphs):
        assert ours == theirs, theirs.first_line
    assert len(fast.executions) == len(reference.executions)
    for ours, theirs in zip(fast.executions, reference.executions):
        assert ours == theirs, theirs.first_line
    assert fast == reference
    expected = json_bytes(reference, scanner_writes=False)
    assert json_bytes(fast, scanner_writes=True) == expected
    assert json.loads(expected) == reference.to_json()
    return fast


@needs_scanner
@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.stem)
@pytest.mark.parametrize("events", [True, False], ids=["events kept", "events counted"])
def test_every_sample_log_reads_the_same(path, events):
    log = assert_same(path, events)
    assert log.graphs and log.lines


def write(tmp_path, data, name="mix.log"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def all_samples(order=1):
    return b"".join(path.read_bytes() for path in SAMPLES[::order])


@needs_scanner
@pytest.mark.parametrize("order", [1, -1], ids=["in order", "reversed"])
def test_mixes_of_the_samples_read_the_same(tmp_path, order):
    assert_same(write(tmp_path, all_samples(order) * 2))


@needs_scanner
def test_crlf_no_trailing_newline_and_nul_bytes(tmp_path):
    data = all_samples()
    assert_same(write(tmp_path, data.replace(b"\n", b"\r\n"), "crlf.log"))
    assert_same(write(tmp_path, data.rstrip(b"\n"), "open_end.log"))
    nul = data.replace(b"] ||", b"] |\0|").replace(b"node: 1", b"node: \x001")
    assert_same(write(tmp_path, nul, "nul.log"))
    assert_same(write(tmp_path, b"\n\n\r\n  \t\n", "blank.log"))
    assert_same(write(tmp_path, b"x", "one_byte.log"))


# Lines at every edge the scanner decides on, each between real lines.
HOSTILE = [
    b"I0129 12:00:00.123456 77 executor.cc:1] Process node: 1 step 3 {{node c}} = Const[]() device: /device:CPU:0",
    b"I0229 23:59:59.999999 77 executor.cc:1] Process node: 1 step 3 {{node c}} = Const[]() device: /device:CPU:0",
    b"I1345 00:00:01.000001 77 executor.cc:1] Process node: 2 step 3 {{node d}} = Const[]() device: /device:CPU:0",
    b"I0000 00:00:99999999999999999999.000001 77 executor.cc:1] Process node: 3 step 3 {{node e}} = NoOp() device: /d:0",
    b"I0000 00:00:1.0000001 77 executor.cc:1] Process node: 3 step 3 {{node e}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 777777777777777777777777 executor.cc:1] Process node: 3 step 3 {{node e}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: 99999999999999999999999 step -4 {{node f}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: 4 step -99999999999999999999 {{node f}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 executor.cc:1] Process node: 5 step 1 {{node g}} = NoOp() is dead device: /d:0",
    b"I0000 00:00:1.000001    8 executor.cc:1] Async kernel done: 5 step 1 {{node g}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000002 8 executor.cc:1] Synchronous kernel done: 4 step -4 ",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: 6 step 1 {{node \xff\xfeh}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: 7 step 1 {{node i}} = NoOp() device: /d:0 trailing",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: 0 step 1 {{node _SOURCE}} = NoOp[]() device: /d:0",
    b"I0000 00:00:1.000001 7 a:b:c.cc:1] Process node: 8 step 1 {{node j}} = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 7 :1] Process node: 8 step 1 {{node j}} = NoOp() device: /d:0",
    b"2018-01-29 12:00:00.123456: I tensorflow/core/common_runtime/executor.cc:879] Process node: 9 step 2 k = NoOp() device: /d:0",
    b"2018-01-29 12:00:00.123457: I 55 tensorflow/x.cc:1] Synchronous kernel done: 9 step 2 k = NoOp() device: /d:0",
    b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph \x1cLabel\xa0  #nodes 3 #edges 2",
    b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph \x1c\x1fLabel \x1e #nodes 3 #edges 2",
    b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph caf\xc3\xa9 \xff #nodes 3 #edges 2",
    b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph  #nodes 3 #edges 2",
    b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph \t\x0b #nodes 3 #edges 2",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] || (n1:float@CPU:0) -> (n3:float@CPU:0) {",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] ||   n3 = Neg[T=float, device=CPU:0](n1)",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] ||   n4 = \xc3\x28[T=float, device=CPU:0](n1)",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] ||   ",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] ||  \t ",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] ||}",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] || }",
    b"I0000 00:00:1.000001 7 function_utils.cc:82] || }",
    b"I0000 00:00:1.000001 9 function.cc:82] Instantiate function definition: name=__inference_f_12 #nodes",
    b"|| (n1:int32@CPU:0) -> () {",
    b"||   n1 = NoOp()",
    b"|| }",
    b"I0000 00:00:1.000001 7 placer.cc:1] a/b: (Add): /job:localhost/replica:0/task:0/device:CPU:0",
    b"I0000 00:00:1.000001 7 placer.cc:1] a/b: (Add): /job:x extra words",
    b"I0000 00:00:1.000001 7 placer.cc:1] Add(AddV2) placed on: /job:localhost/device:CPU:0",
    b"constant_folding: Graph size after: 4 nodes (-7), 3 edges (0), time = 0.118ms.",
    b"I0000 00:00:1.000001 7 meta_optimizer.cc:1] Running optimization phase 3",
    b"I0000 00:00:1.000001 7 log_memory.cc:1] __LOG_MEMORY__ MemoryLogStep { step_id: 1 }",
    b"I0000 00:00:1.000001 7 x.cc:1]",
    b"I0000 00:00:1.000001 7 x.cc:1]\tno space",
    b"E0000 00:00:1.1 x.cc:1] ",
    b"W0000 00:00:1.1 12 x.cc:12]",
    b"2018-01-29 12:00:00.1: W 5 x.cc:3]",
    b"Instructions for updating:",
    b"0 2.1387668",
    b"\xff\xfe\x00\x01 binary",
    b"I0000 ",
    b"I0000 00:00:1.000001 7 executor.cc:1] Process node: ",
    b"I0000 00:00:1.000001 7 executor.cc:1] Synchronous kernel done: ",
]


@needs_scanner
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"], ids=["lf", "crlf"])
def test_hostile_lines_read_the_same(tmp_path, ending):
    rng = random.Random(35)
    real = (ROOT / "sample_logs" / "while_v2.log").read_bytes().split(b"\n")
    lines = list(real)
    for line in HOSTILE * 3:
        lines.insert(rng.randrange(len(lines) + 1), line)
    assert_same(write(tmp_path, ending.join(lines)))
    assert_same(write(tmp_path, ending.join(HOSTILE), "only.log"))


NOISE = bytes(range(256)) + b"||   {}[]()<>\"\\ @ = :,\r\n" * 4


def damage(rng, data):
    """What test_vlog_fuzz does to a log: corrupted, cut, inserted, swapped, repeated lines."""
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines))
        at = rng.randrange(len(lines[i]) + 1)
        noise = bytes(rng.choice(NOISE) for _ in range(rng.randint(0, 12)))
        lines[i] = lines[i][:at] + noise + lines[i][at + rng.randint(0, 20):]
    for _ in range(rng.randint(0, 3)):
        i = rng.randrange(len(lines))
        del lines[i:i + rng.randint(1, 12)]
    for _ in range(rng.randint(0, 4)):
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    i = rng.randrange(len(lines))
    lines[i:i] = lines[i:i + rng.randint(1, 40)]
    out = b"\n".join(lines)
    return out[:rng.randrange(len(out))] if rng.random() < 0.3 else out


@needs_scanner
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.stem)
def test_damaged_logs_read_the_same(tmp_path, path, seed):
    rng = random.Random(f"{path.name}:{seed}")
    assert_same(write(tmp_path, damage(rng, path.read_bytes())), events=seed % 2 == 0)


@needs_scanner
def test_caches_cleared_midway_read_the_same(tmp_path, monkeypatch):
    """Past reader.CACHE_LIMIT the reader clears its caches; the scanner's memos follow."""
    monkeypatch.setattr(reader, "CACHE_LIMIT", 3)
    assert_same(write(tmp_path, all_samples()))


@needs_scanner
@pytest.mark.parametrize("chunk", [1, 7, 64, 4096])
def test_lines_cut_by_the_reads_anywhere_read_the_same(tmp_path, monkeypatch, chunk):
    """The scanner reads native.CHUNK bytes at a time: a line a read cuts waits for the next
    one, and a line longer than the buffer grows it."""
    monkeypatch.setattr(native, "CHUNK", chunk)
    data = (ROOT / "sample_logs" / "while_v2.log").read_bytes() + b"z" * 9000 + b"\r\n" + b"tail"
    assert_same(write(tmp_path, data))


@needs_scanner
@pytest.mark.parametrize("chunk", [64, 1 << 20])
def test_a_line_past_the_bound_is_left_to_the_bounded_reader(tmp_path, monkeypatch, chunk):
    counter = (ROOT / "sample_logs" / "counter.log").read_bytes()
    monkeypatch.setattr(native, "CHUNK", chunk)
    monkeypatch.setattr(bounded, "MAX_LINE", 1000)
    path = write(tmp_path, counter + b"x" * 5000 + b"\n" + counter)
    parser = reader.VlogParser(str(path))
    with open(path, "rb") as stream:
        assert not native.feed_file(parser, stream, reader.CACHE_LIMIT)
        assert stream.tell() == 0  # back at its start, for the reference
    with pytest.raises(InputError) as raised:
        reader.read_vlog(path)
    assert raised.value.message == (f"no newline in 1000 bytes from byte {len(counter)}"
                                    ": not a text log")
    # A line of exactly the bound is read by the scanner, as the bounded reader reads it.
    assert_same(write(tmp_path, counter + b"y" * 1000 + b"\n" + counter, "at_bound.log"))


@needs_scanner
def test_progress_is_reported_as_the_scanner_reads(tmp_path):
    path = write(tmp_path, all_samples() * 3)
    seen = []
    reader.read_vlog(path, progress=lambda done, total: seen.append((done, total)))
    size = path.stat().st_size
    assert len(seen) > 2 and seen[-1] == (size, size)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@needs_scanner
def test_stdin_redirected_from_a_file_is_read_by_the_scanner_from_its_start(tmp_path):
    path = write(tmp_path, all_samples())
    with open(path, "rb") as stream:
        stream.readline()  # not at its start: the scanner leaves it to the stream reader
        parser = reader.VlogParser("-")
        assert not native.feed_file(parser, stream, reader.CACHE_LIMIT)
        log = reader.read_vlog(stream)
    assert log.lines == read_reference(path).lines - 1


# ---- the C matchers against the regexes they stand for ------------------------------------

# The reader's one-regex head: PROCESS_LINE up to its message.
ABSL_HEAD = re.compile(PROCESS_LINE.pattern.split(b"Process node: ")[0])
PIECES = [b"I", b"W", b"E", b"F", b"X", b"0", b"1", b"9", b"12", b"00", b"0129", b"2018", b"-",
          b" ", b"  ", b"\t", b":", b".", b"123456", b"1234567", b"]", b"] ", b"x.cc", b"a:b",
          b":1", b"77", b"\n", b"\r", b"\xff", b"tensorflow/core/x.cc:12"]
prefix_like = st.lists(st.sampled_from(PIECES), max_size=24).map(b"".join)
real_prefixes = st.sampled_from([
    b"I0000 00:00:1795298310.598315    5561 function_utils.cc:82] ",
    b"I0129 12:00:00.123456 5561 file.cc:82] x", b"W1231 23:59:59.000001 a.cc:1]",
    b"2018-01-29 12:00:00.123456: I tensorflow/core/framework/op.cc:9] hi",
    b"2018-01-29 12:00:00.123456: E 12 x.cc:9]"])


def mutated(data, rng_data):
    out = bytearray(data)
    for position, byte in rng_data:
        if out:
            out[position % len(out)] = byte
    return bytes(out)


lines = st.one_of(prefix_like, st.builds(
    mutated, real_prefixes, st.lists(st.tuples(st.integers(0, 80), st.sampled_from(b"0 :.]I\t-9")),
                                     max_size=3)))


@needs_scanner
@given(lines)
@settings(max_examples=3000, deadline=None)
def test_is_log_line_is_the_regex(line):
    assert scanner.is_log_line(line) == prefix.is_log_line(line)


@needs_scanner
@given(st.one_of(lines, lines.map(lambda text: b"I0129 12:00:00.123456 " + text)))
@settings(max_examples=3000, deadline=None)
def test_absl_head_is_the_regex(line):
    match = ABSL_HEAD.match(line)
    head = scanner.absl_head(line)
    if match is None:
        assert head == 0
    elif head != -1:  # -1: numbers too long for C, left to Python
        month, day, hours, minutes, seconds, frac, thread = match.groups()
        micros = prefix.absl_micros(month, day, hours, minutes, seconds, frac)
        assert head == (micros, int(thread) if thread else None, match.end())
    else:
        assert len(match.group(5)) > 12 or len(match.group(7) or b"") > 17


# ---- the executions' JSON ----------------------------------------------------------------

texts = st.text(st.characters(blacklist_categories=()), max_size=12)  # surrogates too
ints = st.one_of(st.integers(-2**70, 2**70), st.integers(-5, 300))
nodes = st.builds(ExecutedNode, ints, texts, texts, st.lists(texts, max_size=3).map(tuple),
                  st.one_of(st.none(), ints), st.one_of(st.none(), ints), st.booleans(), ints)
executions = st.lists(st.builds(Execution, ints, texts, ints, st.lists(nodes, max_size=4)),
                      max_size=4)


def scanner_json(runs):
    written = []
    count = scanner.write_executions(runs, lambda data: written.append(bytes(data)))
    return count, b"".join(written)


@needs_scanner
@given(executions)
@settings(max_examples=500, deadline=None)
def test_executions_json_is_json_dumps(runs):
    expected = ", ".join(json.dumps(run.to_json()) for run in runs).encode()
    assert scanner_json(runs) == (len(runs), expected)


@needs_scanner
def test_a_value_it_does_not_know_is_left_to_json_dumps():
    known = Execution(1, "/d:0", 1, [ExecutedNode(1, "a", "B", (), 5, 6, False, 3)])
    unknown = Execution(2, "/d:0", 1, [ExecutedNode(1, "a", "B", (), 1.5, 2.5, False, 3)])
    assert scanner_json([known, unknown, known]) == (1, json.dumps(known.to_json()).encode())
    log = reader.read_lines([b""])
    log.executions = [known, unknown, known]
    assert json_bytes(log, scanner_writes=True) == json_bytes(log, scanner_writes=False)
    assert json.loads(json_bytes(log, scanner_writes=True)) == log.to_json()


@needs_scanner
def test_the_document_is_written_a_chunk_at_a_time(tmp_path):
    path = write(tmp_path, all_samples() * 8)
    log = reader.read_vlog(path)
    writes = []

    class Buffer(io.BytesIO):
        def write(self, data):
            writes.append(len(data))
            return super().write(data)

    out = io.TextIOWrapper(Buffer(), encoding="utf-8")
    log.write_json(out)
    assert out.buffer.getvalue() == json_bytes(read_reference(path), scanner_writes=False)
    assert len(writes) > 3 and max(writes) < 3 << 20


@needs_scanner
def test_the_scanner_makes_the_models_as_their_dataclasses_do(tmp_path):
    """Most blocks and executions are made in C: each gets its own list, as
    field(default_factory=list) gives; the rest of what they hold, assert_same checks."""
    log = read_with_scanner(write(tmp_path, all_samples()))
    for lists in ([graph.returns for graph in log.graphs], [graph.nodes for graph in log.graphs],
                  [run.nodes for run in log.executions]):
        assert len({id(each) for each in lists}) == len(lists)


@needs_scanner
def test_a_model_the_scanner_cannot_make_turns_it_off(monkeypatch):
    @dataclass(slots=True)
    class Wider:
        id: int
        extra: str  # no value from a line, no default: the scanner cannot make one

    with pytest.raises(TypeError, match="no value for"):
        scanner.bind(native._spec(Wider), native._spec(Execution), native._spec(GraphDump))
    monkeypatch.setattr(native, "scanner", scanner)
    native.bind(Wider, Execution, GraphDump)
    assert native.scanner is None
    scanner.bind(native._spec(ExecutedNode), native._spec(Execution), native._spec(GraphDump))


# ---- without it -----------------------------------------------------------------------------

WITHOUT = """
import sys
{setup}
from parsers.vlog import native, read_vlog
assert native.scanner is None
log = read_vlog(sys.argv[1])
out = sys.stdout
log.write_json(out)
"""


@pytest.mark.parametrize("setup", [
    "sys.modules['parsers.vlog._scanner'] = None  # as where it could not be compiled",
    "import os; os.environ['GRAPH_INSPECTOR_VLOG_NATIVE'] = 'off'",
], ids=["not built", "turned off"])
def test_logs_read_the_same_without_the_scanner(tmp_path, setup):
    """Where the scanner is built, and where not."""
    path = write(tmp_path, all_samples())
    done = subprocess.run([sys.executable, "-c", WITHOUT.format(setup=setup), str(path)],
                          cwd=ROOT, capture_output=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != native.NATIVE_ENV})
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout == json_bytes(read_reference(path), scanner_writes=False)
