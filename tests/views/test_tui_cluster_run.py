"""A run on a cluster (engine/cluster) in the TUI: the partitions screen lists each task's
device, a _Send on one task finds its _Recv on another, the runs screen has every task's
nodes (Pilot)."""

import sys
from pathlib import Path

import pytest
from textual.widgets import DataTable

import engine as tf
from views.tui import InspectorApp
from views.tui.screens.browser import BrowserScreen
from views.tui.screens.runs import RunsScreen
from views.tui.widgets.lazy_table import LazyTable

from tests.views.tui_conftest import SIZE, run_async, settle

pytest.importorskip("distributed")

from engine.cluster import local  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "programs"))

import ps_in_graph  # noqa: E402

pytestmark = pytest.mark.slow
PS = "/job:ps/replica:0/task:0/device:CPU:0"


@pytest.fixture
def cluster_run(tmp_path, optimizer_on):
    """The in-graph ps program's training step, traced on a local cluster, as a .pb (the
    optimizer on: the counts are its graphs')."""
    with local.local_cluster({"ps": 1, "worker": 2}) as cluster, tf.Graph().as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            metadata = tf.RunMetadata()
            sess.run(g["train"], ps_in_graph.feeds(g),
                     options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                           output_partition_graphs=True),
                     run_metadata=metadata)
    path = tmp_path / "cluster_run.pb"
    path.write_bytes(metadata.SerializeToString())
    return str(path)


@run_async
async def test_partitions_screen_shows_each_task_and_sends_find_their_recvs(cluster_run):
    app = InspectorApp([cluster_run])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await pilot.pause()
        devices = app.screen.query_one("#devices", DataTable)
        shown = [str(devices.get_row_at(n)[1]) for n in range(devices.row_count)]
        assert sorted(shown) == sorted([PS, "/job:worker/replica:0/task:0/device:CPU:0",
                                        "/job:worker/replica:0/task:1/device:CPU:0"])
        devices.focus()
        devices.move_cursor(row=shown.index(PS))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        index = app.browser.view.index
        sends = [key for key, node in index.nodes.items()
                 if node.op == "_Send" and node.partition == PS]
        assert len(sends) == 4  # w/read and b/read to each worker
        for send in sends:
            recv = index.nodes[index.twin(send)]
            assert recv.op == "_Recv" and recv.partition.startswith("/job:worker/")

        await pilot.press("2")  # the runs screen: every task's nodes, its RecvTensors too
        await settle(app, pilot)
        runs = app.screen
        assert isinstance(runs, RunsScreen)
        assert runs.query_one("#steps", LazyTable).row_count == 78  # as in TensorFlow's trace
        assert sum(row.node == "RecvTensor" for row in runs.rows) == 10
        assert {row.device for row in runs.rows} == set(shown)
