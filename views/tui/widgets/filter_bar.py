"""The filter box opened with `/`: a regex over names, ops and devices, and what it found."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from views.tui.messages import FilterChanged, FilterSubmitted


class FilterBar(Horizontal):
    """Hidden until opened (class -open); Enter submits, each keystroke reports the text."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="name, op or device (regex)", id="filter-input")
        yield Static("", id="filter-status")

    @property
    def input(self):
        return self.query_one("#filter-input", Input)

    def open(self, placeholder=None):
        if placeholder:
            self.input.placeholder = placeholder
        self.add_class("-open")
        self.input.focus()

    def close(self):
        self.remove_class("-open")

    @property
    def is_open(self):
        return self.has_class("-open")

    def status(self, text):
        self.query_one("#filter-status", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(FilterChanged(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(FilterSubmitted(event.value))
