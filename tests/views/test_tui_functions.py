"""TF2 SavedModels in the TUI: function bodies as graphs (Enter on a call, the breadcrumb of the
calls entered, backspace out), the graph picker's call tree, the find across every body, a
call's body folded and opened in the Picture tab, exporting a body, the saved value behind a
variable, screen 7's SavedObjectGraph, and diffs whose calls name renamed functions."""

import json
import re

import numpy as np
from textual.widgets import DataTable, Input, OptionList

from views.tui import InspectorApp
from views.tui.screens.graph_picker import BodyPicker, GraphPicker
from views.tui.screens.pickers import ExportScreen
from views.tui.screens.saved_objects import SavedObjectsScreen

from tests.views.tui_conftest import FIXTURES, SIZE, run_async, screen_text, settle

TF2 = FIXTURES / "tf2"
WHILE_COND = str(TF2 / "while_cond")
SMALL = (100, 30)
PATH_TO_BODY = ("while_cond: serve › PartitionedCall › __inference_signature_wrapper_serve_86 ›"
                " PartitionedCall › __inference_serve_78 › while › while_body_13")


async def press(pilot, *keys):
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


async def choose_in_tree(app, pilot, name):
    """Put the tree's cursor on node `name` of the view shown (revealing it), as the user's
    arrows would."""
    browser = app.browser
    browser.show_node(browser.view, browser.view.index.key_of(name))
    await pilot.pause()
    await pilot.pause()


@run_async
async def test_enter_on_call_nodes_walks_down_to_the_loop_body_and_backspace_back_out():
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        browser = app.browser
        labels = [str(node.label) for node in browser.query_one("ScopeTree").root.children]
        assert "▸ PartitionedCall  PartitionedCall → __inference_signature_wrapper_serve_86" \
            in labels
        await choose_in_tree(app, pilot, "PartitionedCall")
        await press(pilot, "enter")
        assert browser.view.label == "while_cond: __inference_signature_wrapper_serve_86"
        await choose_in_tree(app, pilot, "PartitionedCall")
        await press(pilot, "enter")
        assert browser.view.label == "while_cond: __inference_serve_78"
        await choose_in_tree(app, pilot, "while")
        await press(pilot, "enter")           # a While calls its cond and its body: which?
        assert isinstance(app.screen, BodyPicker)
        assert "while calls 2 functions: open which body?" in screen_text(app)
        await press(pilot, "enter")           # body, listed first (attrs in order)
        assert browser.view.label == "while_cond: while_body_13"
        text = screen_text(app)
        assert PATH_TO_BODY in text
        assert "function body: 21 nodes, 7 inputs -> 7 outputs" in text
        assert "called by while (body) in __inference_serve_78" in text
        assert "⌫ Back" in text
        await press(pilot, "backspace")
        assert browser.view.label == "while_cond: __inference_serve_78" and browser.key == "while"
        await press(pilot, "backspace", "backspace")
        assert browser.view.label == "while_cond: serve" and browser.key == "PartitionedCall"
        assert browser.trail == [] and "⌫ Back" not in screen_text(app)
        await press(pilot, "backspace")       # at the top: nothing to leave, nothing changes
        assert browser.view.label == "while_cond: serve"


@run_async
async def test_a_call_listed_above_the_nodedef_opens_its_body():
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"^while$", "enter")
        assert app.browser.view.label == "while_cond: __inference_serve_78"
        text = screen_text(app)
        assert "body: while_body_13  21 nodes   enter: open the body" in text
        assert "cond: while_cond_12  2 nodes   enter: open the body" in text
        await press(pilot, "d")                 # d: the NodeDef tab, the focus on its calls
        assert isinstance(app.focused, OptionList)
        await press(pilot, "down", "enter")     # the cond
        assert app.browser.view.label == "while_cond: while_cond_12"
        assert screen_text(app).splitlines()[1].endswith("› while › while_cond_12")


