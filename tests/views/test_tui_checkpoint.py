"""Checkpoints in the TUI: a variable's Tensor tab shows the saved value; the Checkpoint screen lists,
sorts, filters and compares two checkpoints (values from TensorFlow's fixtures)."""

import json

import numpy as np
import pytest
from textual.widgets import DataTable

from parsers.checkpoint import Checkpoint
from views import checkpoint_compare
from views.tui import InspectorApp
from views.tui.screens.checkpoint import CheckpointScreen

from tests.views.tui_conftest import FIXTURES, SIZE, burst, run_async, screen_text, settle

CHECKPOINTS = FIXTURES / "checkpoints"
TF_VALUES = json.loads((CHECKPOINTS / "values.json").read_text())
SIX, SEVEN = "dtypes/model.ckpt-6", "dtypes/model.ckpt-7"


pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in subtract")  # inf - inf


def tf_array(prefix, name):
    entry = TF_VALUES[prefix][name]
    return np.array(entry["values"], dtype=float).reshape(entry["shape"])


def test_compare_finds_what_changed_between_tensorflows_checkpoints():
    rows = checkpoint_compare.compare(Checkpoint(CHECKPOINTS / SIX), Checkpoint(CHECKPOINTS / SEVEN))
    changed = {row.name for row in rows if row.change is not None and not row.change.equal}
    expected = {name for name in TF_VALUES[SIX]
                if TF_VALUES[SIX][name]["values"] != TF_VALUES[SEVEN][name]["values"]}
    assert changed == expected == {"dense/kernel", "int32"}
    kernel = next(row for row in rows if row.name == "dense/kernel")
    a, b = tf_array(SIX, "dense/kernel"), tf_array(SEVEN, "dense/kernel")
    finite = np.isfinite(a) & np.isfinite(b)
    assert kernel.change.max_abs == np.abs(b - a)[finite].max()
    assert kernel.change.relative == np.linalg.norm((b - a)[finite]) / np.linalg.norm(a[finite])
    assert checkpoint_compare.changed_first(rows)[0].change.relative >= kernel.change.relative


@run_async
async def test_checkpoint_screen_lists_sorts_filters_and_compares():
    app = InspectorApp([str(CHECKPOINTS / SIX), str(CHECKPOINTS / SEVEN)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("6")
        await pilot.pause()
        assert isinstance(app.screen, CheckpointScreen)
        table = app.screen.query_one("#variables", DataTable)
        assert table.row_count == len(TF_VALUES[SIX])
        biggest = max(Checkpoint(CHECKPOINTS / SIX).variables, key=lambda info: info.nbytes)
        assert table.get_row_at(0)[0] == biggest.name          # sorted by bytes, largest first
        await pilot.press("slash", *"^dense", "enter")
        await pilot.pause()
        assert sorted(table.get_row_at(r)[0] for r in range(table.row_count)) == ["dense/bias", "dense/kernel"]
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "changed, most first" in screen_text(app)
        rows = {table.get_row_at(r)[0]: table.get_row_at(r) for r in range(table.row_count)}
        a, b = tf_array(SIX, "dense/kernel"), tf_array(SEVEN, "dense/kernel")
        finite = np.isfinite(a) & np.isfinite(b)
        assert float(rows["dense/kernel"][3]) == float(f"{np.abs(b - a)[finite].max():.4g}")


@run_async
async def test_keys_typed_in_one_burst_after_slash_are_the_filter_then_bindings_again():
    """/, the query, Enter and r arriving together (tmux send-keys, a paste): the query's s is
    not the sort key, and the r after Enter reverses the sort of the filtered table."""
    app = InspectorApp([str(CHECKPOINTS / SIX)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("6")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, CheckpointScreen) and screen.reverse
        burst(app, "slash", "^dense", "enter", "r")
        await settle(app, pilot)
        table = screen.query_one("#variables", DataTable)
        names = [table.get_row_at(r)[0] for r in range(table.row_count)]
        assert sorted(names) == ["dense/bias", "dense/kernel"]
        assert screen.sort_column == "bytes" and not screen.reverse   # smallest first now
        sizes = {info.name: info.nbytes for info in Checkpoint(CHECKPOINTS / SIX).variables}
        assert names == sorted(names, key=sizes.get)


@run_async
async def test_a_saved_models_variable_shows_its_value_in_the_tensor_tab():
    app = InspectorApp([str(CHECKPOINTS / "saved_model")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"^w$", "enter")
        await pilot.pause()
        assert app.browser.key == "w"
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert "w (checkpoint saved_model)" in text
        w = TF_VALUES["saved_model/variables/variables"]["w"]["values"]
        assert f"min {min(w):g}  max {max(w):g}" in text
