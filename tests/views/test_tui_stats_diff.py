"""The stats-diff screen (`diff --stats A B --tui`) under Pilot: TensorFlow's and the engine's
traced conv-net step, the op types and nodes in cost order, `s` and `r` resorting them."""

from textual.widgets import DataTable

from engine.proto import config_pb2
from views import stats_diff
from views.tui.screens.stats_diff import StatsDiffApp, StatsDiffScreen

from tests.views.tui_conftest import FIXTURES, SIZE, run_async, screen_text

RUNS = FIXTURES / "runs"


def found():
    runs = [config_pb2.RunMetadata.FromString((RUNS / f"convnet_step.{side}.pb").read_bytes())
            for side in ("tf", "engine")]
    return stats_diff.compare([runs[0].step_stats], [runs[1].step_stats])


def first_column(table):
    return [table.get_row_at(i)[0] for i in range(table.row_count)]


@run_async
async def test_tables_in_cost_order_then_resorted():
    diff = found()
    app = StatsDiffApp(diff, "tf.pb", "engine.pb")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsDiffScreen)
        ops = screen.query_one("#stats-ops", DataTable)
        nodes = screen.query_one("#stats-nodes", DataTable)
        assert first_column(ops) == [row.key for row in diff.ops]
        assert first_column(nodes) == [row.key for row in diff.nodes]
        text = screen_text(app)
        assert "A: tf.pb (1 run)" in text and "sorted by cost" in text
        assert f"only in A ({len(diff.only_a)})" in text
        await pilot.press("s")
        by_ratio = sorted(diff.ops, key=lambda r: -1.0 if r.ratio is None else r.ratio,
                          reverse=True)
        assert first_column(ops) == [row.key for row in by_ratio]
        await pilot.press("s", "r")
        assert first_column(ops) == sorted((row.key for row in diff.ops), reverse=True)
        assert "sorted by name (reversed)" in screen_text(app)
