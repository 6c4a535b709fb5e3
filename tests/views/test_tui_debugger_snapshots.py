"""SVG snapshots of the debugger screen at 160x48, 100x30 and 80x24: a real program
(tests/inspector/scripts/debug_small.py) paused after three steps. Values and names only; no
clock or path is on the screen."""

import time

import pytest

from tests.views.tui_conftest import ROOT, SIZE, debugged_app, end_debugged_programs, screen_text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SCRIPT = str(ROOT / "tests" / "inspector" / "scripts" / "debug_small.py")


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()
    end_debugged_programs()


async def _until(app, pilot, predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        if predicate():
            return
    raise AssertionError(f"timed out; the screen was:\n{screen_text(app)}")


@pytest.mark.parametrize("size", [SIZE, (100, 30), (80, 24)], ids=["160x48", "100x30", "80x24"])
def test_debugger_after_three_steps(snap_compare, size):
    app, controller = debugged_app(SCRIPT, "1", "-1", "3")

    async def run_before(pilot):
        await _until(app, pilot, lambda: "start of the run" in screen_text(app))
        for key in "sss":
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause(0.02)
        await _until(app, pilot, lambda: not app.screen.busy and not app.screen.queued
                     and controller.run.current.number == 3
                     and "paused (stepped)" in screen_text(app))
        app.clear_notifications()
        await pilot.pause()
    assert snap_compare(app, terminal_size=size, run_before=run_before)
