"""views/timeline: Chrome traces of fixture runs, VLOG steps and many runs, checked as JSON."""

import json

import parsers
from parsers.vlog import read_vlog
from views import timeline
from views.timeline.layout import assign_lanes

from tests.views.test_timeline_checks import check_chrome_trace
from tests.views.tui_conftest import ROOT

TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"
MATMUL_RUN = ROOT / "tests/fixtures/runs/matmul_softmax.pb"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


def runs_of(path):
    return [timeline.TraceRun.of_run_metadata(t.run_metadata, f"{path.name} run {i}", step=i)
            for i, t in enumerate(parsers.load(path).run_metadata)]


def vlog_runs(name):
    log = read_vlog(ROOT / "sample_logs" / name)
    return [timeline.TraceRun.of_run_metadata(log.run_metadata(step), f"step {step}", step=step)
            for step in log.steps()]


def test_a_fixture_run_is_a_well_formed_chrome_trace():
    trace = json.loads(timeline.dumps(timeline.chrome_trace(runs_of(TWO_CPU_RUN))))
    phases = check_chrome_trace(trace)
    names = {e["pid"]: e["args"]["name"] for e in phases["M"] if e["name"] == "process_name"}
    assert names == {0: "runs", 1: CPU0, 2: CPU1}
    ops = [e for e in phases["X"] if e["cat"] == "Op"]
    assert len(ops) == 11  # every NodeExecStats of both devices
    product = next(e for e in ops if e["name"] == "product")
    assert product["args"]["op"] == "MatMul"
    assert product["args"]["inputs"] == ["_arg_a_0_0", "b"]
    assert product["pid"] == 1 and product["dur"] > 0


def test_data_crossing_devices_gets_paired_flow_arrows():
    phases = check_chrome_trace(timeline.chrome_trace(runs_of(TWO_CPU_RUN)))
    # TF 2.21 leaves _Send/_Recv out of step stats: arrows go from producer to consumer
    # through the `/_N` names of the received tensors, as TensorFlow's timeline.py draws them.
    flows = {(e["name"], e["pid"]) for e in phases["s"]}
    assert flows == {("product", 1), ("doubled", 2), ("total", 2)}


def test_send_recv_pairs_from_a_vlog_log_are_joined_by_rendezvous_key():
    phases = check_chrome_trace(timeline.chrome_trace(vlog_runs("two_cpus.log")))
    names = sorted(e["name"] for e in phases["s"])
    assert "edge_4_s" in names
    # The log times the _Recv of edge_12_total (an async op: only its start is logged) before
    # its _Send runs: that arrow would end before it starts, so it is not drawn.
    assert "edge_12_total" not in names
    for start in phases["s"]:
        end = next(e for e in phases["f"] if e["id"] == start["id"])
        assert start["pid"] != end["pid"]


def test_memory_counters_per_allocator():
    phases = check_chrome_trace(timeline.chrome_trace(runs_of(TWO_CPU_RUN)))
    counters = {(e["pid"], e["name"]) for e in phases["C"]}
    assert (1, "memory cpu") in counters and (2, "memory cpu") in counters
    cpu0 = [e["args"]["bytes"] for e in phases["C"] if e["pid"] == 1 and e["name"] == "memory cpu"]
    # product's 16 bytes allocated then freed, from its allocation records
    assert cpu0 == [0, 16, 0]


def test_many_runs_one_span_group_each_laid_out_one_after_another():
    runs = runs_of(TWO_CPU_RUN) + runs_of(MATMUL_RUN) + vlog_runs("counter.log")
    phases = check_chrome_trace(timeline.chrome_trace(runs))
    spans = [e for e in phases["X"] if e["cat"] == "Run"]
    counter_steps = read_vlog(ROOT / "sample_logs/counter.log").steps()
    assert len(spans) == len(runs) == 2 + len(counter_steps)
    assert [s["args"]["label"] for s in spans] == [r.label for r in runs]
    assert all(s["pid"] == 0 and s["tid"] == 0 for s in spans)
    for before, after in zip(spans, spans[1:]):
        assert before["ts"] + before["dur"] < after["ts"]
    ops = [e for e in phases["X"] if e["cat"] == "Op"]
    for index, span in enumerate(spans):
        inside = [e for e in ops if e["args"]["run"] == span["args"]["label"]
                  and span["ts"] <= e["ts"] and e["ts"] + e["dur"] <= span["ts"] + span["dur"]]
        assert inside, span
    assert [s["args"].get("step") for s in spans[2:]] == counter_steps


