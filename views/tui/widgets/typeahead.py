"""An Input opened by a key, owning the keys typed in the same burst as that key."""

from __future__ import annotations

from textual.actions import SkipAction
from textual.widgets import Input
from textual.widgets.input import Selection


class TypeAheadInput(Input):
    """An Input a screen opens with a key (`/`, `a`): the keys after that key are its own.

    Keys typed in one burst (a paste, tmux send-keys, a fast typist) all reach the widget that
    had the focus, and then its screen, before the binding of the first one runs (bindings run
    once a key has bubbled up to the app), and an input takes the focus only once the call
    that focuses it comes round. So the screen hands each key to `route_key` first: the key
    that opens the input opens it at once, and the keys after it, up to the Enter that ends
    the line, go into the input, not to the bindings of the widget they were sent to. That
    Enter hands the line to the screen's `submit` there and then, and the keys after it are
    the screen's again, acting on what it did (`a op=Log Enter c`: on to that breakpoint).
    """

    awaiting_focus = False   # opened; the focus not yet given to it
    typing = False           # opened, and the line not yet submitted

    def __init__(self, submit, *args, **kwargs):
        # The text offered is selected on opening, not when the focus comes: by then keys
        # typed ahead are in, and selecting them would make the next key replace them.
        super().__init__(*args, select_on_focus=False, **kwargs)
        self.submit = submit  # the screen's: called with the line on Enter

    def open(self):
        self.awaiting_focus = self.typing = True
        self.selection = Selection(0, len(self.value))  # the first key replaces what is offered
        self.focus()

    def close(self):
        self.awaiting_focus = self.typing = False

    def on_focus(self) -> None:
        self.awaiting_focus = False

    async def _on_key(self, event) -> None:
        if event.key == "enter" and self.typing:
            _consume(event)
            self.end_line()
        elif not self.typing and event.is_printable:
            # Typed in the burst after Enter, sent here before the focus left: the screen's
            # (r after /prod Enter reverses the table), not more of the line just submitted.
            event.prevent_default()

    async def action_submit(self) -> None:
        if not self.typing:   # an Enter after the line's: the screen's bindings have it
            raise SkipAction()
        self.end_line()

    def end_line(self):
        """Hands the line to the screen there and then, not as Input.Submitted: that would
        reach the screen after the keys queued behind the Enter (c continuing before the
        breakpoint typed was set)."""
        self.typing = False
        self.submit(self.value)

    def route_key(self, event, openers, closed) -> bool:
        """A key as the screen first sees it: while `closed`, a key of `openers` (key -> the
        screen's action opening this input) opens it at once; a key typed before the input
        had the focus goes into it. Whether it took the key."""
        if closed and event.key in openers:
            _consume(event)
            openers[event.key]()
            return True
        return self.take_key(event)

    def take_key(self, event) -> bool:
        """Into the input, a key that reached the screen while the line is being typed, sent
        to the widget that had the focus before the input took it. Whether it took the key."""
        # screen.focused changes when the focus moves, Focus reaches the input later: between
        # the two, keys go to the input directly, and those still on their way here are its.
        if not (self.typing and (self.awaiting_focus or self.screen.focused is self)):
            return False
        if event.key == "enter":
            self.end_line()
        elif event.key == "backspace":
            self.action_delete_left()
        elif event.is_printable and event.character:
            if self.selection.is_empty:   # as Input's own key handler
                self.insert_text_at_cursor(event.character)
            else:
                self.replace(event.character, *self.selection)
        else:
            return False
        _consume(event)
        return True


def _consume(event):
    """Handled here: no widget after this one, nor any binding, sees the key."""
    event.stop()
    event.prevent_default()
