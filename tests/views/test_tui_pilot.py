"""The app driven with Pilot on the fixtures: open, filter, tabs, follow an input, runs, partitions."""

import pytest
from textual.widgets import DataTable, Input, TabbedContent

from views.tui import InspectorApp
from views.tui.screens.browser import BrowserScreen
from views.tui.screens.pickers import ExportScreen, HelpScreen
from views.tui.screens.runs import RunsScreen
from views.tui.widgets.lazy_table import LazyTable
from views.tui.widgets.scope_tree import ScopeTree

from tests.views.tui_conftest import MLP_SGD, SIZE, TWO_CPU_RUN, run_async, screen_text, settle

APPLY = "train/update_layer1/weights/ApplyGradientDescent"


async def find(pilot, text):
    await pilot.press("slash", *text, "enter")
    await pilot.pause()
    await pilot.pause()


@run_async
async def test_open_filter_enter_shows_the_nodedef():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "layer1/ 16" in screen_text(app)
        await find(pilot, "ApplyGradientDescent")
        browser = app.browser
        assert browser.key == APPLY
        assert app.screen.query_one(TabbedContent).active == "nodedef"
        text = screen_text(app)
        assert f'name: "{APPLY}"' in text and 'op: "ApplyGradientDescent"' in text
        assert 'input: "layer1/weights"' in text
        assert "train › update_layer1 › weights › ApplyGradientDescent" in text
        assert browser.query_one(ScopeTree).cursor_node.data.key == APPLY
        await pilot.press("n")
        assert browser.key == "train/update_layer1/biases/ApplyGradientDescent"
        await pilot.press("N", "N")
        assert browser.key == "train/update_layer2/biases/ApplyGradientDescent"  # wrapped round


@run_async
async def test_invalid_regex_falls_back_to_text_and_says_so():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"MatMul_grad/MatMul[")
        await pilot.pause()
        assert "not a regular expression" in screen_text(app)
        await pilot.press("escape")
        await find(pilot, "layer2/MatMul(")
        assert app.browser.key is None  # nothing matches the literal text


@run_async
async def test_tabs_and_following_an_input():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await find(pilot, "ApplyGradientDescent")
        await pilot.press("o")
        assert app.screen.query_one(TabbedContent).active == "opdef"
        assert 'name: "ApplyGradientDescent"' in screen_text(app)
        await pilot.press("t")
        assert "tests/programs/mlp_train_sgd.py" in screen_text(app)
        await pilot.press("i")
        table = app.screen.query_one("#inputs-table", DataTable)
        table.focus()
        await pilot.press("down", "enter")  # row 1: train/learning_rate
        await pilot.pause()
        assert app.browser.key == "train/learning_rate"
        await pilot.press("u")
        outputs = app.screen.query_one("#outputs-table", DataTable)
        assert outputs.row_count == 4   # the four ApplyGradientDescent ops
        await pilot.press("v")
        assert "the Const's value attr" in screen_text(app)
        await pilot.press("p")
        assert "╔" in screen_text(app)


@run_async
async def test_control_inputs_are_shown_as_such():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await find(pilot, "^train\\s")
        assert app.browser.key == "train"
        await pilot.press("i")
        table = app.screen.query_one("#inputs-table", DataTable)
        kinds = {str(table.get_row_at(n)[1]) for n in range(table.row_count)}
        assert kinds == {"control"}


@run_async
async def test_sort_the_step_stats_and_select_a_row():
    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        runs = app.screen
        assert isinstance(runs, RunsScreen)
        table = runs.query_one("#steps", LazyTable)
        assert table.row_count == 11
        await pilot.press("s")   # start -> op time: largest first
        await settle(app, pilot)
        assert runs.sort_column == "op_us" and runs.reverse
        assert [row.op for row in runs.rows[:1]] == ["MatMul"]
        assert table.visible_texts()[0][1] == "product"
        await pilot.press("r")                    # reversed: smallest first
        await settle(app, pilot)
        assert not runs.reverse and runs.rows[0].op_us <= runs.rows[len(runs.rows) - 1].op_us
        await pilot.press("slash", *"Const")
        await settle(app, pilot)
        assert table.row_count == 3
        await pilot.press("enter")
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        assert app.browser.view.index.nodes[app.browser.key].op == "Const"


@run_async
async def test_open_a_partition_and_follow_send_to_its_twin():
    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await pilot.pause()
        devices = app.screen.query_one("#devices", DataTable)
        assert devices.row_count == 2
        devices.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        view = app.browser.view
        assert view.kind == "partitions"
        await find(pilot, "_Send")
        send = app.browser.key
        await pilot.press("u")
        outputs = app.screen.query_one("#outputs-table", DataTable)
        kinds = [str(outputs.get_row_at(n)[1]) for n in range(outputs.row_count)]
        assert "sendrecv" in kinds
        outputs.focus()
        outputs.move_cursor(row=kinds.index("sendrecv"))
        await pilot.press("enter")
        await pilot.pause()
        assert view.index.nodes[app.browser.key].op == "_Recv"
        assert app.browser.key == view.index.twin(send)


@run_async
async def test_a_bad_file_is_reported_and_the_others_open(tmp_path):
    bad = tmp_path / "broken.pb"
    bad.write_bytes(b"\x0a\xff\xff\xff")
    app = InspectorApp([str(bad), MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.browser.view.label == "mlp_train_sgd.pb"
        messages = [n.message for n in app._notifications]
        assert any("broken.pb" in m for m in messages)


@run_async
async def test_help_palette_export_and_quit(tmp_path):
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Narrower tree" in screen_text(app) and "Prev" in screen_text(app)
        await pilot.press("escape")
        await find(pilot, "^loss$")
        await pilot.press("x")
        assert isinstance(app.screen, ExportScreen)
        path_input = app.screen.query_one(Input)
        path_input.value = str(tmp_path / "loss.dot")
        await pilot.press("enter")
        await pilot.pause()
        assert "loss" in (tmp_path / "loss.dot").read_text()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"go to runs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        await pilot.press("q")
    assert app.return_code == 0


@pytest.mark.slow
@run_async
async def test_demo_workspace_shows_values_and_engine_tracebacks():
    from inspector.cmd_demo import make_workspace
    app = InspectorApp(workspace=make_workspace())
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await find(pilot, "^Add")
        await pilot.press("v")
        assert "fetched from the engine's run" in screen_text(app)
        await pilot.press("t")
        text = screen_text(app)
        first = text.index("▶ File ")      # the creating line comes first, with its source
        assert "cmd_demo.py" in text[first:first + 200] and "counter_program" in text
        assert "new_value = tf.add(state, one)" in text
        assert text.index("tf.add(state, one)") < text.index("launched through")


@run_async
async def test_a_vlog_lists_its_graphs_and_replays_a_step():
    app = InspectorApp(["sample_logs/counter.log"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await pilot.pause()
        graphs = app.screen.query_one("#log-graphs", DataTable)
        assert graphs.row_count == len([v for v in app.workspace.graphs if v.kind == "vlog"]) > 0
        assert "MklLayoutRewritePass" in str(graphs.get_row_at(0)[1])
        steps = app.screen.query_one("#log-steps", DataTable)
        steps.focus()
        await pilot.press("down", "enter")   # step 1
        await pilot.pause()
        execution = app.screen.execution
        assert app.screen.position == 0
        await pilot.press("space", "space")
        assert app.screen.position == 2
        assert f"3  {execution.nodes[2]}" in screen_text(app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        assert app.browser.view is execution.graph
        assert app.browser.view.index.nodes[app.browser.key].name == execution.nodes[2]
