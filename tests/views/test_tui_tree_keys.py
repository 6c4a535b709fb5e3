"""Every tree of the TUI takes Right and Left as a file manager does: Right opens the row (open
already: its first child), Left closes it (closed or a leaf: its parent); shift+Right/Left
scroll sideways. Driven with Pilot on the graph browser's scope tree and the SavedModel tree."""

from textual import events

from inspector.cmd_help import keys_text
from views.tui import InspectorApp
from views.tui.screens.pickers import help_text
from views.tui.screens.saved_objects import SavedObjectTree
from views.tui.widgets.scope_tree import ScopeTree

from tests.views.tui_conftest import FIXTURES, MLP_SGD, run_async, screen_text, settle

SMALL = (100, 30)


def labels(tree_node):
    return [child.label.plain for child in tree_node.children]


def row(tree):
    return tree.cursor_node.label.plain


@run_async
async def test_right_opens_then_enters_left_goes_up_then_closes():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(ScopeTree)
        assert app.focused is tree
        await pilot.press("down", "down")
        assert row(tree) == "layer1/ 16"
        layer1 = tree.cursor_node
        assert not layer1.is_expanded and not layer1.children   # made on opening

        await pilot.press("right")          # opens, the cursor stays
        assert layer1.is_expanded and tree.cursor_node is layer1
        assert labels(layer1)[:2] == ["biases/ 3", "truncated_normal/ 6"]
        await pilot.press("right")          # open: to its first child
        assert row(tree) == "biases/ 3"
        await pilot.press("right", "right")
        assert row(tree) == "biases  VariableV2"
        assert app.browser.key == "layer1/biases"
        await pilot.press("right")          # a leaf: nothing to open
        assert row(tree) == "biases  VariableV2" and tree.cursor_node.allow_expand is False

        await pilot.press("left")           # a leaf: to its parent, still open
        assert row(tree) == "biases/ 3" and tree.cursor_node.is_expanded
        await pilot.press("left")           # open: closes it
        assert row(tree) == "biases/ 3" and not tree.cursor_node.is_expanded
        await pilot.press("left")           # closed: to its parent
        assert tree.cursor_node is layer1 and layer1.is_expanded
        await pilot.press("left", "left")   # closes layer1; its parent is the hidden root
        assert tree.cursor_node is layer1 and not layer1.is_expanded
        assert "layer1/ 16" in screen_text(app) and "truncated_normal/" not in screen_text(app)


@run_async
async def test_right_twice_in_one_burst_enters_a_scope_not_made_yet():
    """The scope's rows are made when Right opens it, not when the Expanded message is handled
    later, so a second Right already queued steps into them."""
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(ScopeTree)
        await pilot.press("down", "down", "down")
        assert row(tree) == "layer2/ 15" and not tree.cursor_node.children
        for _ in range(2):
            app.post_message(events.Key("right", None))
        await pilot.pause()
        await pilot.pause()
        assert row(tree) == "biases/ 3"
        assert app.screen.query_one(ScopeTree).cursor_node.parent.label.plain == "layer2/ 15"


@run_async
async def test_shift_arrows_scroll_the_tree_sideways():
    app = InspectorApp([MLP_SGD])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        tree = app.screen.query_one(ScopeTree)
        await pilot.press("down")
        assert row(tree) == "gradients/ 60"
        await pilot.press("right")          # its rows are wider than the panel
        assert tree.max_scroll_x > 2 and tree.scroll_x == 0
        await pilot.press("shift+right", "shift+right")
        assert tree.scroll_x == 2
        assert row(tree) == "gradients/ 60" and tree.cursor_node.is_expanded
        await pilot.press("shift+left")
        assert tree.scroll_x == 1


@run_async
async def test_the_saved_model_tree_takes_the_same_keys():
    app = InspectorApp([str(FIXTURES / "tf2" / "tf_keras_mlp")])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("7")
        await pilot.pause()
        tree = app.screen.query_one(SavedObjectTree)
        assert app.focused is tree
        await pilot.press("down")
        assert row(tree) == "tf_keras_mlp  meta graph serve"
        meta_graph = tree.cursor_node
        await pilot.press("right")          # open: to its first child
        assert row(tree) == "Signatures (signature_def)"
        await pilot.press("left", "left")   # closes the section, then to its parent
        assert tree.cursor_node is meta_graph
        await pilot.press("left")
        assert not meta_graph.is_expanded
        await pilot.press("left")           # at the top: stays
        assert tree.cursor_node is meta_graph

        await pilot.press("right", "right", "shift+down", "shift+down", "shift+down")
        assert row(tree).startswith("Objects (101:")      # shift+down: the next sibling
        objects = tree.cursor_node
        assert not objects.children          # made on opening, as Right does
        await pilot.press("right", "right")
        assert tree.cursor_node.parent is objects and objects.children
        assert row(tree) == objects.children[0].label.plain


def test_the_help_screen_and_help_keys_list_the_tree_keys():
    for text in (help_text().plain, keys_text()):
        assert "Trees" in text
        assert "→  Open the row, or go to its first child" in text
        assert "←  Close the row, or go to its parent" in text
        assert "shift+→  Scroll the tree right" in text
