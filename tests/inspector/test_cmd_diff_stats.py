"""`graph-inspector diff --stats A B`: text, --json, --top, and the one-line errors (exit 2)."""

import json
from pathlib import Path

import pytest

from inspector import cli
from views import stats_diff
from engine.proto import config_pb2

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
TF, ENGINE = RUNS / "convnet_step.tf.pb", RUNS / "convnet_step.engine.pb"
GRAPH = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"


def diff(capsys, *args):
    code = cli.main(["diff", "--stats", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def found():
    runs = [config_pb2.RunMetadata.FromString(p.read_bytes()).step_stats for p in (TF, ENGINE)]
    return stats_diff.compare([runs[0]], [runs[1]])


def test_text_lists_op_types_then_the_costliest_nodes_then_the_unmatched(capsys):
    code, out, err = diff(capsys, TF, ENGINE, "--top", "5")
    expected = found()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:2] == ["A: convnet_step.tf.pb (1 run)", "B: convnet_step.engine.pb (1 run)"]
    op_head = lines.index(next(line for line in lines if line.startswith("op type ")))
    op_names = [line.split()[0] for line in lines[op_head + 1:op_head + 1 + len(expected.ops)]]
    assert op_names == [row.key for row in expected.ops]
    node_head = lines.index(next(line for line in lines if line.startswith("node ")))
    assert [line.split()[0] for line in lines[node_head + 1:node_head + 6]] == [
        row.key for row in expected.nodes[:5]]
    assert lines[node_head + 6] == f"... {len(expected.nodes) - 5} more (--top N shows more)"
    assert f"only in A ({len(expected.only_a)}): {expected.only_a[0]}" in out
    assert f"only in B ({len(expected.only_b)}): {expected.only_b[0]}" in out


def test_json_is_the_diff_with_both_titles(capsys):
    code, out, _ = diff(capsys, TF, ENGINE, "--json")
    document = json.loads(out)
    assert code == 0
    assert (document["a"], document["b"]) == ("convnet_step.tf.pb", "convnet_step.engine.pb")
    assert {k: v for k, v in document.items() if k not in ("a", "b")} == found().to_json()


def test_top_zero_lists_every_node(capsys):
    _, out, _ = diff(capsys, TF, ENGINE, "--top", "0")
    assert "more (--top N shows more)" not in out
    assert all(f"\n{row.key} " in out for row in found().nodes)


def test_an_input_without_step_stats_is_one_error_line(capsys):
    graph = next(GRAPH.glob("*.pb"))
    code, out, err = diff(capsys, graph, ENGINE)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {graph}: no step stats in this graphdef") and err.count("\n") == 1


@pytest.mark.parametrize("args", [["--top", "-1"], ["-o", "x.svg"]])
def test_bad_options_are_one_error_line(capsys, args):
    code, out, err = diff(capsys, TF, ENGINE, *args)
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1
