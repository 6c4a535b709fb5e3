"""`graph-inspector info --ops`: the engine's ops from engine.api.registry, as a table and JSON."""

import json

from engine.api import registry
from inspector import cli


def test_json_lists_every_op_of_the_registry_with_what_it_has(capsys):
    assert cli.main(["info", "--ops", "--json"]) == 0
    rows = {row["op"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == {row.name for row in registry.all_ops()}
    assert rows["InTopKV2"] == {"op": "InTopKV2", "op_def": True, "kernels": ["CPU"],
                                "shape": "inferred", "gradient": "not differentiable",
                                "families": [], "problems": []}
    assert rows["Merge"]["families"] == ["control_flow", "inexpensive"]
    assert rows["Reverse"]["kernels"] == [] and rows["Reverse"]["families"] == ["graph_only"]
    assert rows["SaveV2"]["kernels"] == ["CPU"] and rows["SaveV2"]["families"] == ["stateful"]


def test_table_has_one_line_per_op_with_one_word_cells(capsys):
    assert cli.main(["info", "--ops"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["OP", "OPDEF", "CPU", "GPU", "SHAPE", "GRADIENT", "FAMILIES"]
    assert len(lines) == 1 + len(registry.all_ops())
    relu = next(line.split() for line in lines if line.startswith("Relu "))
    assert relu == ["Relu", "yes", "CPU", "GPU", "inferred", "registered", "unary"]


def test_info_without_path_or_ops_is_exit_2_with_one_error_line(capsys):
    assert cli.main(["info"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
