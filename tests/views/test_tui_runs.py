"""The runs screen: a run picker and runs in the palette, time columns largest first, every
column on a 100x30 screen with long names cut in the middle, a generated 10,000-execution run
read in a worker (its progress shown at once), the filter narrowing and widening, a run read
once however often it is shown, and `T` never overwriting a trace."""

import threading

from bench.runs_large import large_run, write_run
from views.tui import InspectorApp, stepstats
from views.tui.widgets.stats_table import OpTotalsTable
from views.tui.screens.pickers import RunPicker
from views.tui.screens.runs import RunsScreen
from views.tui.widgets.lazy_table import LazyTable

from tests.views.tui_conftest import (ROOT, TWO_CPU_RUN, burst, run_async, screen_lines, screen_text,
                                      settle)

SMALL = (100, 30)


async def runs_screen(app, pilot):
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    assert isinstance(app.screen, RunsScreen)
    return app.screen


def test_the_run_picker_and_the_palette_switch_runs(tmp_path):
    generated = tmp_path / "generated.pb"
    write_run(generated, 300)

    @run_async
    async def body():
        app = InspectorApp([TWO_CPU_RUN, str(generated)])
        async with app.run_test(size=SMALL) as pilot:
            runs = await runs_screen(app, pilot)
            assert runs.run_number == 0 and len(runs.rows) == 11
            await pilot.press("g")
            await pilot.pause()
            assert isinstance(app.screen, RunPicker)
            await pilot.press("down", "enter")
            await settle(app, pilot)
            assert app.screen is runs and runs.run_number == 1 and len(runs.rows) == 300
            assert "run 2/2" in "\n".join(screen_lines(app))
            await pilot.press("d", "d", "d", "d")      # devices cycle; the run stays
            await settle(app, pilot)
            assert runs.run_number == 1 and runs.device_number == 0
            await pilot.press("1", "ctrl+p")
            await pilot.pause()
            await pilot.press(*"show run two_cpu")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await settle(app, pilot)
            assert isinstance(app.screen, RunsScreen) and app.screen.run_number == 0
    body()


@run_async
async def test_time_columns_sort_largest_first_and_fit_100x30():
    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SMALL) as pilot:
        runs = await runs_screen(app, pilot)
        table = runs.query_one(LazyTable)
        header = screen_lines(app)[table.region.y]
        for title in ("device", "node", "op", "start µs", "op µs", "total µs", "output bytes"):
            assert title in header
        for column, descending in (("all_us", True), ("bytes", True), ("node", False)):
            table.post_message(LazyTable.HeaderClicked(table, column))
            await settle(app, pilot)
            values = [getattr(row, column) for row in runs.rows[:len(runs.rows)]]
            assert runs.sort_column == column and runs.reverse == descending
            assert values == sorted(values, reverse=descending)
        await pilot.press("r")
        await settle(app, pilot)
        nodes = [row.node for row in runs.rows[:len(runs.rows)]]
        assert runs.reverse and nodes == sorted(nodes, reverse=True)


def test_a_10k_run_reads_in_a_worker_and_names_are_cut_in_the_middle(tmp_path):
    generated = tmp_path / "big.pb"
    write_run(generated, 10_000)

    @run_async
    async def body():
        app = InspectorApp([str(generated)])
        async with app.run_test(size=SMALL) as pilot:
            runs = await runs_screen(app, pilot)
            assert len(runs.rows) == 10_000
            table = runs.query_one(LazyTable)
            lines = screen_lines(app)
            first = lines[table.region.y + 1]
            # every column shows: device, a cut name, the op, four numbers
            assert first.split()[0] == "CPU:0" and "…" in first and len(first.split()) == 7
            assert "model/layer0000/matmul_00" in runs.rows[0].node
            await pilot.press("end")
            await pilot.pause()
            assert table.cursor == 9_999
            assert table.visible_texts()[-1][3] == str(runs.rows[9_999].start_us)
            await pilot.press("slash", *"layer0042/")
            await settle(app, pilot)
            assert len(runs.rows) == 40 and all("layer0042/" in r.node for r in runs.rows[:40])
    body()


def test_the_filter_narrows_as_typed_and_widens_on_backspace(tmp_path):
    generated = tmp_path / "generated.pb"
    write_run(generated, 2_000)
    executions = stepstats.step_rows(large_run(2_000).step_stats)

    def expected(text):
        """Rows whose name holds `text` (no op or device holds "layer"), by start time."""
        return sorted((r for r in executions if text in r.node), key=lambda r: r.start_us)

    @run_async
    async def body():
        app = InspectorApp([str(generated)])
        async with app.run_test(size=SMALL) as pilot:
            runs = await runs_screen(app, pilot)
            await pilot.press("slash")
            typed = ""
            for key in [*"layer0012/m"] + ["backspace"] * 3:
                await pilot.press(key)
                await settle(app, pilot)
                typed = typed[:-1] if key == "backspace" else typed + key
                rows = expected(typed)
                assert runs.rows[:len(runs.rows)] == rows, typed
                assert f"  {len(rows):,} executions  filter {typed!r}" in screen_text(app)
                totals = runs.query_one(OpTotalsTable)
                assert sum(int(totals.get_row_at(n)[1]) for n in range(totals.row_count)) == \
                    len(rows)
            assert typed == "layer001" and len(runs.rows) == 400
            assert runs.query_one(LazyTable).visible_texts()[0][1] == rows[0].node
    body()


