"""The name-scope tree: scopes with node counts, children made only when a scope opens."""

from __future__ import annotations

from rich.text import Text
from parsers.printable import printable
from views.tui import diffs
from views.tui.messages import NodeChosen, NodeOpened
from views.tui.widgets.keyed_tree import KeyedTree

CHUNK = 400   # entries made per opening; the rest behind a "more" row
OPEN_ALL_UNDER = 200   # a filter with fewer matches opens every scope down to them


class Narrowing:
    """What a filter leaves in the tree: the matching nodes, and per scope how many are under it.

    Scopes are keyed (partition, path); the partition's root is (partition, "").
    """

    def __init__(self, index, keys):
        self.keys = set(keys)
        self.counts = {}
        for key in keys:
            partition = index.part_of(key)
            parts = index.scope_path(key)
            for depth in range(len(parts) + 1):
                scope = (partition, "/".join(parts[:depth]))
                self.counts[scope] = self.counts.get(scope, 0) + 1

    def keeps(self, entry):
        if entry.is_scope:
            return (max(entry.partition, 0), entry.path) in self.counts
        return entry.key in self.keys

    def count(self, entry):
        return self.counts.get((max(entry.partition, 0), entry.path), 0)


class _More:
    """The row standing for the entries of a scope not made yet."""

    def __init__(self, entries):
        self.entries = entries


class ScopeTree(KeyedTree):
    """A Tree over a GraphIndex: data is a ScopeEntry (or _More); highlighting a node chooses it."""

    def __init__(self, **kwargs):
        super().__init__("graph", **kwargs)
        self.view = None
        self.show_root = False
        self.guide_depth = 2
        self.narrowing = None     # a Narrowing while the tree is filtered

    def show_view(self, view, narrowing=None):
        """Show `view`'s top level (only what `narrowing` keeps, when given); everything below
        waits until opened, except under a narrowing small enough to open whole."""
        self.view = view
        self.narrowing = narrowing
        self.clear()
        self.cursor_line = -1    # no row chosen in the new tree until the user (or reveal) moves
        self.root.data = view.index.root
        self.root.set_label(view.title)
        self._fill(self.root)
        self.root.expand()

    def _fill(self, tree_node):
        entry = tree_node.data
        tree_node.remove_children()
        self._add_entries(tree_node, self.view.index.children(entry))

    def _add_entries(self, tree_node, entries):
        narrowing = self.narrowing
        if narrowing is not None:
            entries = [entry for entry in entries if narrowing.keeps(entry)]
        open_all = narrowing is not None and len(narrowing.keys) < OPEN_ALL_UNDER
        counts = diffs.scope_counts(self.view) if self.view.diff is not None else None
        for entry in entries[:CHUNK]:
            changes = counts.text(entry) if counts is not None and entry.is_scope else Text("")
            if narrowing is not None and entry.is_scope:
                count = narrowing.count(entry)
                name = (entry.device.rpartition("device:")[2] or entry.device) \
                    if not entry.path and entry.device else entry.name + "/"
                child = tree_node.add(Text.assemble((name, "bold"), (f" {count} of {entry.count}",
                                                                     "dim"), changes), entry)
                if open_all:
                    self._fill(child)
                    child.expand()
                continue
            if entry.is_scope and not entry.path and entry.device:
                short = entry.device.rpartition("device:")[2] or entry.device
                label = Text.assemble((printable(short), "bold cyan"), (f" {entry.count}", "dim"),
                                      changes, (f"  {printable(entry.device)}", "dim"))
                tree_node.add(label, entry)
            elif entry.is_scope:
                label = Text.assemble((printable(entry.name) + "/", "bold"), (f" {entry.count}", "dim"),
                                      changes, self._calls_text(entry.key) if entry.key else "")
                tree_node.add(label, entry)
            else:
                op = printable(self.view.index.nodes[entry.key].op)
                calls = self._calls_text(entry.key)
                label = Text.assemble(diffs.leaf_mark(self.view, entry.key),
                                      ("▸ ", "cyan") if calls else "", printable(entry.name),
                                      (f"  {op}", "dim"), calls)
                tree_node.add_leaf(label, entry)
        rest = entries[CHUNK:]
        if rest:
            tree_node.add_leaf(Text(f"… {len(rest)} more (enter)", style="italic"), _More(rest))

    def _calls_text(self, key):
        """` → while_body_13` after a call node (` → 2 functions` for more), else nothing."""
        functions = self.view.functions
        calls = functions.calls_of(self.view, key) if functions is not None else []
        if not calls:
            return Text("")
        what = calls[0][1].name if len(calls) == 1 else f"{len(calls)} functions"
        return Text(f" → {printable(what)}", style="cyan")

    def action_select_cursor(self):
        """Enter on a call node opens its body (space still opens a scope named like it)."""
        entry = self.cursor_node.data if self.cursor_node is not None else None
        functions = self.view.functions if self.view is not None else None
        if (functions is not None and entry is not None and not isinstance(entry, _More)
                and entry.key and functions.calls_of(self.view, entry.key)):
            self.post_message(NodeOpened(self.view, entry.key))
            return
        super().action_select_cursor()

    def fill_children(self, tree_node):
        """A scope's entries, made when it first opens."""
        if tree_node is not self.root and tree_node.data is not None and not tree_node.children:
            self._fill(tree_node)

    def _on_tree_node_expanded(self, event):
        self.fill_children(event.node)

    def _on_tree_node_selected(self, event):
        if isinstance(event.node.data, _More):
            self._load_more(event.node)

    def _on_tree_node_highlighted(self, event):
        entry = event.node.data
        if self.view is not None and entry is not None and not isinstance(entry, _More) and entry.key:
            self.post_message(NodeChosen(self.view, entry.key))

    def _load_more(self, more_node):
        parent = more_node.parent
        entries = more_node.data.entries
        more_node.remove()
        self._add_entries(parent, entries)

    def reveal(self, key):
        """Open the scopes down to node `key`, move the cursor onto it, scroll it into view."""
        index = self.view.index
        target = self.root
        if index.is_partitioned:
            target = self._child_where(target, lambda e: e.partition == index.part_of(key))
        for depth in range(1, len(index.scope_path(key)) + 1):
            path = "/".join(index.scope_path(key)[:depth])
            target = self._child_where(target, lambda e, p=path: e.is_scope and e.path == p)
        leaf = self._child_where(target, lambda e: not e.is_scope and e.key == key)
        if leaf is None:
            return None
        self.select_quietly(leaf)
        return leaf

    def reveal_scope(self, partition, path=""):
        index = self.view.index
        target = self.root
        if index.is_partitioned:
            target = self._child_where(target, lambda e: e.partition == partition)
        if target is not None and target is not self.root:
            target.expand()
            self.select_quietly(target)

    def select_quietly(self, tree_node):
        """Move the cursor once the tree has laid out the rows just added."""
        def move():
            self.move_cursor(tree_node)
            self.scroll_to_node(tree_node, animate=False)
        self.call_after_refresh(move)

    def _child_where(self, tree_node, test):
        if tree_node is None:
            return None
        if tree_node is not self.root and not tree_node.children:
            self._fill(tree_node)
        tree_node.expand()
        while True:
            for child in tree_node.children:
                if isinstance(child.data, _More):
                    continue
                if test(child.data):
                    return child
            more = [c for c in tree_node.children if isinstance(c.data, _More)]
            if not more:
                return None
            self._load_more(more[0])
