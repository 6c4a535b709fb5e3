"""The graph browser: scope tree, breadcrumb, node detail tabs, filter box, match stepping,
and the way into function bodies (Enter on a call node) and back out (backspace)."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ProgressBar, TabbedContent

from parsers.printable import printable
from views import node_search as search
from views.tui import bindings, diffs
from views.tui.finder import Finder
from views.tui.function_views import Step, function_header_lines
from views.tui.widgets.footer import InspectorFooter
from views.tui.messages import FilterChanged, NodeChosen, NodeOpened
from views.tui.widgets.breadcrumb import Breadcrumb
from views.tui.widgets.filter_bar import FilterBar
from views.tui.widgets.node_detail import NodeDetail
from views.tui.widgets.plain import Static
from views.tui.widgets.scope_tree import Narrowing, ScopeTree

MAX_DEPTH = 4
TREE_MIN, TREE_MAX = 20, 44   # the tree's width follows the terminal between these


def tree_width(screen_width, wanted=None):
    """The scope tree's width: a third of the screen within TREE_MIN..TREE_MAX, or `wanted`
    (set with [ and ]) as long as the details keep 40 columns.

    >>> tree_width(160), tree_width(100), tree_width(80), tree_width(100, 70), tree_width(80, 8)
    (44, 34, 27, 60, 12)
    """
    width = wanted if wanted is not None else max(TREE_MIN, min(TREE_MAX, screen_width // 3 + 1))
    return max(12, min(width, screen_width - 40))


class BrowserScreen(Screen):
    BINDINGS = bindings.BROWSER

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.view = None
        self.key = None
        self.trail = []           # function_views.Step per call entered to reach self.view
        self.finder = Finder()
        self.wanted_tree_width = None     # set by [ and ]; None follows the terminal
        self.narrow_on_submit = False     # the box was opened with f (filter), not / (find)
        self.loading_what, self.loading_since, self.loading_timer = "", 0.0, None

    def compose(self) -> ComposeResult:
        yield Static("Graph Inspector", id="title", classes="screen-title")
        yield Breadcrumb("", id="breadcrumb")
        yield Static("", id="load-failures")
        with Vertical(id="loading"):
            yield Static("reading…", id="loading-what")
            yield ProgressBar(id="loading-bar", show_eta=False)
        with Horizontal(id="browser-body"):
            yield ScopeTree(id="scope-tree")
            with Vertical(id="detail-pane"):
                yield Static("", id="node-header")
                yield NodeDetail(id="detail")
        yield FilterBar(self.filter_submitted, id="filter-bar")
        yield InspectorFooter()

    def on_mount(self):
        self.app.browser = self
        self.take_pending()
        self.workspace_ready()

    def on_screen_resume(self):
        self.take_pending()
        self.workspace_ready()

    def on_resize(self, event):
        self._fit_tree()

    def _fit_tree(self):
        width = tree_width(self.size.width, self.wanted_tree_width)
        self.query_one(ScopeTree).styles.width = width
        self.query_one(NodeDetail).fit_tabs(self.size.width - width - 1)

    @property
    def matches(self):
        """The last find's matches: keys of the view, or body_search.Hits across bodies."""
        return self.finder.hits

    def on_key(self, event) -> None:
        self.query_one(FilterBar).route_key(
            event, {"slash": self.action_filter, "f": lambda: self.action_filter(True)})

    def action_tree_width(self, step):
        current = tree_width(self.size.width, self.wanted_tree_width)   # as shown, clamped
        self.wanted_tree_width = current + step
        self._fit_tree()

    def take_pending(self):
        """Go where another screen or the palette asked (app.take_pending), if anywhere."""
        pending = self.app.take_pending()
        if pending is None or self.app.workspace is None:
            return
        self.add_class("-ready")
        kind, view, target = pending
        if kind == "node":
            self.show_node(view, target)
            self.query_one(ScopeTree).focus()
        elif kind == "trail":      # a body, entered through the calls of `target`
            self.show_view(view, target)
        else:
            if view is not self.view:
                self.show_view(view)
            if kind == "scope":
                self.query_one(ScopeTree).reveal_scope(target)

    # ---- the workspace arrives (or was there) -----------------------------------------------

    def progress(self, done, total, what):
        """A path is being read: the bar moves between paths and, while a big text file parses,
        with the parser's progress; while a reader reports nothing ("reading …") it pulses,
        with the seconds it has taken."""
        self.loading_what, self.loading_since = what, time.monotonic()
        self.query_one("#loading-what", Static).update(what)
        reading = what.startswith("reading")
        self.query_one("#loading-bar", ProgressBar).update(total=None if reading else total,
                                                           progress=done)
        if self.loading_timer is None:
            self.loading_timer = self.set_interval(0.5, self._tick_loading)

    def _tick_loading(self):
        if self.has_class("-ready"):
            self.loading_timer.stop()
            return
        seconds = time.monotonic() - self.loading_since
        if seconds >= 1:
            self.query_one("#loading-what", Static).update(f"{self.loading_what}  {seconds:.0f} s")

    def workspace_ready(self):
        workspace = self.app.workspace
        if workspace is None or self.view is not None:
            return
        self.add_class("-ready")
        self.show_failures(self.app.failures)
        views = workspace.all_views()
        if not views:
            self.query_one("#node-header", Static).update(
                "nothing to browse: no graph opened (see the notifications)")
            return
        self.show_view(views[0])

    def show_failures(self, failures):
        """Paths that did not open stay listed above the tree (a toast alone vanishes)."""
        if failures:
            text = Text("cannot open: ", style="bold")
            text.append("; ".join(f"{path}: {reason}" for path, reason in failures))
            self.query_one("#load-failures", Static).update(text)
        self.set_class(bool(failures), "-failures")

    def show_view(self, view, trail=(), keep_matches=False):
        """Show `view`, entered through the calls of `trail` (function_views.Step each)."""
        self.view, self.key, self.trail = view, None, list(trail)
        self.refresh_bindings()   # ⌫ Back in the footer only inside a body
        if not keep_matches:
            self.finder.clear()
        self.query_one("#title", Static).update(self._title(view))
        self.query_one("#breadcrumb", Breadcrumb).show(view, None, self.trail)
        header = "select a node in the tree, or / to find one"
        function = view.functions.function_of(view) if view.functions is not None else None
        if function is not None:
            header = "\n".join(function_header_lines(function, view.functions.library)
                                + [header + (" (⌫ back out)" if self.trail else "")])
        if view.diff is not None:
            first = view.steps[0].caption(view.steps[1]) if view.steps else diffs.summary(view)
            header = (f"{first}\nthe tree shows the nodes that differ (escape: every node)"
                      if not view.diff.empty else f"{first}\nthe two graphs have the same nodes")
        if view.signatures:
            from views.tui.details import signature_lines
            header = "\n".join(signature_lines(view.signatures)[:3] + [header])
        self.query_one("#node-header", Static).update(Text(header))
        self.query_one(NodeDetail).clear()
        tree = self.query_one(ScopeTree)
        differing = diffs.differing_keys(view) if view.diff is not None else None
        tree.show_view(view, Narrowing(view.index, differing) if differing else None)
        tree.focus()

    @staticmethod
    def _title(view, *more):
        title = Text.assemble(("Graph Inspector", "bold"), f"  {printable(view.title)}  ",
                              (f"{len(view.index)} nodes", "dim"))
        if view.diff is not None:
            for status, count in (("added", len(view.diff.added)),
                                  ("removed", len(view.diff.removed)),
                                  ("changed", len(view.diff.changed))):
                title.append(f"  {diffs.graph_diff.MARKS[status]}{count}", style=diffs.STYLES[status])
        title.append_text(Text.assemble(*more))
        return title

    # ---- choosing a node ---------------------------------------------------------------------

    def on_node_chosen(self, message: NodeChosen):
        message.stop()
        self.show_node(message.view, message.key, reveal=message.view is not self.view
                       or not isinstance(self.focused, ScopeTree))

    def show_node(self, view, key, reveal=True):
        if view is not self.view:
            self.show_view(view)
        if key == self.key and not reveal:
            return
        self.key = key
        node = view.index.nodes[key]
        # Names come from the file: control characters shown as escapes, never sent raw.
        header = Text.assemble((printable(node.name), "bold"), "  ", (printable(node.op), "cyan"))
        device = node.node_def.device or node.partition
        if device:
            header.append(f"  {printable(device)}", style="dim")
        for line in diffs.node_lines(view, key):   # before the inputs: the header is 4 rows
            header.append("\n" + printable(line), style=diffs.STYLES.get(diffs.status_of(view, key), "dim"))
        inputs = [printable(name) for name in node.node_def.input]
        header.append(f"\ninputs ({len(inputs)}): " + (", ".join(inputs) if inputs else "none"))
        self.query_one("#node-header", Static).update(header)
        self.query_one("#breadcrumb", Breadcrumb).show(view, key, self.trail)
        self.query_one(NodeDetail).show(self.app.workspace, view, key)
        if reveal:
            self.query_one(ScopeTree).reveal(key)

    # ---- filter and matches ------------------------------------------------------------------

    def action_filter(self, narrow=False):
        """/ finds (Enter goes to the first match); f filters the tree down to the matches."""
        self.narrow_on_submit = narrow
        self.query_one(FilterBar).open(
            "filter the tree: name, op or device (regex)" if narrow
            else "find: name, op or device (regex)")

    def action_close_filter(self):
        bar = self.query_one(FilterBar)
        if bar.is_open:
            bar.close()
            self.query_one(ScopeTree).focus()
        elif not isinstance(self.focused, ScopeTree):
            self.query_one(ScopeTree).focus()   # out of a tab's table or list
        elif self.query_one(ScopeTree).narrowing is not None:
            self.narrow_tree(None)

    def narrow_tree(self, keys):
        """The tree showing only `keys` and their scopes (the whole graph again when None)."""
        tree = self.query_one(ScopeTree)
        tree.show_view(self.view, Narrowing(self.view.index, keys) if keys else None)
        if self.key is not None and (keys is None or self.key in keys):
            tree.reveal(self.key)

    def on_filter_changed(self, message: FilterChanged):
        if self.view is None:
            return
        self.query_one(FilterBar).status(self.finder.count_text(
            self.view, self.trail, message.text, across_bodies=not self.narrow_on_submit))

    def filter_submitted(self, text):
        """Enter in the filter box ("" when closed empty): find (in the graph and every body
        its calls reach), or filter the tree shown."""
        bar = self.query_one(FilterBar)
        bar.close()
        self.query_one(ScopeTree).focus()
        if self.view is not None and not text and self.narrow_on_submit:
            self.narrow_tree(None)
        if self.view is None or not text:
            return
        found = self.finder.find(self.view, self.trail, text, not self.narrow_on_submit)
        if self.narrow_on_submit:
            self.narrow_tree(self.finder.hits or None)
        note = search.compile_query(text).note
        if note:
            self.notify(note, title="filter")
        if not found:
            self.notify(f"no node matches {text!r}", severity="warning")
            return
        self._go_to_match()

    def action_match(self, step):
        if not self.finder.hits:
            self.notify("no matches: / to find", severity="warning")
            return
        self.finder.step(step)
        self._go_to_match()

    def _go_to_match(self):
        view, key, trail = self.finder.target()
        if view is not self.view:
            self.show_view(view, trail, keep_matches=True)
        self.show_node(view, key)
        self.query_one(ScopeTree).focus()
        narrowed = self.query_one(ScopeTree).narrowing is not None
        self.sub_title = self.finder.caption(narrowed)
        self.query_one("#title", Static).update(self._title(self.view, "  ",
                                                            (self.sub_title, "yellow")))

    # ---- into function bodies and back ------------------------------------------------------

    def on_node_opened(self, message: NodeOpened):
        """Enter on a call node (in the tree, or a call in the NodeDef tab): its body; which
        one asked when it calls several (a While's cond and body)."""
        message.stop()
        view, key = message.view, message.key
        calls = view.functions.calls_of(view, key) if view.functions is not None else []
        if message.callee:
            calls = [(site, function) for site, function in calls
                     if function.label == message.callee]
        if not calls:
            node = view.index.nodes[key]
            self.notify(f"{printable(node.name)} ({printable(node.op)}) calls no function",
                        severity="warning")
            return
        if len(calls) == 1:
            self.enter_body(view, key, calls[0][1])
            return
        from views.tui.screens.graph_picker import BodyPicker

        def chosen(function):
            if function is not None:
                self.enter_body(view, key, function)
        self.app.push_screen(BodyPicker(view.index.nodes[key].name, calls), chosen)

    def enter_body(self, view, key, function):
        """Show the body of `function`, called by node `key` of `view` (the view shown)."""
        trail = self.trail if view is self.view else []
        body = view.functions.view_of(function.label)
        self.show_view(body, [*trail, Step(view, key)])

    def action_back(self):
        """Out of a body: the view that called it, its call node selected."""
        if not self.trail:
            self.notify("not inside a function's body (enter on a call node opens one)",
                        severity="warning")
            return
        step = self.trail[-1]
        self.show_view(step.view, self.trail[:-1])
        self.show_node(step.view, step.key)

    # ---- tabs, depth, graphs, export --------------------------------------------------------

    def action_tab(self, tab):
        """A detail tab; d on a call node also puts the focus on its calls (enter opens)."""
        self.query_one(TabbedContent).active = tab
        if tab == "nodedef":
            self.query_one(NodeDetail).focus_calls()

    def action_depth(self, step):
        detail = self.query_one(NodeDetail)
        detail.depth = max(1, min(MAX_DEPTH, detail.depth + step))
        detail.active = "picture"
        detail.show_picture()

    def action_choose_graph(self):
        from views.tui.screens.graph_picker import GraphPicker
        workspace = self.app.workspace
        if workspace is None:
            return
        current = self.trail[0].view if self.trail else self.view

        def chosen(choice):
            if choice is not None:
                self.show_view(*choice)
        self.app.push_screen(GraphPicker(workspace.all_views(), current=current), chosen)

    def action_diff(self):
        """Compare the graph shown (B) with another one opened (A, chosen in a picker)."""
        from views.tui.screens.graph_picker import GraphPicker
        workspace = self.app.workspace
        if workspace is None or self.view is None:
            return
        others = [view for view in workspace.all_views() if view is not self.view
                  and view.kind != "diff"]
        if not others or self.view.kind == "diff":
            self.notify("open two graphs to compare them (graph-inspector A B)" if not others
                        else "this is a diff already: g to choose a graph", severity="warning")
            return
        after = self.view

        def chosen(choice):
            if choice is not None:
                self.app.show_diff(choice[0], after)
        self.app.push_screen(GraphPicker(others, heading=f"Compare {after.label} with",
                                         functions=False), chosen)

    def action_optimize(self):
        """The optimizer's passes over the graph shown, each as a diff (< > step through)."""
        if self.view is None:
            return
        source = self.view.steps[0].source if self.view.steps else self.view
        if source.kind == "diff":
            self.notify("choose a graph to optimize (g), not a diff", severity="warning")
            return
        self.app.optimize_view(source)

    def action_stage(self, step):
        if self.view is None or self.view.steps is None:
            self.notify("< and > step through the passes of an optimization: O starts one",
                        severity="warning")
            return
        stages, number = self.view.steps
        number = max(0, min(len(stages) - 1, number + step))
        if number != self.view.steps[1]:
            self.show_view(stages.diff_at(number))

    def action_export(self, whole=False):
        """x: the Picture tab's nodes of the selected node (the whole graph when none is);
        X: the whole graph or body shown."""
        from views.tui.screens.pickers import ExportScreen
        if self.view is None:
            return
        detail = self.query_one(NodeDetail)
        if whole or self.key is None:
            self.app.push_screen(ExportScreen(self.view))
            return
        drawn, keys = detail.picture_nodes()
        self.app.push_screen(ExportScreen(drawn, self.key, keys, detail.depth))

    def action_expand_calls(self):
        """e: the selected call node's bodies drawn open in the Picture tab, or folded."""
        if self.key is not None and not self.query_one(NodeDetail).toggle_opened():
            node = self.view.index.nodes[self.key]
            self.notify(f"{printable(node.name)} calls no function: e opens a call node's body"
                        " in the picture", severity="warning")

    def check_action(self, action, parameters):
        """Back shows in the footer only inside a body."""
        if action == "back":
            return bool(self.trail)
        return True
