"""The footer of every screen: compact, and without the ^p hint where the keys need the room."""

from textual.widgets import Footer

PALETTE_HINT_FROM = 120   # columns from which the footer also shows "^p palette"


class InspectorFooter(Footer):
    def __init__(self, **kwargs):
        super().__init__(compact=True, **kwargs)

    def on_resize(self, event):
        self.show_command_palette = self.app.size.width >= PALETTE_HINT_FROM
