"""Helpers for the TUI tests: fixture paths, the screen as text, waiting for the loaders."""

from __future__ import annotations

from pathlib import Path

from engine.runtime.session import BaseSession

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
MLP_SGD = "tests/fixtures/graphs/mlp_train_sgd.pb"
TWO_CPU_RUN = "tests/fixtures/runs/two_cpu.pb"
TWO_CPU_GRAPH = "tests/fixtures/graphs/two_cpu.pb"
SIZE = (160, 48)
SESSION_RUN = BaseSession.run  # Session.run itself, as collected: before any test replaced it


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


# The named keys a burst may hold, each with the character a terminal sends for it.
NAMED_KEYS = {"enter": "\r", "escape": "\x1b", "backspace": "\x7f", "slash": "/"}


def burst(app, *keys):
    """Queue `keys` all at once, none handled before the last is queued, as a paste, tmux
    send-keys or a fast typist deliver them (Pilot's press lets the app settle after each).
    A key is one of NAMED_KEYS or a run of characters typed ("op=Log"; "/" as "slash")."""
    import unicodedata

    from textual import events

    for item in keys:
        if item in NAMED_KEYS:
            app.post_message(events.Key(item, NAMED_KEYS[item]))
            continue
        for character in item:
            # Textual's names for the others: "=" is equals_sign, "^" circumflex_accent.
            key = (character if character.isalnum() else
                   unicodedata.name(character).lower().replace("-", "_").replace(" ", "_"))
            app.post_message(events.Key(key, character))


_debugged = []  # the controllers of the programs debugged_app started, until they end


def debugged_app(program, *args, label=None):
    """An app with the debugger screen in front of `program` (a script's path, run with `args`,
    or a callable program(debugger)), running on its thread; end_debugged_programs() ends it
    after the test, passed or failed."""
    from inspector.debug.launch import script_program
    from inspector.debug.tui import TuiController
    from views.tui import InspectorApp
    from views.tui.workspace import Workspace

    if not callable(program):
        program, label = script_program(str(program), list(args)), Path(program).name
    controller = TuiController(program, label)
    app = InspectorApp(workspace=Workspace(), debugger=controller)
    controller.start_program()
    _debugged.append(controller)
    return app, controller


def end_debugged_programs(timeout=30.0):
    """Every program debugged_app started has ended, and Session.run is itself again.

    A debugged program replaces Session.run while it runs (ScriptDebugger.installed) and puts
    back what it found when it ends: one still ending when the next test's program starts
    would put its own Session.run back under that program, whose next run would not stop."""
    import threading

    while _debugged:
        _debugged.pop().quit()
    for thread in threading.enumerate():
        if thread.name == "debugged-program":
            thread.join(timeout)
            assert not thread.is_alive(), "a debugged program outlived its test"
    assert BaseSession.run is SESSION_RUN, "Session.run left replaced by a debugged program"
