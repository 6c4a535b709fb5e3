"""The browser's / (find) and f (filter): anchors on the node name, the exact name first, and
a filter that narrows the tree to the matches and their scopes."""

from views.tui import InspectorApp
from views.tui.widgets.scope_tree import ScopeTree

from tests.views.tui_conftest import MLP_SGD, run_async, screen_lines, screen_text, settle


def tree_text(app, tree):
    """The tree's part of the screen (the rows below the title and breadcrumb)."""
    region = tree.region
    lines = screen_lines(app)[region.y:region.y + region.height]
    return "\n".join(line[region.x:region.x + region.width] for line in lines)


async def type_in(pilot, key, text):
    await pilot.press(key, *text, "enter")
    await pilot.pause()
    await pilot.pause()


@run_async
async def test_anchors_apply_to_the_name_and_the_exact_name_comes_first():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await type_in(pilot, "slash", "Descent$")
        assert app.browser.key == "train/update_layer1/weights/ApplyGradientDescent"
        assert len(app.browser.matches) == 4
        await type_in(pilot, "slash", "loss")      # gradients/loss_grad/... follow it
        assert app.browser.matches[0] == "loss" and app.browser.key == "loss"
        assert len(app.browser.matches) > 10
        await type_in(pilot, "slash", "^layer1/MatMul$")
        assert app.browser.matches == ["layer1/MatMul"]


@run_async
async def test_f_narrows_the_tree_and_escape_brings_it_back():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await type_in(pilot, "f", "ApplyGradientDescent")
        tree = app.browser.query_one(ScopeTree)
        assert tree.narrowing is not None and len(tree.narrowing.keys) == 4
        text = tree_text(app, tree)
        assert "train/ 4 of 6" in text and "update_layer2/ 2 of 2" in text
        assert "gradients/" not in text and "layer1/ 16" not in text
        assert text.count("ApplyGradientDescent  Apply") == 4
        assert "filter 1/4 for 'ApplyGradientDescent'" in screen_text(app)
        await pilot.press("n")
        assert app.browser.key == "train/update_layer1/biases/ApplyGradientDescent"
        await pilot.press("escape")
        await pilot.pause()
        assert tree.narrowing is None
        text = tree_text(app, tree)
        assert "gradients/ 60" in text and "layer1/ 16" in text
        assert app.browser.key == "train/update_layer1/biases/ApplyGradientDescent"


@run_async
async def test_brackets_resize_the_tree_and_the_terminal_width_sets_its_default():
    app = InspectorApp(["tests/fixtures/graphs/cnn_train.pb"])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        tree = app.browser.query_one(ScopeTree)
        assert tree.outer_size.width == 34                   # a third of 100 columns
        await type_in(pilot, "slash", "Conv2DBackpropFilter$")
        assert "Conv2DBackpropFilter  Conv2DBackpropFilter" not in tree_text(app, tree)
        await pilot.press(*["right_square_bracket"] * 4)
        await pilot.pause()
        assert tree.outer_size.width == 50
        assert "Conv2DBackpropFilter  Conv2DBackpropFilter" in tree_text(app, tree)  # not cut
        for _ in range(20):
            await pilot.press("right_square_bracket")
        await pilot.pause()
        assert tree.outer_size.width == 60                   # the details keep 40 columns
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert tree.outer_size.width == 56


@run_async
async def test_a_burst_after_slash_or_f_is_the_query_not_key_bindings():
    """`/` or `f` and the query arriving together (a paste, tmux send-keys), before the box
    has the focus: the keys are the query's (here `f` would filter, `q` quit)."""
    from textual import events

    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        for opener, query in (("slash", "fq"), ("f", "qf")):
            for key in [opener, *query]:
                app.post_message(events.Key(key, "/" if key == "slash" else key))
            await settle(app, pilot)
            assert app.is_running and app.browser.query_one("#filter-input").value == query
            await pilot.press("escape")
            await settle(app, pilot)
            app.browser.query_one("#filter-input").value = ""  # the box keeps its last query
        assert app.browser.narrow_on_submit  # the second burst opened the filter, not find
