"""The keys every tree of the TUI shares: Right and Left open and close, as in a file manager.

Textual's Tree inherits ScrollView's Left/Right, which scroll the tree sideways; in a tree
people expect Right to open the row under the cursor (or, open already, go to its first child)
and Left to close it (or, closed or a leaf, go to its parent), as file managers and Netron do.
Scrolling sideways stays on shift+Left/Right (and shift+wheel), in place of Tree's
shift+Left/Right (parent, next ancestor), which Left and shift+Down now cover.
"""

from __future__ import annotations

from textual.widgets import Tree

from views.tui import bindings
from views.tui.widgets.plain import plain


class KeyedTree(Tree):
    """A Tree with the file-manager arrow keys. A subclass that makes a row's children only
    when it opens does so in `fill_children`, so Right can step into them at once."""

    BINDINGS = bindings.TREE

    def process_label(self, label):
        # a str label is a name from a file: plain text, never markup (views/tui/widgets/plain)
        return super().process_label(plain(label))

    def fill_children(self, tree_node):
        """Make `tree_node`'s children if they are made on opening (nothing here)."""

    def action_expand_or_child(self):
        node = self.cursor_node
        if node is None or not node.allow_expand:
            return
        if not node.is_expanded:
            self.fill_children(node)
            node.expand()
        elif node.children:
            self._move_to(node.children[0])

    def action_collapse_or_parent(self):
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
            return
        parent = node.parent
        if parent is not None and (parent is not self.root or self.show_root):
            self._move_to(parent)

    def _move_to(self, tree_node):
        """move_cursor goes to the row a node had when the tree last laid out its rows: a child
        made or shown since (Right pressed twice before a refresh) has none yet. Reading
        last_line lays them out again first."""
        self.last_line
        self.move_cursor(tree_node)
