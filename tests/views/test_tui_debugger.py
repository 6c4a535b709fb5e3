"""The debugger screen driven with Pilot: a real program's runs, stepped, broken and continued."""

import time

import pytest
from textual.widgets import DataTable, Input

from views.tui import InspectorApp
from views.tui.screens.debugger import DebuggerScreen
from views.tui.widgets.debug_panels import FrontierPanel
from views.tui.widgets.debug_tables import HistoryTable
from views.tui.workspace import Workspace

from tests.views.tui_conftest import (ROOT, SIZE, burst, debugged_app,
                                      end_debugged_programs, run_async, screen_text)

SMALL = str(ROOT / "tests" / "inspector" / "scripts" / "debug_small.py")


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()
    end_debugged_programs()


def make_app(*args):
    return debugged_app(SMALL, *args)


async def until(app, pilot, predicate, timeout=30.0):
    """The screen once `predicate()` holds: a deadline, not a pause (a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        if predicate():
            return screen_text(app)
    raise AssertionError(f"timed out; the screen was:\n{screen_text(app)}")


async def press(app, pilot, *keys):
    for key in keys:
        await pilot.press(key)
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)


def idle(app):
    """The debugger screen has carried out every command typed and shows where they left."""
    screen = app.screen
    return isinstance(screen, DebuggerScreen) and not screen.busy and not screen.queued


@run_async
async def test_step_three_nodes_shows_each_value_and_the_frontier():
    app, controller = make_app("1", "-1", "3")
    async with app.run_test(size=SIZE) as pilot:
        text = await until(app, pilot, lambda: "start of the run" in screen_text(app))
        assert isinstance(app.screen, DebuggerScreen)
        assert "Session.run #1: y:0: paused (start of the run" in text
        await press(app, pilot, "s", "s", "s")
        text = await until(app, pilot, lambda: idle(app) and controller.run.current.number == 3)
        assert app.screen.query_one("#debug-history", HistoryTable).row_count == 3
        assert "_arg_x_0_0 (_Arg) on CPU:0" in text and "x:0 = [ 1. -1.  3.]" in text
        frontier = str(app.screen.query_one(FrontierPanel).content)   # one node a line
        assert "ready:\n  scaled\n" in frontier and "waiting:\n  y on scaled" in frontier
        assert " >>   _arg_x_0_0 (_Arg)" in text and "out scaled  ready" in text
        assert "paused (stepped)" in text


@run_async
async def test_breakpoints_toggle_add_and_continue_to_the_next_run():
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "start of the run" in screen_text(app))
        await press(app, pilot, "s")
        await until(app, pilot, lambda: idle(app) and controller.run.current is not None)
        await press(app, pilot, "b")
        table = app.screen.query_one("#debug-breakpoints", DataTable)
        await until(app, pilot, lambda: "name~^scaled/y$" in screen_text(app))
        assert table.row_count == 1
        table.focus()
        await until(app, pilot, lambda: table.has_focus)
        await press(app, pilot, "enter")
        await until(app, pilot, lambda: not controller.breakpoints[0].enabled and
                    "off" in screen_text(app))
        await press(app, pilot, "a", *"op=Log", "enter")
        await until(app, pilot, lambda: "op~Log" in screen_text(app))
        assert not app.screen.query_one(Input).has_class("-open")
        await press(app, pilot, "c")                        # run 1 ends; run 2 stops at Log
        text = await until(app, pilot, lambda: "log_y (Log) on CPU:0" in screen_text(app))
        assert "Session.run #2: log_y:0: paused (breakpoint" in text
        assert "y = [ 4.  7. 10.]" in text                  # the program's output so far
        await press(app, pilot, "c")
        text = await until(app, pilot, lambda: "debug_small.py: finished" in screen_text(app))
        assert "z = [1.3862944" in text
    controller.quit()
    assert controller.exit_code == 0


@run_async
async def test_a_burst_after_a_is_the_breakpoint_and_c_after_it_continues_to_it():
    """`a`, the breakpoint, Enter and `c` arriving together (tmux send-keys, a paste, a fast
    typist), before the input has the focus: the keys are the breakpoint's, not bindings (g
    would leave for the graph browser, n end the run), and c continues to the breakpoint."""
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "start of the run" in screen_text(app))
        burst(app, "a", "op=Log", "enter", "c")
        text = await until(app, pilot, lambda: "log_y (Log) on CPU:0" in screen_text(app))
        assert isinstance(app.screen, DebuggerScreen) and "op~Log" in text
        assert [bp.label for bp in controller.breakpoints] == ["op~Log"]
        burst(app, "w", "y:0", "enter", "c")    # y:0 replaces the node offered, as typed slowly
        await until(app, pilot, lambda: "debug_small.py: finished" in screen_text(app))
        assert controller.debugger.watched == {"y:0"}


@run_async
async def test_steps_typed_faster_than_they_run_are_each_carried_out():
    """s typed while a step is running is queued, not dropped: each steps one node on."""
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "start of the run" in screen_text(app))
        burst(app, "sssss")
        await until(app, pilot, lambda: idle(app) and controller.run.current.number == 5)
        assert app.screen.query_one("#debug-history", HistoryTable).row_count == 5


@run_async
async def test_g_shows_the_current_node_in_the_graph_browser():
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: controller.run is not None)
        await press(app, pilot, "s", "s", "s", "s")
        assert controller.run.current.name == "scaled"
        await press(app, pilot, "g")
        text = await until(app, pilot, lambda: app.browser is not None and
                           app.browser.key == "scaled")
        assert 'op: "Mul"' in text
        await press(app, pilot, "5")
        assert isinstance(app.screen, DebuggerScreen)
    controller.quit()


@run_async
async def test_without_a_controller_the_screen_says_how_to_start_one():
    app = InspectorApp(workspace=Workspace())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await press(app, pilot, "5")
        assert "graph-inspector debug SCRIPT.py" in screen_text(app)



@run_async
async def test_n_stops_at_the_start_of_the_next_run():
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: controller.run is not None)
        await press(app, pilot, "s", "n")
        await until(app, pilot, lambda: controller.run.label.startswith("Session.run #2")
                    and controller.run.state == "paused")
        assert controller.run.current is None             # at its start: nothing run yet
    controller.quit()


@run_async
async def test_f_finishes_this_run_and_the_program_goes_on_unstopped():
    # With no breakpoint set, run 2 has no reason to stop: f ends run 1 and the program ends.
    app, controller = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: controller.run is not None)
        await press(app, pilot, "s", "f")
        text = await until(app, pilot, lambda: "finished" in controller.status)
        assert "z = [1.3862944" in text and controller.debugger.runs == 2
        assert controller.run.label.startswith("Session.run #1")   # run 2 was never shown
        assert "f Finish run" in text and "n Next run" in text
    controller.quit()
    assert controller.exit_code == 0