@run_async
async def test_the_graph_picker_lists_functions_under_the_graph_that_calls_them():
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "g")
        assert isinstance(app.screen, GraphPicker)
        lines = [line.strip("▊▎█ ") for line in screen_text(app).splitlines()]
        rows = [line for line in lines if "nodes  ←" in line or line.endswith("(7 nodes)")]
        assert rows == [
            "while_cond: serve  (7 nodes)",
            "__inference_signature_wrapper_serve_86  3 nodes  ← PartitionedCall (f)",
            "__inference_serve_78  16 nodes  ← PartitionedCall (f)",
            "while_body_13  21 nodes  ← while (body)",
            "while_cond_false_42  3 nodes  ← while/cond (else_branch)",
            "while_cond_true_41  3 nodes  ← while/cond (then_branch)",
            "while_cond_12  2 nodes  ← while (cond)",
            "__inference__traced_save_109  16 nodes  ← StatefulPartitionedCall (f)",
            "__inference__traced_restore_118  6 nodes  ← StatefulPartitionedCall_1 (f)"]
        inside = [line.split("▊", 1)[1] for line in screen_text(app).splitlines()
                  if "nodes  ←" in line]
        indents = [len(row) - len(row.lstrip()) for row in inside]
        await press(pilot, "down", "down", "down", "enter")    # while_body_13
        assert app.browser.view.label == "while_cond: while_body_13"
        assert PATH_TO_BODY in screen_text(app)
    assert indents == [5, 7, 9, 11, 11, 9, 5, 5]     # two columns per call depth


@run_async
async def test_find_searches_every_body_and_steps_into_them():
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"TensorList")
        assert "3 matches in 2 functions" in screen_text(app)   # counted while typed
        await press(pilot, "enter")
        browser = app.browser
        assert (browser.view.label, browser.key) == ("while_cond: __inference_serve_78", "steps")
        assert "match 1/3 in 2 functions for 'TensorList'" in screen_text(app)
        await press(pilot, "n", "n")
        assert (browser.view.label, browser.key) == (
            "while_cond: while_body_13", "while/TensorArrayV2Write/TensorListSetItem")
        text = screen_text(app)
        assert "match 3/3 in 2 functions" in text
        assert ("__inference_serve_78 › while › while_body_13 › while › TensorArrayV2Write ›"
                " TensorListSetItem") in text
        await press(pilot, "slash", *"^serving_default_x$", "enter")   # from inside a body
        assert (browser.view.label, browser.key) == ("while_cond: serve", "serving_default_x")
        assert "match 1/1 in the graph" in screen_text(app)
        await press(pilot, "f", *"Const", "enter")   # the filter narrows the graph shown only
        assert browser.view.label == "while_cond: serve" and browser.key == "Const"


@run_async
async def test_the_breadcrumb_keeps_its_last_parts_at_100_columns():
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"TensorListSetItem", "enter")
        crumb = screen_text(app).splitlines()[1].strip()
        assert crumb.startswith("… › ")
        assert crumb.endswith("› while_body_13 › while › TensorArrayV2Write › TensorListSetItem")
        assert len(crumb) <= SMALL[0] - 2


@run_async
async def test_the_picture_folds_a_calls_bodies_and_e_opens_them(tmp_path):
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"^while$", "enter", "p")
        text = screen_text(app)
        assert "▸ while_body_13 (21)" in text and "▸ while_cond_12 (2)" in text
        assert "e: open the body" in text
        folded = app.browser.query_one("NodeDetail").picture_nodes()[1]
        await press(pilot, "e")
        text = screen_text(app)
        assert "▾ 2 bodies open (e)" in text and "e: fold the body" in text
        drawn, keys = app.browser.query_one("NodeDetail").picture_nodes()
        names = {drawn.index.nodes[key].name for key in keys}
        assert "while/while_body_13/while/TensorArrayV2Write/TensorListSetItem" in names
        assert "while/while_cond_12/while/Less" in names
        assert set(folded) <= names     # the call's own neighbours stay in the picture
        await press(pilot, "x")
        assert isinstance(app.screen, ExportScreen)
        app.screen.query_one(Input).value = str(tmp_path / "open.dot")
        await press(pilot, "enter")
        await press(pilot, "e")
        assert "▸ while_body_13 (21)" in screen_text(app)
    text = (tmp_path / "open.dot").read_text()
    exported = {a or b for a, b in re.findall(r'\bid=(?:"([^"]+)"|([^\s\]"]+))', text)}
    assert names <= exported


@run_async
async def test_x_shift_exports_the_whole_body(tmp_path):
    out = tmp_path / "body.svg"
    app = InspectorApp([WHILE_COND])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"TensorListSetItem", "enter", "X")
        assert isinstance(app.screen, ExportScreen)
        assert "Export the whole body (35 nodes)" in screen_text(app)
        app.screen.query_one(Input).value = str(out)
        await press(pilot, "enter")
        body = app.browser.view.graph_defs[0]
    svg = out.read_text()
    assert svg.startswith("<?xml") and all(f">{node.name.rpartition('/')[2]}<" in svg
                                           or node.name in svg for node in body.node)


