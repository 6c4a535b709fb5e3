"""SVG snapshots of the TF2 SavedModel screens (pytest-textual-snapshot): a loop body found and
entered (breadcrumb, header, tree), the graph picker's call tree, a call's bodies drawn open in
the Picture tab, the saved value in the Tensor tab, screen 7's SavedObjectGraph; at 160x48 and
100x30. Update with `pytest tests/views/test_tui_function_snapshots.py --snapshot-update`, then
look at them."""

import pytest

from views.tui import InspectorApp

from tests.views.tui_conftest import FIXTURES, SIZE, settle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SMALL = (100, 30)
SIZES = pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x48", "100x30"])
TF2 = FIXTURES / "tf2"


def _before(*keys):
    async def run_before(pilot):
        app = pilot.app
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await settle(app, pilot)
        app.clear_notifications()
        await pilot.pause()
    return run_before


def _find(text, *more):
    return _before("slash", *text, "enter", *more)


@SIZES
def test_loop_body_found_and_entered(snap_compare, size):
    assert snap_compare(InspectorApp([str(TF2 / "while_cond")]), terminal_size=size,
                        run_before=_find("TensorListSetItem"))


def test_graph_picker_with_functions(snap_compare):
    assert snap_compare(InspectorApp([str(TF2 / "while_cond")]), terminal_size=SIZE,
                        run_before=_before("g", "down", "down", "down"))


def test_picture_with_the_loop_bodies_open(snap_compare):
    assert snap_compare(InspectorApp([str(TF2 / "while_cond")]), terminal_size=SIZE,
                        run_before=_find("^while$", "p", "e"))


@SIZES
def test_saved_value_of_a_variable_read_in_a_body(snap_compare, size):
    assert snap_compare(InspectorApp([str(TF2 / "train_step")]), terminal_size=size,
                        run_before=_find("^MatMul_1/ReadVariableOp$", "v"))


@SIZES
def test_saved_model_objects_screen(snap_compare, size):
    assert snap_compare(InspectorApp([str(TF2 / "tf_keras_mlp")]), terminal_size=size,
                        run_before=_before("7"))
