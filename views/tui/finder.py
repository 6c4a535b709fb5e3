"""The browser's find (`/`): the matches of a query in the graph shown or, for a graph with
functions, in it and every function body (views/body_search.py), stepped through with n and N.

A find from inside a body searches from the graph the trail started at, so the same query
finds the same nodes wherever it is typed. A match in a body is shown in that body's view,
entered through the calls that reach it (function_views.FileFunctions.trail_to).

>>> import parsers
>>> from views.tui.workspace import Workspace
>>> workspace = Workspace()
>>> workspace.add_loaded(parsers.load("tests/fixtures/tf2/while_cond"), "while_cond")
>>> finder = Finder()
>>> finder.find(workspace.graphs[0], (), "TensorListSetItem")
1
>>> view, key, trail = finder.target()
>>> view.label, key, [step.key for step in trail], finder.caption()
('while_cond: while_body_13', 'while/TensorArrayV2Write/TensorListSetItem', ['PartitionedCall', 'PartitionedCall', 'while'], "match 1/1 in 1 function for 'TensorListSetItem'")
"""

from __future__ import annotations

from views import node_search

LIVE_LIMIT = 10_000   # matches counted while typing (the count says `10000+` past it)


class Finder:
    def __init__(self):
        self.text = ""
        self.hits = []          # body_search.Hit (across bodies) or keys of `root`'s index
        self.position = -1
        self.root = None        # the view the find started from (the trail's first)
        self.search = None      # its BodySearch, None for a view without functions

    @staticmethod
    def _scope(view, trail, across_bodies=True):
        """(root view, its BodySearch or None) for a find typed in `view` reached by `trail`;
        the view alone when not `across_bodies` (the filter narrows the tree shown)."""
        if not across_bodies:
            return view, None
        root = trail[0].view if trail else view
        if root.functions is None or not root.graph_label:
            return root, None
        return root, root.functions.search(root.graph_label)

    def count_text(self, view, trail, text, across_bodies=True):
        """What the box says while `text` is typed: `41 matches in 5 functions`, and why the
        text is matched literally when it is no regex."""
        if not text:
            return ""
        query = node_search.compile_query(text)
        root, search = self._scope(view, trail, across_bodies)
        if search is None:
            found = node_search.find(root.index.search_lines(), query, limit=LIVE_LIMIT)
            count = f"{len(found)}{'+' if len(found) == LIVE_LIMIT else ''} matches"
        else:
            found = node_search.find(search.search_lines(), query, limit=LIVE_LIMIT)
            count = search.summary(found)
            if len(found) == LIVE_LIMIT:
                count = count.replace(" match", "+ match", 1)
        return f"{query.note}  {count}" if query.note else count

    def find(self, view, trail, text, across_bodies=True):
        """Find `text` from `view` (entered through `trail`); how many matches."""
        self.text = text
        self.root, self.search = self._scope(view, trail, across_bodies)
        query = node_search.compile_query(text)
        lines = self.search.search_lines() if self.search is not None else \
            self.root.index.search_lines()
        self.hits = node_search.find(lines, query)
        self.position = 0 if self.hits else -1
        return len(self.hits)

    def clear(self):
        self.hits, self.position = [], -1

    def step(self, step):
        self.position = (self.position + step) % len(self.hits)

    def target(self):
        """(view, key, trail) of the current match: the view holding it, its key there, and
        the Steps entering that view from the root ([] for a match in the root)."""
        hit = self.hits[self.position]
        if self.search is None:
            return self.root, hit, []
        functions = self.root.functions
        view = functions.view_of(hit.graph)
        trail = [] if hit.graph == self.root.graph_label else \
            functions.trail_to(self.root, hit.graph)
        return view, view.index.key_of(hit.node), trail

    def caption(self, narrowed=False):
        """`match 3/41 in 5 functions` (`filter 3/7` while the tree shows only the matches)."""
        where = ""
        if self.search is not None:
            where = self.search.summary(self.hits).partition(" in ")[2]
        return (f"{'filter' if narrowed else 'match'} {self.position + 1}/{len(self.hits)}"
                + (f" in {where}" if where else "") + f" for {self.text!r}")
