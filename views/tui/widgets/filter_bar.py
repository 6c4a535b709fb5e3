"""The filter box opened with `/`: a regex over names, ops and devices, and what it found."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from views.tui.messages import FilterChanged, FilterSubmitted


class FilterBar(Horizontal):
    """Hidden until opened (class -open); Enter submits, each keystroke reports the text.

    Keys typed in one burst after `/` (a paste, tmux send-keys) all reach the focused widget
    and its screen before the binding opening the bar runs (bindings run once a key has
    bubbled up to the app), and the input takes the focus only once the bar is shown. So the
    screen hands each key to `route_key` first: the key that opens the bar opens it at once,
    and the keys after it go into the input, not to the table's bindings.
    """

    focus_pending = False

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
        self.focus_pending = True
        self.input.focus()

    def close(self):
        self.remove_class("-open")
        self.focus_pending = False

    def on_descendant_focus(self, event) -> None:
        self.focus_pending = False

    def route_key(self, event, openers) -> bool:
        """Open the bar for a key of `openers` (key -> the screen's action opening it), or put
        a key typed before the input had the focus into the input; whether it took the key."""
        if not self.is_open and event.key in openers:
            event.stop()
            event.prevent_default()
            openers[event.key]()
            return True
        return self.forward_key(event)

    def forward_key(self, event) -> bool:
        """A printable key that came before the input had the focus goes into the input
        (the event stopped, so no binding sees it); whether it did."""
        if not (self.focus_pending and self.is_open and event.is_printable and event.character):
            return False
        self.input.insert_text_at_cursor(event.character)
        event.stop()
        event.prevent_default()
        return True

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
