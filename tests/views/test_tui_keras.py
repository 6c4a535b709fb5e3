"""A Keras model in the TUI: its layer graph, a layer's weights in its Tensor tab, every weight
on the Checkpoint screen (values as Keras saved them: tests/fixtures/keras/reference)."""

import numpy as np
import pytest
from textual.widgets import DataTable

from views.tui import InspectorApp
from views.tui.screens.checkpoint import CheckpointScreen

from tests.views.tui_conftest import FIXTURES, SIZE, run_async, screen_text, settle

pytest.importorskip("h5py")
KERAS = FIXTURES / "keras"


@run_async
async def test_a_layers_tensor_tab_shows_its_first_weight_and_names_the_others():
    kernel = np.load(KERAS / "reference" / "two_inputs.npz")["two_inputs--conv--0"]
    app = InspectorApp([str(KERAS / "two_inputs.h5")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"conv$", "enter")
        await pilot.pause()
        assert app.browser.key == "two_inputs/conv"
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert "layer weights: kernel [3,3,1,2], bias [2] (6: every weight)" in text
        assert "two_inputs/conv/kernel (checkpoint two_inputs.h5)" in text
        assert f"min {kernel.min():g}  max {kernel.max():g}" in text


@run_async
async def test_the_checkpoint_screen_lists_a_keras_zips_weights():
    app = InspectorApp([str(KERAS / "nested.keras")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("6")
        await pilot.pause()
        assert isinstance(app.screen, CheckpointScreen)
        table = app.screen.query_one("#variables", DataTable)
        names = {table.get_row_at(row)[0] for row in range(table.row_count)}
        assert names == {f"nested/{layer}/vars/{index}" for layer in
                         ("block/d1", "block/d2", "inner/pre", "shared", "head") for index in (0, 1)}
