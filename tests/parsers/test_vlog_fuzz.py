"""Seeded mutations of the real sample logs: the parser reads around damage and never crashes.

Each case corrupts lines, cuts blocks short, inserts raw bytes, swaps or repeats lines, or
truncates the file; whatever comes out must still be a consistent VlogLog.
"""

import io
import json
import random
from pathlib import Path

import pytest

from inspector.cmd_vlog import dump_source, step_trace, summary_lines
from parsers.vlog import read_vlog

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_logs").glob("*.log"))
CASES_PER_LOG = 60
NOISE = bytes(range(256)) + b"||   {}[]()<>\"\\ @ = :,\r\n" * 4


def corrupt_lines(rng, lines):
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(lines))
        line = lines[i]
        start = rng.randrange(len(line) + 1)
        end = min(len(line), start + rng.randint(0, 20))
        lines[i] = line[:start] + bytes(rng.choice(NOISE) for _ in range(rng.randint(0, 12))) + line[end:]


def cut_blocks(rng, lines):
    blocks = [i for i, line in enumerate(lines) if b"|| " in line]
    for _ in range(rng.randint(1, 4)):
        if not blocks:
            return
        start = rng.choice(blocks)
        del lines[start:start + rng.randint(1, 12)]
        blocks = [i for i, line in enumerate(lines) if b"|| " in line]


def insert_bytes(rng, lines):
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, bytes(rng.choice(NOISE) for _ in range(rng.randint(1, 80))))


def swap_lines(rng, lines):
    for _ in range(rng.randint(1, 30)):
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]


def repeat_lines(rng, lines):
    i = rng.randrange(len(lines))
    lines[i:i] = lines[i:i + rng.randint(1, 40)]


MUTATIONS = [corrupt_lines, cut_blocks, insert_bytes, swap_lines, repeat_lines]


def mutate(rng, data):
    lines = data.split(b"\n")
    for mutation in rng.sample(MUTATIONS, rng.randint(1, 3)):
        mutation(rng, lines)
    out = b"\n".join(lines)
    if rng.random() < 0.3:
        out = out[: rng.randrange(len(out))]
    return out


def expected_lines(data):
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


CASES = [(path.name, seed) for path in SAMPLES for seed in range(CASES_PER_LOG)]


@pytest.mark.parametrize("name, seed", CASES)
def test_damaged_logs_read_around_the_damage(name, seed):
    rng = random.Random(f"{name}:{seed}")
    data = mutate(rng, (ROOT / "sample_logs" / name).read_bytes())
    log = read_vlog(io.BytesIO(data))
    assert log.lines == expected_lines(data)
    assert 0 <= log.unparsed_lines <= log.lines
    assert len(log.graphs) <= data.count(b"{")

    buffer = io.StringIO()
    log.write_json(buffer)
    document = json.loads(buffer.getvalue())
    assert document == json.loads(json.dumps(log.to_json()))
    assert list(document) == ["graphs", "executions", "lines", "unparsed_lines"]

    for graph in log.graphs[:3] + log.graphs[-2:]:
        graph_def = graph.graph_def()
        assert len(graph_def.node) == len(graph.nodes) + len(graph.args) + len(graph.rets)
        assert dump_source(graph).startswith("digraph ")
    for step in log.steps()[:3]:
        json.dumps(step_trace(log, step))
    for event in log.events[:50]:
        assert isinstance(event.fields, dict)
    assert summary_lines(log)[0].endswith("not understood)")


def test_cases_are_many():
    assert len(CASES) >= 300
