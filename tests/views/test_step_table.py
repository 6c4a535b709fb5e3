"""views/tui/step_table.py against plain Python over the protobuf: the rows it reads, its
orders, its filter (text queries narrowed keystroke by keystroke, regexes, names that are not
ASCII) and its op totals."""

import pytest

from bench.runs_large import large_run
from views.dot.stats import op_time_us, output_bytes
from views.timeline.labels import node_op_inputs
from views.tui import stepstats
from views.node_search import compile_query
from views.tui.step_table import StepTable

CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


def odd_run():
    """A generated run plus what real ones hold: nanosecond times, a label without an op,
    a name that is not ASCII, and a device that ran nothing."""
    metadata = large_run(2_000, seed=3)
    odd = metadata.step_stats.dev_stats.add(device=CPU1)
    odd.node_stats.add(node_name="fused/conv", timeline_label="fused/conv = _FusedConv2D(x)",
                       all_start_micros=1_700_000_000_000_050, op_start_rel_nanos=1882,
                       op_end_rel_nanos=8032, all_end_rel_nanos=9001,
                       output=[{"tensor_description": {"allocation_description": {
                           "requested_bytes": 7, "allocated_bytes": 12_345_678_901_234}}}])
    odd.node_stats.add(node_name="no/op", timeline_label="not a label",
                       all_start_micros=1_700_000_000_000_060, op_end_rel_micros=3)
    metadata.step_stats.dev_stats.add(device="/job:localhost/replica:0/task:0/device:CPU:7")
    return metadata


def expected_rows(step_stats):
    """What the runs screen shows per execution, the slow way: one NodeExecStats at a time
    through the timeline's and the dot exporter's own readers."""
    origin = min(n.all_start_micros for d in step_stats.dev_stats for n in d.node_stats)
    rows = []
    for device_stats in step_stats.dev_stats:
        for node in device_stats.node_stats:
            name, op, _ = node_op_inputs(device_stats.device, node)
            all_us = (node.all_end_rel_nanos / 1000 if node.all_end_rel_nanos
                      else float(node.all_end_rel_micros))
            rows.append(stepstats.StepRow(device_stats.device, name, op,
                                          node.all_start_micros - origin, op_time_us(node),
                                          all_us, output_bytes(node)))
    return rows


def expected_select(rows, device=None, query=None, column="start_us", descending=False):
    found = [n for n, row in enumerate(rows)
             if (device is None or row.device == device)
             and (query is None or any(query.pattern.search(value)
                                       for value in (row.node, row.op, row.device)))]
    return sorted(found, key=lambda n: getattr(rows[n], column), reverse=descending)


@pytest.fixture(scope="module")
def run():
    metadata = odd_run()
    return expected_rows(metadata.step_stats), StepTable(stepstats.read_columns(
        metadata.step_stats))


def test_the_rows_read_are_the_executions(run):
    rows, table = run
    assert list(table.rows) == rows and len(table) == 2_002
    assert table.rows[-1] == rows[-1] and table.rows[10:13] == rows[10:13]
    assert table.rows[-2][4:] == (6.15, 9.001, 12_345_678_901_234)   # allocated, not requested
    assert CPU1 in table.devices and not any(d.endswith("CPU:7") for d in table.devices)
    assert stepstats.step_rows(odd_run().step_stats) == rows


@pytest.mark.parametrize("column", list(stepstats.COLUMNS))
def test_every_column_sorts_both_ways_ties_in_recorded_order(run, column):
    rows, table = run
    for descending in (False, True):
        assert table.select(column=column, descending=descending).tolist() == \
            expected_select(rows, column=column, descending=descending)


def test_typing_a_name_narrows_and_backspace_widens(run):
    rows, table = run
    typed = "layer0012/"
    steps = [typed[:n] for n in range(1, len(typed) + 1)]
    steps += steps[-2::-1] + ["Layer", "LAYER0", "fused/", "_fused", "gpu:0/s"]
    # Text cut at its start: a query no keystroke made, inside ones matched before (wider).
    steps += ["ayer0012/", "012/", "r001", "USED"]
    for text in steps:
        query = compile_query(text)
        for device in (None, CPU1):
            assert table.select(device, query, "op_us", True).tolist() == \
                expected_select(rows, device, query, "op_us", True), (text, device)
    assert len(table.select(query=compile_query(typed))) == 40


@pytest.mark.parametrize("text", ["layer00(1|2)/", "^model/layer0001/", "_0[0-3]$", "layer0(",
                                  "a|", "[", "relu", "Relu", "^no/", "conv.*filter", "stream:all"])
def test_regexes_and_text_that_is_no_regex(run, text):
    rows, table = run
    table.select(query=compile_query("layer00"))          # a text query matched before
    query = compile_query(text)
    assert table.select(None, query, "node", False).tolist() == \
        expected_select(rows, None, query, "node", False)


def test_names_that_are_not_ascii_match_as_re_does():
    metadata = large_run(50)
    extra = metadata.step_stats.dev_stats.add(device=CPU1)
    for name in ("caſt/x", "KELVIN/\u212a", "plain/s"):
        extra.node_stats.add(node_name=name, timeline_label=f"{name} = Foo(a)")
    table = StepTable(stepstats.read_columns(metadata.step_stats))
    rows = list(table.rows)
    for text in ("s", "cas", "caſ", "k", "kelvin/k"):
        query = compile_query(text)
        assert table.select(CPU1, query).tolist() == expected_select(rows, CPU1, query), text
    assert len(table.select(CPU1, compile_query("cas"))) == 1     # re: ſ is s, ignoring case


def test_totals_are_op_totals_of_the_rows_shown(run):
    rows, table = run
    for device, text in ((None, None), (CPU1, None), (None, "layer001"), (None, "nothing")):
        numbers = table.select(device, compile_query(text) if text else None, "op_us", True)
        assert table.totals(numbers) == stepstats.op_totals(rows[n] for n in numbers)
    assert {t.op for t in table.totals(table.select(CPU1))} == {"_FusedConv2D", "(unknown)"}


def test_widths_fit_the_widest_cell(run):
    rows, table = run
    widths = table.widths()
    assert widths["node"] == max(len(row.node) for row in rows)
    assert widths["op"] == len("Conv2DBackpropFilter")
    assert widths["bytes"] == len("12345678901234") + 1
