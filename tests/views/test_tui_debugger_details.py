"""The debugger screen on a loop and a cond: dead outputs say so, a Switch shows the side that
carried the value, w asks what to watch and the watched values show, a Merge is not left
waiting, and the run table keeps all its columns at 100x30."""

import pytest

from views.tui.widgets.debug_panels import FrontierPanel, NamePanel, TensorPanel
from views.tui.widgets.debug_tables import HistoryTable

from tests.views.test_tui_debugger import idle, press, until
from tests.views.tui_conftest import (ROOT, debugged_app, end_debugged_programs, run_async,
                                      screen_lines, screen_text)

LOOP = str(ROOT / "tests" / "inspector" / "scripts" / "debug_loop.py")


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()
    end_debugged_programs()


def loop_app():
    return debugged_app(LOOP)


async def type_line(app, pilot, text):
    await pilot.press(*text)
    await press(app, pilot, "enter")


@run_async
async def test_switch_watch_merge_and_dead_outputs_at_100x30():
    app, controller = loop_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(app, pilot, lambda: "start of the run" in screen_text(app))
        await press(app, pilot, "a")
        await type_line(app, pilot, "^loop/Switch_1$")
        await press(app, pilot, "c")
        await until(app, pilot, lambda: idle(app) and controller.run.current is not None
                    and controller.run.current.name == "loop/Switch_1")
        table = app.screen.query_one(HistoryTable)
        last = table.visible_texts()[-1]
        assert last[1] == "loop/Switch_1" and last[4] == "loop/while_context:0"
        assert last[5].startswith(":1 float32[2]")        # the body's side carried x
        header = screen_lines(app)[table.region.y]
        assert "frame/iter" in header and "value" in header
        frontier = controller.run.frontier()
        assert not [name for name, _ in frontier.waiting if "Merge" in name]

        await press(app, pilot, "w")                      # offers the current node
        await press(app, pilot, "enter")
        await until(app, pilot, lambda: "loop/Switch_1" in controller.debugger.watched)
        await press(app, pilot, "c")
        text = await until(app, pilot, lambda: idle(app) and
                           controller.run.current.iteration == 1)
        assert table.visible_texts()[-1][1] == "loop/Switch_1"     # the current row in view
        assert table.cursor == table.row_count - 1
        assert "watched:" in text and "loop/Switch_1:1 = float32[2] min" in text
        assert "loop/Switch_1:0 = no value (dead" in text

        await press(app, pilot, "f")
        text = await until(app, pilot, lambda: "debug_loop.py: finished" in screen_text(app))
        assert "= None" not in text and "object[" not in text
    assert controller.exit_code == 0


@run_async
async def test_side_panels_cut_long_names_in_the_middle_not_wrap_them_at_100x30():
    app, controller = loop_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(app, pilot, lambda: "start of the run" in screen_text(app))
        await press(app, pilot, *"s" * 12)                # at loop/Switch: Switch_1 is ready
        await until(app, pilot, lambda: idle(app) and
                    controller.run.current.name == "loop/Switch")
        for panel in app.screen.query(NamePanel):
            width = panel.content_size.width
            assert all(len(line) <= width for line in str(panel.content).splitlines()
                       if "created at" not in line and " = " not in line), panel.id
        frontier = str(app.screen.query_one(FrontierPanel).content).splitlines()
        assert "  loop/Switch_1 (lo…/while_context:0)" in frontier   # one entry, one line
        tensor = str(app.screen.query_one(TensorPanel).content).splitlines()
        place = tensor[tensor.index("created at") + 1]     # the script's path, cut in its middle
        assert "…" in place and place.endswith("/debug_loop.py:11:"), place
    controller.quit()


@pytest.mark.parametrize("size, node, op", [((100, 30), 14, 12), ((80, 24), 10, 8)])
@run_async
async def test_run_table_keeps_op_names_whole(size, node, op):
    # At 100 columns an op name up to 12 cells ("LoopCond", "Identity") is never cut; at 80
    # the node keeps 10 cells and the op 8 while frame and value give way.
    app, controller = loop_app()
    async with app.run_test(size=size) as pilot:
        await until(app, pilot, lambda: controller.run is not None
                    and controller.run.state == "paused")
        await press(app, pilot, *"s" * 22)
        await until(app, pilot, lambda: idle(app) and controller.run.current.number == 22)
        table = app.screen.query_one(HistoryTable)
        widths = table.widths()
        assert widths[1] >= node and widths[2] >= op, widths
        lines = screen_lines(app)[table.region.y:table.region.bottom]
        assert any(" Identity " in line for line in lines)
        assert sum(widths) + len(widths) - 1 <= table.scrollable_content_region.width
    controller.quit()