def test_switching_run_and_back_shows_the_first_runs_rows_each_run_read_once(
        tmp_path, monkeypatch):
    paths = [tmp_path / "first.pb", tmp_path / "second.pb"]
    for seed, (path, executions) in enumerate(zip(paths, (300, 500))):
        write_run(path, executions, seed=seed + 1)
    reads, read_columns = [], stepstats.read_columns
    monkeypatch.setattr(stepstats, "read_columns",
                        lambda *args: reads.append(1) or read_columns(*args))

    @run_async
    async def body():
        app = InspectorApp([str(path) for path in paths])
        async with app.run_test(size=SMALL) as pilot:
            runs = await runs_screen(app, pilot)
            await pilot.press("s")                       # by op time, largest first
            await settle(app, pilot)
            first = runs.rows[:len(runs.rows)]
            assert runs.sort_column == "op_us" and len(first) == 300
            await pilot.press("g", "down", "enter")
            await settle(app, pilot)
            assert runs.run_number == 1 and len(runs.rows) == 500
            assert runs.rows[:500] != first[:500]
            await pilot.press("g", "up", "enter")
            await settle(app, pilot)
            assert runs.run_number == 0 and runs.rows[:len(runs.rows)] == first
            # Back and forth without waiting: the last run chosen is the one shown.
            await pilot.press("g", "down", "enter", "g", "up", "enter")
            await settle(app, pilot)
            assert runs.run_number == 0 and runs.rows[:len(runs.rows)] == first
            assert "run 1/2" in screen_text(app) and "300 executions" in screen_text(app)
    body()
    assert len(reads) == 2


def test_a_run_being_read_shows_its_progress_at_once_and_the_screen_answers_keys(
        tmp_path, monkeypatch):
    paths = [tmp_path / "first.pb", tmp_path / "second.pb"]
    for path, executions in zip(paths, (300, 500)):
        write_run(path, executions)
    release, read_columns, reads = threading.Event(), stepstats.read_columns, []

    def second_held(*args):
        reads.append(1)
        if len(reads) == 2:
            assert release.wait(30), "the test never let the reading finish"
        return read_columns(*args)
    monkeypatch.setattr(stepstats, "read_columns", second_held)

    @run_async
    async def body():
        app = InspectorApp([str(path) for path in paths])
        async with app.run_test(size=SMALL) as pilot:
            try:
                runs = await runs_screen(app, pilot)
                assert len(runs.rows) == 300
                await pilot.press("g", "down", "enter")
                await pilot.pause()
                # Progress, and none of the first run's rows under the second run's caption.
                assert "reading 500 executions…" in screen_text(app)
                assert len(runs.rows) == 0 and runs.query_one(LazyTable).visible_texts() == []
                await pilot.press("1")                   # the graph browser, while it reads
                await pilot.pause()
                assert not isinstance(app.screen, RunsScreen)
                await pilot.press("2")
                await pilot.pause()
                assert app.screen is runs and "reading 500 executions…" in screen_text(app)
            finally:
                release.set()
            await settle(app, pilot)
            assert len(runs.rows) == 500 and "500 executions" in screen_text(app)
    body()
    assert len(reads) == 2


def test_T_numbers_the_trace_instead_of_overwriting(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "trace.json").write_text("mine")

    @run_async
    async def body():
        app = InspectorApp([str(ROOT / TWO_CPU_RUN)])
        async with app.run_test(size=SMALL) as pilot:
            await runs_screen(app, pilot)
            await pilot.press("T")
            await pilot.pause()
            await pilot.press("T")
            await pilot.pause()
            notices = [n.message for n in app._notifications]
            assert any(str(tmp_path / "trace-1.json") in notice for notice in notices)
    body()
    assert (tmp_path / "trace.json").read_text() == "mine"
    assert (tmp_path / "trace-1.json").is_file() and (tmp_path / "trace-2.json").is_file()


@run_async
async def test_ctrl_p_lists_the_apps_own_commands_first():
    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.5)
        lines = [line.strip() for line in screen_lines(app)]
        listed = [line for line in lines if line.startswith(("go to", "open", "show run",
                                                             "Keys", "Quit"))]
        assert listed[0] == "go to Graph browser" and "show run two_cpu.pb" in listed
        assert listed.index("show run two_cpu.pb") < listed.index("Keys")


@run_async
async def test_keys_typed_in_one_burst_after_slash_go_to_the_filter():
    """A paste, or tmux's send-keys: `/` and the query arrive before the filter box has taken
    the focus. The keys are the query's, not the table's bindings (`r` would reverse)."""
    from textual import events

    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SMALL) as pilot:
        runs = await runs_screen(app, pilot)
        for key in ["slash", *"prod"]:  # queued together: none is handled before the last
            app.post_message(events.Key(key, "/" if key == "slash" else key))
        await settle(app, pilot)
        assert not runs.reverse and runs.sort_column != "op"
        assert runs.query_one("#filter-input").value == "prod"
        assert [row.node for row in runs.rows[:len(runs.rows)]] == ["product"]


@run_async
async def test_keys_after_a_burst_are_added_and_keys_after_its_enter_are_bindings():
    """What is typed after the burst (the box has the focus by then) goes on the end of the
    query, not over it; and keys in one burst after the Enter that ends it are the screen's
    again (r reverses the table), not more of the query."""
    app = InspectorApp([TWO_CPU_RUN])
    async with app.run_test(size=SMALL) as pilot:
        runs = await runs_screen(app, pilot)
        burst(app, "slash", "pro")
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        assert runs.query_one("#filter-input").value == "prod"
        reverse = runs.reverse
        burst(app, "enter", "r")
        await settle(app, pilot)
        assert runs.query_one("#filter-input").value == "prod"
        assert not runs.query_one("#filter-bar").is_open and runs.reverse != reverse
        assert [row.node for row in runs.rows[:len(runs.rows)]] == ["product"]