def _tensor_values(app):
    table = app.browser.query_one("#tensor-table", DataTable)
    return np.array([[float(cell) for cell in table.get_row_at(row)[1:]]
                     for row in range(table.row_count)], dtype=np.float32)


@run_async
async def test_the_tensor_tab_of_a_read_in_a_body_shows_the_saved_variable():
    app = InspectorApp([str(TF2 / "train_step")])
    values = {}
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "slash", *"__inference_predict_32", "escape")
        predict = app.workspace.graphs[0].functions.view_of("function __inference_predict_32")
        app.browser.show_view(predict)
        for read, variable in (("MatMul/ReadVariableOp", "w1"), ("add/ReadVariableOp", "b1"),
                               ("MatMul_1/ReadVariableOp", "w2"), ("add_1/ReadVariableOp", "b2")):
            await choose_in_tree(app, pilot, read)
            await press(pilot, "v")
            await settle(app, pilot)
            assert (f"{read}: saved variable {variable} (checkpoint key"
                    f" {variable}/.ATTRIBUTES/VARIABLE_VALUE)") in screen_text(app).replace(
                        "│\n", "").replace("\n", " ")
            values[variable] = _tensor_values(app)
        app.browser.show_view(app.workspace.graphs[0])      # the variable's own VarHandleOp
        await choose_in_tree(app, pilot, "w1")
        await settle(app, pilot)
        np.testing.assert_array_equal(_tensor_values(app), values["w1"])
    # TensorFlow's logits from those values (the cells keep 6 digits)
    expected = np.load(TF2 / "reference" / "train_step" / "expected.npz")
    hidden = np.maximum(expected["predict/x"] @ values["w1"] + values["b1"].ravel(), 0)
    np.testing.assert_allclose(hidden @ values["w2"] + values["b2"].ravel(),
                               expected["predict/logits"], rtol=1e-4, atol=1e-5)


