"""Benchmark: the runs screen on generated runs of 10,000 and 100,000 node executions, headless.

`run()` times each action (Pilot, App.run_test at 160x48): opening the screen (Textual building
it, the run's first reading), opening it again from the graph browser, sorting by another column, reversing, scrolling, each filter keystroke, switching
device, and switching run (to a run not read yet, and back). Two times per action: `_ms`, from
the key to the rows handed to the table (RunsScreen.on_rows_ready done; the next repaint draws
only the rows in view), and `_wall_ms`, until Pilot has also seen every worker finish and the
screen settle (its own cost is `baseline_no_op_key_wall_ms`, a key the screen ignores).
Target: under 200 ms per action at 10,000 executions; usable (under a second or two) at
100,000. The runs are RunMetadata made here, never files in the repo.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time

from engine.proto import config_pb2, step_stats_pb2

DEVICES = ("/job:localhost/replica:0/task:0/device:CPU:0",
           "/job:localhost/replica:0/task:0/device:GPU:0",
           "/job:localhost/replica:0/task:0/device:GPU:0/stream:all")
OPS = ("MatMul", "BiasAdd", "Relu", "Conv2D", "Conv2DBackpropFilter", "ApplyAdam", "Identity")
PER_SCOPE = 40
QUERY = "layer0123/"        # typed one key at a time into the runs screen's `/` box
GOAL_MS = 200.0


def large_run(executions, seed=0):
    """RunMetadata with `executions` NodeExecStats over three devices, as a FULL_TRACE writes
    them: timeline labels, op and all times in micros, an output allocation each."""
    metadata = config_pb2.RunMetadata()
    per_device = [metadata.step_stats.dev_stats.add(device=device) for device in DEVICES]
    start = 1_700_000_000_000_000
    state = seed or 12345
    for n in range(executions):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF     # a small LCG: same run each time
        op = OPS[n % len(OPS)]
        name = f"model/layer{n // PER_SCOPE:04d}/{op.lower()}_{n % PER_SCOPE:02d}"
        device_stats = per_device[n % len(per_device)]
        stream = device_stats.device.endswith("/stream:all")
        stats = device_stats.node_stats.add(
            node_name=f"{name}:{op}" if stream else name,
            timeline_label=op if stream else f"{name} = {op}(model/input, {name}/read)",
            all_start_micros=start + n * 3, op_start_rel_micros=1,
            op_end_rel_micros=1 + state % 500, all_end_rel_micros=2 + state % 500)
        stats.output.add(slot=0).tensor_description.allocation_description.requested_bytes = (
            4 * (state % 65536))
    return metadata


def write_run(path, executions, seed=0):
    with open(path, "wb") as stream:
        stream.write(large_run(executions, seed).SerializeToString())


async def _done(app, pilot):
    """Wait for the runs screen's worker and for its rows to be on the screen."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


class _Clock:
    """When the runs screen last handed rows to its table (RunsScreen.on_rows_ready done)."""

    shown = 0.0


async def _timed(app, pilot, *keys, per=1):
    """(key to rows shown, key to settled) in seconds, divided by `per` keys."""
    begin = time.perf_counter()
    await pilot.press(*keys)
    await _done(app, pilot)
    end = time.perf_counter()
    shown = _Clock.shown - begin if _Clock.shown > begin else end - begin
    return shown / per, (end - begin) / per


async def _drive(paths, executions):
    from views.tui import InspectorApp
    from views.tui.screens.runs import RunsScreen

    app = InspectorApp(paths)
    times = {}

    async def record(name, *keys, per=1):
        times[name], times[f"{name}_wall"] = await _timed(app, pilot, *keys, per=per)

    async with app.run_test(size=(160, 48)) as pilot:
        await _done(app, pilot)
        await record("open_screen", "2")
        # A key the screen ignores: what Pilot's press-and-settle costs by itself here.
        times["baseline_no_op_key_wall"] = statistics.median(
            [(await _timed(app, pilot, "z"))[1] for _ in range(5)])
        screen = app.screen
        assert isinstance(screen, RunsScreen) and len(screen.rows) == executions, len(screen.rows)
        # The screen again, from the graph browser: built once, the run read once.
        await pilot.press("1")
        await _done(app, pilot)
        await record("reopen_screen", "2")
        assert app.screen is screen
        await record("sort_op_time", "s")
        assert screen.sort_column == "op_us" and screen.rows[0].op_us >= screen.rows[1].op_us
        await record("sort_reverse", "r")
        await record("sort_total_time", "s")
        await record("page_down", "pagedown")
        await record("end", "end")
        await record("next_device", "d")
        await record("next_device_x3_each", "d", "d", "d", per=3)
        await pilot.press("slash")
        keystrokes = [await _timed(app, pilot, key) for key in QUERY]
        assert len(screen.rows) == PER_SCOPE, len(screen.rows)
        for name, pick in (("median", statistics.median), ("max", max)):
            times[f"filter_keystroke_{name}"] = pick(shown for shown, _ in keystrokes)
            times[f"filter_keystroke_{name}_wall"] = pick(wall for _, wall in keystrokes)
        await record("backspace_each", *["backspace"] * len(QUERY), per=len(QUERY))
        await pilot.press("escape")
        await pilot.press("g", "down")           # the run picker, on the second run
        await pilot.pause()
        await record("switch_run_first_read", "enter")
        assert screen.run_number == 1 and len(screen.rows) == executions
        await pilot.press("g", "up")
        await pilot.pause()
        await record("switch_run_back", "enter")
        assert screen.run_number == 0
    return times


def _measure(paths, executions):
    """Times of the actions, and the worker's own work per action (read, sort, filter)."""
    from views.tui.screens.runs import RunsScreen

    work = []
    original, original_ready = RunsScreen.make_rows, RunsScreen.on_rows_ready

    def timed(screen, *args):
        begin = time.perf_counter()
        original(screen, *args)
        work.append(time.perf_counter() - begin)

    def stamped(screen, message):
        original_ready(screen, message)
        _Clock.shown = time.perf_counter()

    RunsScreen.make_rows, RunsScreen.on_rows_ready = timed, stamped
    try:
        times = asyncio.run(_drive(paths, executions))
    finally:
        RunsScreen.make_rows, RunsScreen.on_rows_ready = original, original_ready
    times["worker_first_read"] = work[0]
    times["worker_median_after"] = statistics.median(work[1:])
    times["worker_max_after"] = max(work[1:])
    return times


def run():
    results = {"load_average_before": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as tmp:
        for executions in (10_000, 100_000):
            paths = [os.path.join(tmp, f"run_{executions}_{n}.pb") for n in range(2)]
            for seed, path in enumerate(paths):
                write_run(path, executions, seed)
            times = _measure(paths, executions)
            for action, seconds in times.items():
                results[f"{executions // 1000}k_{action}_ms"] = round(seconds * 1000, 1)
    results["load_average_after"] = round(os.getloadavg()[0], 2)
    results["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    # The goal is about the actions on a run read once (the first reading shows its progress).
    worst_10k = max(v for k, v in results.items()
                    if k.startswith("10k_") and not k.startswith("10k_open_screen")
                    and "first_read" not in k and "worker" not in k and "wall" not in k)
    results["10k_worst_action_ms"] = worst_10k
    results["goal_10k_action_ms"] = GOAL_MS
    results["goal_met_10k"] = worst_10k < GOAL_MS
    return results


if __name__ == "__main__":
    print(run())
