"""The runs screen's `T`: the current run written as a Chrome trace, its path notified."""

import json

from views.tui import InspectorApp
from views.tui.screens.pickers import help_text
from views.tui.screens.runs import RunsScreen

from tests.views.tui_conftest import ROOT, SIZE, TWO_CPU_RUN, run_async, settle


def _notices(app):
    return [notification.message for notification in app._notifications]


@run_async
async def test_T_on_the_runs_screen_writes_the_runs_trace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = InspectorApp([str(ROOT / TWO_CPU_RUN)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        await pilot.press("T")
        await pilot.pause()
        path = tmp_path / "trace.json"
        assert path.is_file()
        assert any(str(path) in notice for notice in _notices(app))
    trace = json.loads(path.read_text())
    ops = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["cat"] == "Op"]
    spans = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["cat"] == "Run"]
    assert len(ops) == 11 and len(spans) == 1
    devices = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "process_name"}
    assert devices == {"runs", "/job:localhost/replica:0/task:0/device:CPU:0",
                       "/job:localhost/replica:0/task:0/device:CPU:1"}


@run_async
async def test_T_without_a_run_says_so_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = InspectorApp([str(ROOT / "tests/fixtures/graphs/two_cpu.pb")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "T")
        await pilot.pause()
        assert not (tmp_path / "trace.json").exists()
        assert any("no run" in notice for notice in _notices(app))


def test_the_help_screen_lists_the_key():
    assert "Export trace" in help_text().plain
