"""The filter box opened with `/`: a regex over names, ops and devices, and what it found."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input

from views.tui.messages import FilterChanged
from views.tui.widgets.plain import Static
from views.tui.widgets.typeahead import TypeAheadInput


class FilterBar(Horizontal):
    """Hidden until opened (class -open); each keystroke reports the text, Enter hands it to
    the screen's `submitted`.

    The screen hands each key to `route_key` first, so that the keys typed in one burst
    after `/` are the query (views/tui/widgets/typeahead.py).
    """

    def __init__(self, submitted, **kwargs):
        super().__init__(**kwargs)
        self.submitted = submitted  # the screen's: called with the text on Enter

    def compose(self) -> ComposeResult:
        yield TypeAheadInput(self.submitted, placeholder="name, op or device (regex)",
                             id="filter-input")
        yield Static("", id="filter-status")

    @property
    def input(self):
        return self.query_one("#filter-input", TypeAheadInput)

    def open(self, placeholder=None):
        if placeholder:
            self.input.placeholder = placeholder
        self.add_class("-open")
        self.input.open()

    def close(self):
        self.remove_class("-open")
        self.input.close()

    def route_key(self, event, openers) -> bool:
        """Open the bar for a key of `openers` (key -> the screen's action opening it), or put
        a key typed before the input had the focus into the input; whether it took the key."""
        return self.input.route_key(event, openers, closed=not self.is_open)

    @property
    def is_open(self):
        return self.has_class("-open")

    def status(self, text):
        self.query_one("#filter-status", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(FilterChanged(event.value))
