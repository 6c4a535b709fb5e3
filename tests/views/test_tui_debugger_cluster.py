"""The debugger screen stepping a run on a local cluster: nodes paused on their tasks, named
by them; quitting the app mid-run leaves the cluster usable."""

import numpy as np
import pytest

from views.tui.widgets.debug_tables import HistoryTable

from tests.views.test_tui_debugger import idle, press, until
from tests.views.tui_conftest import SIZE, debugged_app, end_debugged_programs, run_async

pytest.importorskip("distributed")

from engine.cluster import local  # noqa: E402

from tests.cluster_cases import X, ps_worker_session  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()
    end_debugged_programs()


@pytest.fixture(scope="module")
def session():
    """A session on a ps and a worker (threads of this process), v initialized."""
    with local.local_cluster({"ps": 1, "worker": 1}) as cluster:
        with ps_worker_session(cluster.scheduler_address) as session:
            yield session


def make_app(sess, t):
    def program(debugger):
        with debugger.installed():
            print("total =", sess.run(t["total"], {t["x"]: X}))
    return debugged_app(program, label="cluster run")


async def step(app, pilot, controller, count):
    """Once the run is paused at its start, `count` presses of s; the screen's text when the
    debugger stands at node `count`."""
    await until(app, pilot, lambda: controller.run is not None and
                controller.run.state == "paused")
    await press(app, pilot, *"s" * count)
    return await until(app, pilot, lambda: idle(app) and controller.run.current is not None
                       and controller.run.current.number == count)


@run_async
async def test_stepping_shows_each_node_on_its_task_and_continue_ends_the_run(session):
    sess, t = session
    app, controller = make_app(sess, t)
    async with app.run_test(size=SIZE) as pilot:
        text = await step(app, pilot, controller, 5)
        table = app.screen.query_one("#debug-history", HistoryTable)
        assert table.row_count == 5
        devices = {event.device for event in controller.run.history}
        assert "/job:ps/replica:0/task:0/device:CPU:0" in devices
        # The table names each row's task; the tensor panel the current node's device.
        assert " worker:0 " in text and " ps:0 " in text
        assert controller.run.current.device == "/job:ps/replica:0/task:0/device:CPU:0"
        assert "/job:ps/task:0/CPU:0" in text
        await press(app, pilot, "c")
        await until(app, pilot, lambda: "finished" in controller.status, timeout=20)
        assert "total = 8.5" in controller.printed.all()
    controller.quit()
    assert controller.exit_code == 0


@run_async
async def test_quitting_mid_run_releases_the_tasks(session):
    sess, t = session
    app, controller = make_app(sess, t)
    async with app.run_test(size=SIZE) as pilot:
        await step(app, pilot, controller, 3)
    controller.quit()   # what closing the app does
    assert controller.run.state == "aborted"
    np.testing.assert_allclose(sess.run(t["total"], {t["x"]: X}), 8.5)
    assert not any(line.startswith("total =") for line in controller.printed.all())