@run_async
async def test_screen_7_lists_what_saved_model_cli_shows_and_opens_a_concrete_function():
    reference = (TF2 / "reference" / "tf_keras_mlp" / "saved_model_cli.txt").read_text()
    app = InspectorApp([str(TF2 / "tf_keras_mlp")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "7")
        assert isinstance(app.screen, SavedObjectsScreen)
        text = screen_text(app)
        # saved_model_cli's Function Names, and its options' Python values in its order
        names = re.findall(r"Function Name: '([^']+)'", reference)
        shown = re.findall(r"[├└] ▼ (\S+)  \d+ options?", text)
        assert shown == names
        assert re.findall(r"Value: (True|False)", reference)[:2] == ["False", "True"]
        assert "Option #1  training=False, mask=None  → __inference_mlp_layer_call_fn_1032" in text
        assert "Option #2  training=True, mask=None  → __inference_mlp_layer_call_fn_1011" in text
        assert "input x: DT_FLOAT (-1, 3) serving_default_x:0" in text
        assert ("calls _default_save_signature (__inference__wrapped_model_824) through"
                " __inference_signature_wrapper_1088") in text
        assert "Objects (101: 58 user_object, 18 bare_concrete_function, 15 variable, 10" in text
        tree = app.screen.query_one("SavedObjectTree")
        row = next(node for node in tree.root.children[0].children[1].children[0].children
                   if "training=True" in str(node.label))
        tree.move_cursor(row)
        await press(pilot, "enter")
        assert app.browser.view.label == "tf_keras_mlp: __inference_mlp_layer_call_fn_1011"


@run_async
async def test_the_objects_screen_says_so_without_a_saved_object_graph():
    app = InspectorApp([str(FIXTURES / "graphs" / "mlp_train_sgd.pb")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(pilot, "7")
        assert "no SavedObjectGraph opened" in screen_text(app)


@run_async
async def test_a_diff_pairs_renamed_functions_and_lists_the_changed_body():
    app = InspectorApp([WHILE_COND, str(TF2 / "while_cond_changed")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.browser.show_view(app.workspace.graphs[1])
        await press(pilot, "D", "enter")
        await settle(app, pilot)
        text = screen_text(app)
        assert "0 added, 0 removed, 0 changed, 7 unchanged; functions: 1 changed" in text
        labels = [view.label for view in app.workspace.graphs]
        body = "while_cond: serve -> while_cond_changed: serve: function while_body_13"
        assert body in labels
        view = app.workspace.graphs[labels.index(body)]
        app.browser.show_view(view)
        await pilot.pause()
        assert "2 added, 0 removed, 1 changed" in screen_text(app)
        assert [change.name for change in view.diff.changed] == ["while/add_1"]


def test_the_pickers_call_tree_and_counts_are_tensorflows():
    """Each function under the graph: TensorFlow's node count, called by its caller."""
    import parsers
    from views.tui.workspace import Workspace
    workspace = Workspace()
    workspace.add_loaded(parsers.load(WHILE_COND), "while_cond")
    rows = workspace.graphs[0].functions.tree_rows("serve")
    reference = json.loads((TF2 / "reference" / "while_cond" / "functions.json").read_text())
    meta = reference["meta_graphs"][0]
    functions = {entry["name"]: entry for entry in meta["functions"]}
    assert {function.name for _, _, function in rows} == set(functions)
    for depth, site, function in rows:
        assert function.node_count == len(functions[function.name]["nodes"])
        caller = site.graph.removeprefix("function ")
        calls = meta["graph_calls"] if depth == 1 else functions[caller]["calls"]
        assert function.name in calls


def _hostile_library(path):
    """A graph whose calls reach a function calling itself, a body that does not instantiate
    (an input naming nothing, a list argument without its count, an op name with a terminal
    escape) and a function the library lacks."""
    from engine.proto import graph_pb2
    graph = graph_pb2.GraphDef()
    graph.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
    for name, callee in (("call", "loop"), ("call2", "bad"), ("call3", "missing")):
        graph.node.add(name=name, op="PartitionedCall", input=["x"]).attr["f"].func.name = callee
    loop = graph.library.function.add()
    loop.signature.name = "loop"
    loop.signature.input_arg.add(name="a", type=1)
    loop.signature.output_arg.add(name="b", type=1)
    loop.node_def.add(name="again", op="PartitionedCall", input=["a"]).attr["f"].func.name = "loop"
    loop.ret["b"] = "again:output:0"
    bad = graph.library.function.add()
    bad.signature.name = "bad"
    bad.signature.input_arg.add(name="xs", type=1, number_attr="N")
    bad.signature.output_arg.add(name="y", type=1)
    bad.node_def.add(name="n1", op="Neg", input=["nothing:y:0"])
    bad.node_def.add(name="n2", op="NoSuchOp\x1b[31m", input=["n1:y:0", "^ghost"])
    bad.ret["y"] = "n9:y:0"
    path.write_bytes(graph.SerializeToString())


def test_hostile_bodies_open_draw_and_find_without_taking_the_ui_down(tmp_path):
    _hostile_library(tmp_path / "hostile.pb")

    @run_async
    async def body():
        app = InspectorApp([str(tmp_path / "hostile.pb")])
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            browser = app.browser
            await choose_in_tree(app, pilot, "call3")
            await press(pilot, "p", "e", "enter")      # its callee is missing: no body
            assert browser.view.label == "hostile.pb"
            for name in ("call", "call2"):
                browser.show_view(app.workspace.graphs[0])
                await choose_in_tree(app, pilot, name)
                await press(pilot, "p", "e", "enter")
            assert browser.view.label == "hostile.pb: bad"
            text = screen_text(app)
            assert "shown as written:" in text and "input nothing:y:0 is not found" in text
            assert "\x1b" not in text and "NoSuchOp\\x1b[31m" in text
            await press(pilot, "backspace")
            await choose_in_tree(app, pilot, "call")
            await press(pilot, "enter")
            await choose_in_tree(app, pilot, "again")
            await press(pilot, "enter")               # loop's own call of loop: the same body
            assert browser.view.label == "hostile.pb: loop"
            assert screen_text(app).splitlines()[1].strip() == "hostile.pb › call › loop ›" \
                " again › loop"
            await press(pilot, "slash", *"n2", "enter")
            assert (browser.view.label, browser.key) == ("hostile.pb: bad", "n2")
            await press(pilot, "g")
            assert "loop  1 node  ← call (f)" in screen_text(app)
    body()
