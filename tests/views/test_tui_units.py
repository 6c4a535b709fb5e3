"""The TUI's plain parts: lazy index, filter matching, step-stats rows, picture, workspace."""


import numpy as np
import pytest

import parsers
from engine.proto import graph_pb2
from views.graph_index import GraphIndex
from views import node_search as search
from views.tui import loading, picture, stepstats
from views.tui.details import summary_lines, value_table

from tests.scaling import assert_scales_linearly
from tests.views.tui_conftest import MLP_SGD, ROOT, TWO_CPU_RUN


@pytest.fixture(scope="module")
def mlp_index():
    return GraphIndex.of_graph(parsers.load(MLP_SGD).graphs[0].graph_def)


def test_scope_children_count_every_node_once(mlp_index):
    def count(entry):
        return sum(count(child) if child.is_scope else 1 for child in mlp_index.children(entry))

    assert count(mlp_index.root) == len(mlp_index) == 133
    for entry in mlp_index.children(mlp_index.root):
        if entry.is_scope:
            assert count(entry) == entry.count


def test_a_variable_sits_inside_its_own_scope(mlp_index):
    layer1 = next(e for e in mlp_index.children(mlp_index.root) if e.path == "layer1")
    weights = next(e for e in mlp_index.children(layer1) if e.path == "layer1/weights")
    assert weights.is_scope and weights.key == "layer1/weights"
    first = mlp_index.children(weights)[0]
    assert (first.is_scope, first.key) == (False, "layer1/weights")
    assert mlp_index.scope_path("layer1/weights") == ["layer1", "weights"]


def test_inputs_and_consumers_with_kinds(mlp_index):
    apply = "train/update_layer1/weights/ApplyGradientDescent"
    kinds = [(e.src, e.kind) for e in mlp_index.inputs(apply)]
    assert kinds[0] == ("layer1/weights", "ref")
    assert [e.dst for e in mlp_index.consumers(apply)] == ["train"]
    assert [e.kind for e in mlp_index.consumers(apply)] == ["control"]


def test_partitions_pair_send_and_recv():
    run = parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata
    index = GraphIndex.of_partitions(list(run.partition_graphs))
    assert index.is_partitioned and len(index.devices) == 2
    sends = [k for k, n in index.nodes.items() if n.op == "_Send"]
    assert sends
    for send in sends:
        twin = index.twin(send)
        assert index.nodes[twin].op == "_Recv"
        assert index.nodes[twin].partition != index.nodes[send].partition
        assert index.twin(twin) == send


def test_filter_regex_substring_fallback_and_devices(mlp_index):
    lines = mlp_index.search_lines()
    assert len(search.find(lines, search.compile_query("ApplyGradientDescent"))) == 4
    assert search.find(lines, search.compile_query("^loss$")) == ["loss"]  # anchors on the name
    assert search.find(lines, search.compile_query("loss"))[0] == "loss"   # the exact name first
    assert search.find(lines, search.compile_query("^layer1/MatMul$")) == ["layer1/MatMul"]
    broken = search.compile_query("weights[")
    assert broken.note.startswith("not a regular expression")
    assert search.find(lines, broken) == []
    assert search.find(lines, search.compile_query("MatMul"))[0] == "layer1/MatMul"


def test_step_rows_sorted_and_totalled():
    run = parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata
    rows = stepstats.step_rows(run.step_stats)
    assert len(rows) == 11 and min(r.start_us for r in rows) == 0
    by_time = stepstats.sort_rows(rows, "op_us", reverse=True)
    assert by_time[0].op == "MatMul"
    totals = {t.op: t for t in stepstats.op_totals(rows)}
    assert totals["Const"].count == 3
    assert sum(t.count for t in totals.values()) == len(rows)
    assert {r.short_device for r in rows} == {"CPU:0", "CPU:1"}


def test_neighbourhood_picture_shows_inputs_and_consumers(mlp_index):
    key = "train/update_layer1/weights/ApplyGradientDescent"
    for use_dot in (False, None):
        drawn = picture.draw(mlp_index, key, 1, use_dot=use_dot)
        for name in ("weights", "learning_rate", "control_dependency_1", "train"):
            assert name in drawn.text
        assert "╔" in drawn.text  # the selected node's box
    assert len(picture.neighbourhood(mlp_index, key, 2)) > len(picture.neighbourhood(mlp_index, key, 1))


def test_tensor_summary_and_table():
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert summary_lines(value)[:2] == ["shape [2, 3]  dtype float32  size 6", "min 0  max 5  mean 2.5"]
    columns, rows = value_table(value)
    assert columns == ["index", "0", "1", "2"] and rows[1] == ["[1]", "3", "4", "5"]


