"""Helpers for the TUI tests: fixture paths, the screen as text, waiting for the loaders."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
MLP_SGD = "tests/fixtures/graphs/mlp_train_sgd.pb"
TWO_CPU_RUN = "tests/fixtures/runs/two_cpu.pb"
TWO_CPU_GRAPH = "tests/fixtures/graphs/two_cpu.pb"
SIZE = (160, 48)


def screen_lines(app):
    """What the terminal shows, one string per row (styles dropped)."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip).rstrip() for strip in strips]


def screen_text(app):
    return "\n".join(screen_lines(app))


async def settle(app, pilot):
    """Wait for the loading and warming workers, then for the screen to catch up.

    An app that exits meanwhile (nothing opened: exit 2) cancels its other workers; it has
    settled then, and the test reads its return code."""
    from textual.worker import WorkerCancelled
    for _ in range(2):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            return
        await pilot.pause()


def run_async(test):
    """Run an async test body in its own event loop (no asyncio plugin in this project)."""
    import asyncio
    import functools

    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return wrapper
