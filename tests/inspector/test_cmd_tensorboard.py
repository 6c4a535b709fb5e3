"""`graph-inspector tensorboard INPUT... --logdir DIR`: inputs as TensorBoard runs."""

from pathlib import Path

import pytest

import parsers
from inspector import cli, cmd_tensorboard

from tests.tensorboard_check import read_logdir

ROOT = Path(__file__).resolve().parents[2]
TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"
GRAPH = ROOT / "tests/fixtures/graphs/counter.pb"
LOG = ROOT / "sample_logs/engine_counter.log"


def run(capsys, *argv):
    status = cli.main(["tensorboard", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_graph_a_run_and_a_log(capsys, tmp_path):
    status, _, stderr = run(capsys, GRAPH, TWO_CPU_RUN, LOG, "--logdir", tmp_path)
    assert status == 0, stderr
    assert stderr.startswith("wrote 5 TensorBoard runs (5 graphs, 9 run metadata) to ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter.pb", "engine_counter.log",
                                                          "two_cpu.pb"]
    graph = parsers.load(tmp_path / "counter.pb")
    expected = parsers.load(GRAPH).graphs[0].graph_def
    assert [n.name for n in graph.graphs[0].graph_def.node] == [n.name for n in expected.node]
    run_dir = parsers.load(tmp_path / "two_cpu.pb")
    merged = run_dir.graphs[0].graph_def
    partitions = parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata.partition_graphs
    assert len(merged.node) == sum(len(p.node) for p in partitions)
    assert [r.run_metadata.step_stats for r in run_dir.run_metadata] == [
        parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata.step_stats]
    log_dir = parsers.load(tmp_path / "engine_counter.log")
    assert [r.tag for r in log_dir.run_metadata][:2] == ["step 1", "step 2"]
    assert len([p for p in (tmp_path / "engine_counter.log").iterdir() if p.is_dir()]) == 2


def test_bad_input_is_one_error_line(capsys, tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xff not a graph")
    status, _, stderr = run(capsys, bad, "--logdir", tmp_path / "out")
    assert status == 2 and stderr.startswith(f"error: {bad}: ") and stderr.count("\n") == 1


def test_tensorboard_reads_the_directory(capsys, tmp_path):
    assert run(capsys, TWO_CPU_RUN, "--logdir", tmp_path)[0] == 0
    seen = read_logdir(tmp_path)
    assert list(seen) == ["two_cpu.pb"]
    assert list(seen["two_cpu.pb"].run_metadata) == ["run 0"]
    assert len(seen["two_cpu.pb"].graph.node) == 15


# Every kind of input the command takes, each read back through TensorBoard's own loader
# (tests/tensorboard_check.py) and compared with what our readers find in the input.
EVERY_KIND = {
    "graphdef": GRAPH,
    "graphdef text": ROOT / "tests/fixtures/graphs/counter.pbtxt",
    "run metadata": TWO_CPU_RUN,
    "meta graph": ROOT / "tests/fixtures/containers/mlp.meta",
    "saved model": ROOT / "tests/fixtures/containers/saved_model_mlp",
    "events file":
        ROOT / "tests/fixtures/containers/events/events.out.tfevents.1700000000.graph-inspector",
    "events directory": ROOT / "tests/fixtures/parsers/events_dir",
    "dump directory": ROOT / "tests/fixtures/containers/dump_dir",
    "vlog": LOG,
}


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_tensorboards_loader_reads_every_kind_of_run_we_write(capsys, tmp_path, kind):
    path = EVERY_KIND[kind]
    status, _, stderr = run(capsys, path, "--logdir", tmp_path)
    assert status == 0, stderr
    seen = read_logdir(tmp_path)
    assert seen and not any("tfevents" in name for name in seen)
    expected = parsers.load(path)
    top = [name for name in seen if "/" not in name]
    assert len(top) == 1
    main = seen[top[0]]
    runs_expected = {tagged.run_metadata.SerializeToString(deterministic=True)
                     for tagged in expected.run_metadata}
    runs_seen = {rm.SerializeToString(deterministic=True) for rm in main.run_metadata.values()}
    assert runs_seen == runs_expected
    graphs_seen = sorted(len(r.graph.node) for r in seen.values() if r.graph is not None)
    if expected.kind == "run_metadata":
        partitions = expected.run_metadata[0].run_metadata.partition_graphs
        assert graphs_seen == [sum(len(p.node) for p in partitions)]
    else:
        # A run's partition graphs travel inside its run metadata; the rest are graphs.
        graphs = [g for g in expected.graphs if not cmd_tensorboard._RUN_GRAPH_LABEL.match(g.label)]
        assert graphs_seen == sorted(len(g.graph_def.node) for g in graphs)
        assert [n.name for n in main.graph.node] == [n.name for n in graphs[0].graph_def.node]


def test_a_graph_and_its_run_metadata_go_in_one_run(capsys, tmp_path):
    """As TensorFlow's FileWriter writes add_graph and add_run_metadata: TensorBoard's graph
    view lists the run under "Session runs" and colours the graph by its compute time."""
    graph = ROOT / "tests/fixtures/graphs/two_cpu.pb"
    status, _, stderr = run(capsys, graph, TWO_CPU_RUN, GRAPH, "--logdir", tmp_path)
    assert status == 0, stderr
    seen = read_logdir(tmp_path)
    assert sorted(seen) == ["counter.pb", "two_cpu.pb"]
    one = seen["two_cpu.pb"]
    assert [n.name for n in one.graph.node] == [
        n.name for n in parsers.load(graph).graphs[0].graph_def.node]
    (tag, run_metadata), = one.run_metadata.items()
    assert tag == "two_cpu.pb"
    assert run_metadata == parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata
    timed = {s.node_name for d in run_metadata.step_stats.dev_stats for s in d.node_stats}
    assert {n.name for n in one.graph.node} & timed  # the nodes it colours
    assert seen["counter.pb"].run_metadata == {}
    # in either order
    assert run(capsys, TWO_CPU_RUN, graph, "--logdir", tmp_path / "other")[0] == 0
    again = read_logdir(tmp_path / "other")
    assert list(again) == ["two_cpu.pb"]
    assert list(again["two_cpu.pb"].run_metadata) == ["two_cpu.pb"]


def test_scalars_from_the_engines_file_writer(tmp_path):
    import engine as tf

    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        loss = tf.summary.scalar("loss", x)
        with tf.Session() as sess, tf.summary.FileWriter(tmp_path / "train", graph=graph) as writer:
            for step in range(3):
                writer.add_summary(sess.run(loss, {x: step * 1.5}), step)
    seen = read_logdir(tmp_path)
    assert seen["train"].scalars == {"loss": [(0, 0.0), (1, 1.5), (2, 3.0)]}
    assert [n.name for n in seen["train"].graph.node] == [n.name for n in graph.as_graph_def().node]


def test_rerunning_replaces_the_runs_it_wrote(capsys, tmp_path):
    assert run(capsys, GRAPH, "--logdir", tmp_path)[0] == 0
    assert run(capsys, GRAPH, "--logdir", tmp_path)[0] == 0
    assert len(list((tmp_path / "counter.pb").iterdir())) == 1  # one event file, not two
    (tmp_path / "counter.pb" / "notes.txt").write_text("mine")
    status, _, stderr = run(capsys, GRAPH, "--logdir", tmp_path)
    assert status == 2 and "will not replace it" in stderr
    assert (tmp_path / "counter.pb" / "notes.txt").read_text() == "mine"


def test_run_folders_stay_inside_the_logdir(capsys, tmp_path, monkeypatch):
    inner = tmp_path / "inputs" / "here"
    inner.mkdir(parents=True)
    (tmp_path / "inputs" / "counter.pb").write_bytes(GRAPH.read_bytes())
    monkeypatch.chdir(inner)
    status, _, stderr = run(capsys, "../counter.pb", "..", "--logdir", "logs")
    # `..` is a directory holding a graph: its run is named after it, inside logs/
    assert status == 0, stderr
    assert sorted(p.name for p in (inner / "logs").iterdir()) == ["counter.pb", "inputs"]
    assert sorted(p.name for p in (tmp_path / "inputs").iterdir()) == ["counter.pb", "here"]


def test_a_run_folder_that_would_replace_an_input_is_refused(capsys, tmp_path):
    logdir = tmp_path / "logs"
    assert run(capsys, GRAPH, "--logdir", logdir)[0] == 0
    before = sorted(p.name for p in (logdir / "counter.pb").iterdir())
    status, _, stderr = run(capsys, logdir / "counter.pb", "--logdir", logdir)
    assert status == 2 and "would replace the input" in stderr
    assert sorted(p.name for p in (logdir / "counter.pb").iterdir()) == before


@pytest.mark.parametrize("kind", ["histogram", "image"])
def test_histograms_and_images_from_the_engines_file_writer(tmp_path, kind):
    import numpy as np

    import engine as tf

    if not hasattr(tf.summary, kind):
        pytest.skip(f"tf.summary.{kind} is not in the engine yet")
    values = np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) / 24
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4, 1], name="x")
        summary = getattr(tf.summary, kind)("seen", x)
        with tf.Session() as sess, tf.summary.FileWriter(tmp_path / "train", graph=graph) as writer:
            writer.add_summary(sess.run(summary, {x: values}), 7)
    seen = read_logdir(tmp_path)["train"]
    if kind == "histogram":
        (tag, [(step, buckets)]), = seen.histograms.items()
        assert step == 7 and buckets[:, 2].sum() == values.size  # [left, right, count] rows
        assert buckets[0, 0] <= values.min() and buckets[-1, 1] >= values.max()
    else:
        # As TensorFlow 2.21 writes tf.compat.v1.summary.image (checked through this same
        # reader): a tag per image, each [width, height, PNG].
        assert sorted(seen.images) == ["seen/image/0", "seen/image/1"]
        for [(step, blobs)] in seen.images.values():
            assert step == 7 and blobs[:2] == [b"4", b"3"] and blobs[2].startswith(b"\x89PNG")
