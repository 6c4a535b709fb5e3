"""The optimizer's passes as diffs in the TUI (O, then < and >), on a graph TensorFlow wrote.
Each pass's diff must be exactly the change between the graphs the optimizer handed over."""

import pytest

from views import graph_diff
from views.tui import InspectorApp

from tests.views.tui_conftest import SIZE, run_async, screen_text, settle

optimizer = pytest.importorskip("engine.optimizer", reason="engine.optimizer not in this build")


# the passes are what is shown
pytestmark = pytest.mark.usefixtures("optimizer_on")


ADAM = "tests/fixtures/graphs/mlp_train_adam.pb"


async def until_view(app, pilot, predicate, tries=200):
    for _ in range(tries):
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        if app.browser.view is not None and predicate(app.browser.view):
            return app.browser.view
    raise AssertionError(screen_text(app))


@run_async
async def test_o_shows_each_pass_as_the_diff_of_its_graphs():
    import parsers
    graph = parsers.load(ADAM).graphs[0].graph_def
    result = optimizer.optimize(graph)
    app = InspectorApp([ADAM])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("O")
        view = await until_view(app, pilot, lambda view: view.steps is not None)
        stages, number = view.steps
        assert [stage.name for stage in stages.stages] == [stage.name for stage in result.stages]
        # It opens on the first pass that changed something.
        assert all(not stages.diff_at(k).diff.added and not stages.diff_at(k).diff.removed
                   and not stages.diff_at(k).diff.changed for k in range(number))
        shown = 0
        while True:
            before = graph if number == 0 else result.stages[number - 1].graph_def
            expected = graph_diff.diff(before, result.stages[number].graph_def)
            assert (view.diff.added, view.diff.removed, view.diff.changed) == (
                expected.added, expected.removed, expected.changed)
            text = screen_text(app)
            assert f"pass {number + 1}/{len(result.stages)} {result.stages[number].name}" in text
            shown += 1
            if number + 1 == len(result.stages):
                break
            await pilot.press("greater_than_sign")
            view = await until_view(app, pilot, lambda view, n=number: view.steps[1] == n + 1)
            number = view.steps[1]
        await pilot.press("less_than_sign")
        view = await until_view(app, pilot, lambda view: view.steps[1] == len(result.stages) - 2)
        assert shown >= 2


@run_async
async def test_stepping_without_an_optimization_says_how_to_start_one():
    app = InspectorApp([ADAM])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("greater_than_sign")
        await pilot.pause()
        notices = [notification.message for notification in app._notifications]
        assert any("O starts one" in notice for notice in notices), notices
