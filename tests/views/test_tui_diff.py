"""The diff view in the TUI: two graphs TensorFlow wrote (SGD vs Adam training), compared with
D; the tree narrowed to what differs and marked, the header saying what changed, the Picture
tab marking its boxes; the palette lists the diff; `diff --tui` opens on it."""

from textual.widgets import OptionList

from views.tui import InspectorApp
from views.tui.screens.graph_picker import GraphPicker
from views.tui.widgets.scope_tree import ScopeTree

from tests.views.tui_conftest import MLP_SGD, SIZE, run_async, screen_text, settle

ADAM = "tests/fixtures/graphs/mlp_train_adam.pb"


async def diff_adam_against_sgd(app, pilot):
    await settle(app, pilot)
    await pilot.press("g")                      # show Adam's graph (the second opened)
    await pilot.pause()
    await pilot.press("down", "enter")
    await pilot.pause()
    assert app.browser.view.label == "mlp_train_adam.pb"
    await pilot.press("D")
    await pilot.pause()
    picker = app.screen
    assert isinstance(picker, GraphPicker)
    assert "Compare mlp_train_adam.pb with" in screen_text(app)
    assert [view.label for view in picker.views] == ["mlp_train_sgd.pb"]
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()


@run_async
async def test_d_diffs_the_graph_shown_against_another():
    app = InspectorApp([MLP_SGD, ADAM])
    async with app.run_test(size=SIZE) as pilot:
        await diff_adam_against_sgd(app, pilot)
        view = app.browser.view
        assert view.kind == "diff" and view.label == "mlp_train_sgd.pb -> mlp_train_adam.pb"
        text = screen_text(app)
        assert "+51" in text and "-4" in text and "~3" in text        # the title's counts
        assert "51 added, 4 removed, 3 changed, 126 unchanged" in text
        tree = app.browser.query_one(ScopeTree)
        assert tree.narrowing is not None and len(tree.narrowing.keys) == 58
        # Scopes say how many nodes under them differ, leaves carry their mark.
        assert "beta1_power/ 4 of 4 +4" in text
        assert "+ beta1_power  VariableV2" in text or "+ initial_value  Const" in text
        await pilot.press("slash", *"^train/learning_rate$", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "changed: attr value: Tensor<float [] " in text
        await pilot.press("p")                  # the picture marks the changed box
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "~ learning_rate" in text and "+ added - removed ~ changed" in text
        await pilot.press("escape")             # the whole merged graph
        await pilot.pause()
        assert tree.narrowing is None
        assert "layer1/ 32" in screen_text(app)


@run_async
async def test_removed_nodes_are_in_the_diff_and_say_so():
    app = InspectorApp([MLP_SGD, ADAM])
    async with app.run_test(size=SIZE) as pilot:
        await diff_adam_against_sgd(app, pilot)
        await pilot.press("slash", *"ApplyGradientDescent", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert app.browser.key == "train/update_layer1/weights/ApplyGradientDescent"
        assert "removed: only in the first graph" in text
        assert "- ApplyGradientDescent" in text


@run_async
async def test_the_palette_offers_the_diff():
    app = InspectorApp([MLP_SGD, ADAM])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"diff mlp_train_adam")
        await pilot.pause(0.3)
        options = app.screen.query_one(OptionList)
        texts = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert any("diff mlp_train_adam.pb -> mlp_train_sgd.pb" in text for text in texts), texts
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert app.browser.view.label == "mlp_train_adam.pb -> mlp_train_sgd.pb"
        assert "4 added, 51 removed" in screen_text(app)


@run_async
async def test_one_graph_alone_has_nothing_to_diff():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("D")
        await pilot.pause()
        assert not isinstance(app.screen, GraphPicker)
        notices = [notification.message for notification in app._notifications]
        assert any("open two graphs to compare them" in notice for notice in notices), notices


def test_x_exports_the_diff_coloured_by_change(tmp_path):
    out = tmp_path / "diff.dot"

    @run_async
    async def body():
        app = InspectorApp([MLP_SGD, ADAM])
        async with app.run_test(size=SIZE) as pilot:
            await diff_adam_against_sgd(app, pilot)
            await pilot.press("x")
            await pilot.pause()
            field = app.screen.query_one("#export-path")
            field.value = str(out)
            await pilot.press("enter")
            await pilot.pause()
    body()
    text = out.read_text()
    assert "51 added, 4 removed, 3 changed" in text
    assert 'fillcolor="#b2df8a"' in text and ">added<" in text    # added: green, in the legend