def test_read_paths_reports_a_bad_file_and_opens_the_rest(tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xfe not a protobuf")
    progress = []
    workspace, failures = loading.read_paths([MLP_SGD, str(bad), TWO_CPU_RUN],
                                             lambda *a: progress.append(a))
    assert [path for path, _ in failures] == [str(bad)]
    assert [v.label for v in workspace.graphs] == ["mlp_train_sgd.pb"]
    assert [r.label for r in workspace.runs] == ["two_cpu.pb"]
    assert workspace.runs[0].partitions.kind == "partitions"
    assert progress[-1][0] == progress[-1][1]
    assert workspace.graphs[0].traces["layer1/MatMul"]  # from the graph's debug_info


def test_read_paths_names_the_bad_file_inside_a_directory_escaped(tmp_path):
    # Was (the directory, "empty file (0 bytes)"): which file? And a raw newline or terminal
    # code in a name reached cmd_tui's error line.
    saved_model = tmp_path / "model\n\x1b[31m"
    saved_model.mkdir()
    (saved_model / "saved_model.pb").write_bytes(b"")
    _, failures = loading.read_paths([str(saved_model)])
    assert failures == [(f"{tmp_path}/model\\n\\x1b[31m/saved_model.pb", "empty file (0 bytes)")]


def large_graph(nodes=100_000, per_scope=50):
    """A generated graph of scopes block00000/..., each a chain of `per_scope` nodes."""
    graph = graph_pb2.GraphDef()
    graph.node.add(name="input", op="Placeholder")
    previous = "input"
    for n in range(nodes - 1):
        name = f"block{n // per_scope:05d}/op{n % per_scope:03d}"
        graph.node.add(name=name, op="Relu" if n % 2 else "MatMul", input=[previous])
        previous = name
    return graph


@pytest.mark.slow
def test_lazy_index_opens_a_100k_node_graph_in_linear_time():
    graphs = {count: large_graph(count) for count in (10_000, 100_000)}
    index = GraphIndex.of_graph(graphs[100_000])
    assert len(index.children(index.root)) == 2001

    def open_top(count):
        index = GraphIndex.of_graph(graphs[count])
        index.children(index.root)
    assert_scales_linearly(open_top, 10_000)


def test_step_rows_read_a_gpu_stream_as_node_and_op():
    from engine.proto import step_stats_pb2
    stats = step_stats_pb2.StepStats()
    host = stats.dev_stats.add(device="/job:localhost/replica:0/task:0/device:GPU:0")
    host.node_stats.add(node_name="y", timeline_label="y = MatMul(x, w)")
    stream = stats.dev_stats.add(device="/job:localhost/replica:0/task:0/device:GPU:0/stream:all")
    stream.node_stats.add(node_name="y:MatMul", timeline_label="MatMul")
    rows = stepstats.step_rows(stats)
    assert [(r.short_device, r.node, r.op) for r in rows] == [
        ("GPU:0", "y", "MatMul"), ("GPU:0/stream:all", "y", "MatMul")]
    assert {t.op: t.count for t in stepstats.op_totals(rows)} == {"MatMul": 2}


def test_traceback_puts_the_creating_line_first_and_the_launchers_last():
    from types import SimpleNamespace as Frame
    import runpy
    from views.tui import details
    script = str(ROOT / "tests" / "inspector" / "scripts" / "debug_small.py")
    cli = str(ROOT / "inspector" / "cli.py")
    engine_file = str(ROOT / "engine" / "math_ops.py")
    trace = [Frame(filename=cli, lineno=57, name="main", line=""),
             Frame(filename=runpy.__file__, lineno=291, name="run_path", line=""),
             Frame(filename=script, lineno=21, name="<module>", line="main(sys.argv[1:])"),
             Frame(filename=script, lineno=12, name="main", line=""),
             Frame(filename=engine_file, lineno=5, name="add", line="")]
    lines = details.traceback_lines(trace)
    assert lines[0] == f'▶ File "{script}", line 12, in main'
    marked = [line for line in lines if line.startswith("  >")]
    assert marked[0].startswith("  >   12") and "tf.add(tf.multiply(x, 3.0" in marked[0]
    assert any("def main(args):" in line for line in lines[1:8])     # source around it
    assert lines.index("called from (innermost first):") < lines.index(
        "launched through 2 frames (graph-inspector, Python):")
    assert lines[-2:] == [f"  {runpy.__file__}:291 in run_path", f"  {cli}:57 in main"]
    assert not any("math_ops" in line for line in lines)     # the engine's own frames
