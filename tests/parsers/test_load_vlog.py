"""parsers.load on a VLOG log: its graph dumps and its executed steps, like any other input."""

import re
from pathlib import Path

import parsers

REPO = Path(__file__).resolve().parents[2]


def test_a_log_loads_as_vlog_with_every_dump_and_step():
    path = REPO / "sample_logs" / "counter.log"
    loaded = parsers.load(path)
    text = path.read_text()
    dumps = sum(1 for line in text.splitlines() if re.search(r"\|\|\s.*\{\s*$", line))
    steps = set(re.findall(r"Process node: \d+ step (-?\d+) ", text))
    assert loaded.kind == "vlog"
    assert len(loaded.graphs) == dumps
    assert [run.tag for run in loaded.run_metadata] == [f"step {s}" for s in sorted(steps, key=int)]
    assert all(run.run_metadata.step_stats.dev_stats for run in loaded.run_metadata)


def test_a_log_is_recognised_by_content_not_name(tmp_path):
    copy = tmp_path / "graph.pb"
    copy.write_bytes((REPO / "sample_logs" / "while_v1.log").read_bytes())
    assert parsers.load(copy).kind == "vlog"


def test_a_log_without_graphs_or_steps_is_empty_not_an_error():
    loaded = parsers.load(REPO / "tests" / "fixtures" / "parsers" / "vlog.txt")
    assert loaded.kind == "vlog"