def test_the_same_runs_give_the_same_bytes():
    first = timeline.dumps(timeline.chrome_trace(runs_of(TWO_CPU_RUN) + vlog_runs("two_cpus.log")))
    second = timeline.dumps(timeline.chrome_trace(runs_of(TWO_CPU_RUN) + vlog_runs("two_cpus.log")))
    assert first == second


def test_the_engines_own_runs():
    import engine as tf

    graph = tf.Graph()
    with graph.as_default():
        a = tf.placeholder(tf.float32, [2, 2], name="a")
        total = tf.reduce_sum(tf.matmul(a, a, name="product"), name="total")
        runs = []
        with tf.Session() as sess:
            for step in range(3):
                metadata = tf.RunMetadata()
                sess.run(total, {a: [[1, 2], [3, 4]]},
                         options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                         run_metadata=metadata)
                runs.append(timeline.TraceRun.of_run_metadata(metadata, f"step {step}", step))
    phases = check_chrome_trace(timeline.chrome_trace(runs))
    assert len([e for e in phases["X"] if e["cat"] == "Run"]) == 3
    product = [e for e in phases["X"] if e["name"] == "product"]
    assert len(product) == 3 and product[0]["args"]["inputs"] == ["_arg_a_0_0", "_arg_a_0_0"]
    assert any(e["name"] == "memory cpu" for e in phases["C"])


def test_lanes_never_overlap_even_for_zero_length_ops():
    intervals = [(0, 0), (0, 0), (0, 5), (3, 1), (5, 0), (5, 2)]
    lanes = assign_lanes(intervals)
    for lane in set(lanes):
        mine = sorted((s, s + max(d, 1)) for (s, d), n in zip(intervals, lanes) if n == lane)
        assert all(a[1] <= b[0] for a, b in zip(mine, mine[1:]))
    assert max(lanes) == 2  # three ops share the instant 0


def test_no_runs_is_an_empty_but_valid_trace():
    phases = check_chrome_trace(timeline.chrome_trace([]))
    assert not phases["X"]


def test_doctests():
    import doctest

    from views.timeline import labels, layout
    for module in (timeline, labels, layout):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_a_flow_never_ends_before_it_starts():
    """A VLOG log can time a _Recv at 1 ns long before its _Send logs: such an arrow would end
    before it starts (Perfetto drops it), so it is left out and the others stay."""
    log = read_vlog(ROOT / "sample_logs" / "two_cpus.log")
    step = log.steps()[0]
    run_metadata = log.run_metadata(step)
    before = check_chrome_trace(timeline.chrome_trace(
        [timeline.TraceRun.of_run_metadata(run_metadata, "step")]))
    starts = {e["id"]: e for e in before["s"]}
    late = max(before["f"], key=lambda e: starts[e["id"]]["ts"])  # the arrow whose _Send is last
    target = next(e for e in before["X"] if e["pid"] == late["pid"] and e["tid"] == late["tid"]
                  and e["ts"] <= late["ts"] <= e["ts"] + e["dur"])
    for dev_stats in run_metadata.step_stats.dev_stats:
        for stats in dev_stats.node_stats:
            if stats.node_name == target["name"]:  # logged at the very start, lasting 1 ns
                stats.all_start_micros, stats.all_start_nanos = 0, 0
                stats.all_end_rel_micros, stats.all_end_rel_nanos = 0, 1
    after = check_chrome_trace(timeline.chrome_trace(
        [timeline.TraceRun.of_run_metadata(run_metadata, "step")]))
    assert len(after["s"]) == len(after["f"]) == len(before["s"]) - 1


def test_every_flow_of_every_sample_log_starts_before_it_ends():
    for name in ("two_cpus.log", "counter.log", "counter_tf1x.log", "mlp_train.log",
                 "while_v1.log", "while_v2.log", "engine_counter.log"):
        phases = check_chrome_trace(timeline.chrome_trace(vlog_runs(name)))  # checks each flow
        assert len(phases["s"]) == len(phases["f"])
