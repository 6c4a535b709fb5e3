"""Benchmark: the TUI on a 6,000-node TF2 SavedModel (bench/tf2_saved_model.py's, made without
TensorFlow), headless (App.run_test).

`run()` returns seconds to the first interactive screen (the SavedModel read, its function
library listed, the top-level graph indexed and its tree drawn), and the find across the graph
and all 645 function bodies as the `/` box runs it: the app's own work per keystroke of a
query typed one key at a time (the count `41 matches in 5 functions`, from the search text the
loader's warm-up built), the same for a query submitted whole, and the wall time from Enter to
the first match shown inside its body (the body converted, indexed, its tree and breadcrumb
drawn), beside the same for a match in the graph shown (no body to open: what redrawing the
browser for a match costs on this machine). Goals: under 1.5 s to open, under 0.2 s per find.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

QUERY = "layer_12/conv/Relu"       # typed one key at a time, then Enter
IN_GRAPH = "layer_13/conv/kernel/Read/ReadVariableOp"   # a match in the top-level graph
GOAL_OPEN_S, GOAL_FIND_S = 1.5, 0.2


async def _measure(path):
    from views.tui import InspectorApp
    from views.tui.screens.browser import BrowserScreen

    handler_times = []
    original = BrowserScreen.on_filter_changed

    def timed(screen, message):
        begin = time.perf_counter()
        original(screen, message)
        handler_times.append(time.perf_counter() - begin)

    BrowserScreen.on_filter_changed = timed
    try:
        return await _drive(InspectorApp([str(path)]), BrowserScreen) + (handler_times,)
    finally:
        BrowserScreen.on_filter_changed = original


async def _drive(app, BrowserScreen):
    start = time.perf_counter()
    async with app.run_test(size=(160, 48)) as pilot:
        while not (isinstance(app.screen, BrowserScreen) and app.browser is not None
                   and app.browser.view is not None):
            await pilot.pause(0.005)
        await pilot.pause()
        opened = time.perf_counter() - start
        await app.workers.wait_for_complete()   # the warm-up: index, search text of every body
        await pilot.press("slash", *IN_GRAPH)
        await pilot.pause()
        begin = time.perf_counter()
        await pilot.press("enter")
        await pilot.pause()
        in_graph = time.perf_counter() - begin
        await pilot.press("slash")
        for key in QUERY:
            await pilot.press(key)
        await pilot.pause()
        begin = time.perf_counter()
        await pilot.press("enter")
        await pilot.pause()
        jump = time.perf_counter() - begin
        where = (app.browser.view.label, app.browser.key,
                 [step.key for step in app.browser.trail], app.browser.sub_title)
    return opened, jump, in_graph, where


def run():
    from bench.tf2_saved_model import synthesize
    from views.body_search import BodySearch
    import parsers

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deep_cnn"
        top, functions, body_nodes = synthesize(path)
        opened, jump, in_graph, where, handler = asyncio.run(_measure(path))
        search = BodySearch(parsers.load(path).functions, "serve")
        search.search_lines()
        whole = []
        for _ in range(5):
            begin = time.perf_counter()
            search.summary(search.find(QUERY))
            whole.append(time.perf_counter() - begin)
    label, key, trail, caption = where
    assert key == QUERY and label.endswith("__inference_layer_12_call_fn_1"), where
    find_s = statistics.median(handler)
    return {
        "row": "TUI on a TF2 SavedModel, 6,000 nodes with its functions: open; find in every body",
        "value": f"{opened:.2f} s; {find_s * 1000:.1f} ms per keystroke",
        "tensorflow": None,   # TensorFlow has no TUI; saved_model_cli show --all: 5-10 s
        "target": f"< {GOAL_OPEN_S} s; < {GOAL_FIND_S} s",
        "met": opened < GOAL_OPEN_S and max(handler) < GOAL_FIND_S,
        "top_level_nodes": top, "functions": functions, "nodes_in_functions": body_nodes,
        "open_s": round(opened, 3),
        "find_keystroke_median_ms": round(find_s * 1000, 1),
        "find_keystroke_max_ms": round(max(handler) * 1000, 1),
        "find_whole_query_median_ms": round(statistics.median(whole) * 1000, 1),
        "enter_to_match_in_body_wall_ms": round(jump * 1000, 1),
        "enter_to_match_in_graph_wall_ms": round(in_graph * 1000, 1),
        "match": f"{label} {key}", "trail": trail, "caption": caption,
    }


if __name__ == "__main__":
    print(run())
