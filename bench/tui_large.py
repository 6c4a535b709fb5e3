"""Benchmark: the TUI on a generated 100,000-node GraphDef, headless (App.run_test).

`run()` returns seconds to the first interactive screen (the file read, indexed, the scope
tree drawn) and the cost of each filter keystroke (typing a node's name into the `/` box, each
keystroke matching every node), with the goals: under 2 s to open, under 100 ms per keystroke.

A keystroke is timed two ways: the app's own work (the filter handler: match every node, show
the count) and the wall time of Pilot's press-and-settle, which carries Pilot's own waiting;
the same wall time on an 8-node graph is given as the baseline to read it against.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time

from engine.proto import graph_pb2

NODES = 100_000
PER_SCOPE = 50
OPS = ("MatMul", "BiasAdd", "Relu", "Identity", "Const")
QUERY = "block01234/op04"   # typed one key at a time


def large_graph(nodes=NODES, per_scope=PER_SCOPE):
    """`nodes` nodes in scopes block00000/..., `per_scope` each, a chain through them all."""
    graph = graph_pb2.GraphDef()
    graph.node.add(name="input", op="Placeholder", device="/device:CPU:0")
    previous = "input"
    for n in range(nodes - 1):
        name = f"block{n // per_scope:05d}/op{n % per_scope:03d}"
        graph.node.add(name=name, op=OPS[n % len(OPS)], input=[previous], device="/device:CPU:0")
        previous = name
    return graph


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
        return await _drive(InspectorApp([path]), BrowserScreen) + (handler_times,)
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
        await app.workers.wait_for_complete()   # the background warm-up of the index
        await pilot.press("slash")
        keystrokes = []
        for key in QUERY:
            begin = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            keystrokes.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        await pilot.press("enter")
        await pilot.pause()
        jump = time.perf_counter() - begin
        found = app.browser.key
    return opened, keystrokes, jump, found


def _ms(seconds):
    return round(seconds * 1000, 1)


def run():
    graph = large_graph()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "large.pb")
        with open(path, "wb") as f:
            f.write(graph.SerializeToString())
        opened, keystrokes, jump, found, handler = asyncio.run(_measure(path))
        small = os.path.join(tmp, "small.pb")
        with open(small, "wb") as f:
            f.write(large_graph(8).SerializeToString())
        _, baseline, _, _, _ = asyncio.run(_measure(small))
    assert found == "block01234/op040", found
    return {
        "nodes": len(graph.node),
        "open_s": round(opened, 3),
        "filter_work_median_ms": _ms(statistics.median(handler)),
        "filter_work_max_ms": _ms(max(handler)),
        "keystroke_wall_median_ms": _ms(statistics.median(keystrokes)),
        "keystroke_wall_8_nodes_median_ms": _ms(statistics.median(baseline)),
        "jump_to_match_wall_ms": _ms(jump),
        "goal_open_s": 2.0,
        "goal_keystroke_ms": 100.0,
    }


if __name__ == "__main__":
    print(run())
