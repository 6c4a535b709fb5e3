"""The command palette: open a graph, go to a screen, find a node in the current graph."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from views import node_search as search

SCREENS = {"browser": "Graph browser", "runs": "Runs: step stats", "partitions": "Partition graphs",
           "log": "Logs: VLOG graphs and executions",
           "objects": "SavedModel objects and concrete functions"}
MAX_NODE_HITS = 20


class InspectorCommands(Provider):
    async def discover(self) -> Hits:
        """What ctrl+p lists before anything is typed: this app's screens, graphs and runs."""
        app = self.app
        for mode, title in SCREENS.items():
            yield DiscoveryHit(f"go to {title}", partial(app.switch_mode, mode))
        workspace = app.workspace
        views = workspace.all_views() if workspace is not None else ()
        runs = workspace.runs if workspace is not None else ()
        for view in views:
            yield DiscoveryHit(f"open {view.title}", partial(app.show_view, view))
        for number, run in enumerate(runs):
            yield DiscoveryHit(f"show run {run.label}", partial(app.show_run, number))
        for text, callback in self._diff_commands():
            yield DiscoveryHit(text, callback)
        for command in self._system_commands():
            yield DiscoveryHit(command.title, command.callback, help=command.help)

    def _diff_commands(self):
        """(text, callback): optimize the graph shown, pass by pass; diff it with each other
        graph opened."""
        app = self.app
        current = app.current_view()
        if current is None or current.kind == "diff" or app.workspace is None:
            return []
        return [(f"optimize {current.title}: each pass as a diff",
                 partial(app.optimize_view, current))] + [
            (f"diff {other.title} -> {current.title}", partial(app.show_diff, other, current))
            for other in app.workspace.all_views() if other is not current
            and other.kind != "diff"]

    def _system_commands(self):
        """Textual's own commands (Keys, Quit, theme, ...), listed after this app's: this one
        provider yields both, because hits from separate providers arrive in no fixed order."""
        return list(self.app.get_system_commands(self.screen))

    async def search(self, query: str) -> Hits:
        app = self.app
        matcher = self.matcher(query)
        for mode, title in SCREENS.items():
            score = matcher.match(f"go to {title}")
            if score > 0:
                yield Hit(score, matcher.highlight(f"go to {title}"), partial(app.switch_mode, mode))
        workspace = app.workspace
        views = workspace.all_views() if workspace is not None else ()
        runs = workspace.runs if workspace is not None else ()
        for view in views:
            text = f"open {view.title}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(app.show_view, view))
        for number, run in enumerate(runs):
            text = f"show run {run.label}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(app.show_run, number))
        for text, callback in self._diff_commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback)
        for command in self._system_commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.callback,
                          help=command.help)
        view = app.current_view()
        if view is not None and query:
            found = search.find(view.index.search_lines(), search.compile_query(query),
                                limit=MAX_NODE_HITS)
            for key in found:
                node = view.index.nodes[key]
                yield Hit(0.5, f"node {node.name} ({node.op})", partial(app.go_to_node_in, view, key))
