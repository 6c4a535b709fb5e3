"""The Graph Inspector terminal UI: modes for each screen, loading in a worker, notifications."""

from __future__ import annotations

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from parsers.printable import printable
from views.tui import bindings, loading
from views.tui.commands import InspectorCommands
from views.tui.messages import LoadFailed, LoadProgress, WorkspaceReady
from views.tui.screens.browser import BrowserScreen
from views.tui.screens.checkpoint import CheckpointScreen
from views.tui.screens.debugger import DebuggerScreen
from views.tui.screens.log import LogScreen
from views.tui.screens.partitions import PartitionsScreen
from views.tui.screens.pickers import HelpScreen
from views.tui.screens.runs import RunsScreen
from views.tui.screens.saved_objects import SavedObjectsScreen


class InspectorApp(App):
    """Open `paths` (read in a worker), or show a Workspace made already (the demo's run)."""

    TITLE = "Graph Inspector"
    CSS_PATH = "app.tcss"
    BINDINGS = bindings.APP

    def notify(self, message, *, markup=False, **kwargs):
        # messages quote names and paths from files: never markup (views/tui/widgets/plain),
        # whatever a widget's notify passes on
        return super().notify(printable(message), markup=False, **kwargs)
    COMMANDS = {InspectorCommands}  # it lists Textual's system commands too, after its own
    MODES = {"browser": BrowserScreen, "runs": RunsScreen, "partitions": PartitionsScreen,
             "log": LogScreen, "debugger": DebuggerScreen, "checkpoint": CheckpointScreen,
             "objects": SavedObjectsScreen}
    DEFAULT_MODE = "browser"

    def __init__(self, paths=(), workspace=None, debugger=None, **kwargs):
        super().__init__(**kwargs)
        self.debugger = debugger  # a stepping debugger's controller (graph-inspector debug)
        self.paths = list(paths)
        self.workspace = None
        self._given = workspace
        self._pending = None
        self.browser = None
        self.failures = []     # (path, reason) for each path that did not open

    def on_mount(self):
        if self.debugger is not None:
            self.switch_mode("debugger")
        if self._given is not None:
            loading.prepare(self._given)
            self.post_message(WorkspaceReady(self._given))
        else:
            self.load_paths()

    @work(thread=True, exclusive=True, group="load")
    def load_paths(self):
        worker = get_current_worker()
        workspace, failures = loading.read_paths(
            self.paths, lambda done, total, what: self.post_message(LoadProgress(done, total, what)),
            lambda: worker.is_cancelled)
        for path, reason in failures:
            self.post_message(LoadFailed(path, reason))
        if not worker.is_cancelled:
            self.post_message(WorkspaceReady(workspace))

    @work(thread=True, exclusive=True, group="warm")
    def warm_index(self):
        worker = get_current_worker()
        loading.warm(self.workspace, lambda: worker.is_cancelled)

    def on_load_progress(self, message: LoadProgress):
        if self.browser is not None:
            self.browser.progress(message.done, message.total, message.what)

    def on_load_failed(self, message: LoadFailed):
        self.failures.append((message.path, message.reason))
        self.notify(f"{message.path}: {message.reason}", title="cannot open", severity="error",
                    timeout=10)

    def on_workspace_ready(self, message: WorkspaceReady):
        if self.failures and len(self.failures) == len(self.paths):
            self.exit(return_code=2)   # nothing opened: cmd_tui prints the failures
            return
        self.workspace = message.workspace
        if hasattr(self.screen, "workspace_ready"):
            self.screen.workspace_ready()
        self.warm_index()

    # ---- going places, for screens and the palette -------------------------------------------

    def take_pending(self):
        pending, self._pending = self._pending, None
        return pending

    def _to_browser(self, pending):
        self._pending = pending
        if self.current_mode == "browser" and self.browser is not None:
            self.browser.take_pending()
        else:
            self.switch_mode("browser")

    def go_to_node(self, name, prefer=None):
        view, key = self.workspace.view_with_node(name, prefer)
        if view is None:
            self.notify(f"{name} is in no graph opened here", severity="warning")
            return
        self.go_to_node_in(view, key)

    def go_to_node_in(self, view, key):
        self._to_browser(("node", view, key))

    def go_to_scope(self, view, partition):
        self._to_browser(("scope", view, partition))

    def show_run(self, number):
        """The runs screen showing run `number` of the workspace (the palette's "show run")."""
        self.switch_mode("runs")
        self.screen.show_run(number)

    def show_view(self, view):
        self._to_browser(("view", view, None))

    def show_function(self, functions, graph_label, name):
        """The body of function `name` (of function_views.FileFunctions `functions`) in the
        browser, entered through the calls reaching it from graph `graph_label`."""
        function = functions.library.resolve(graph_label, name)
        if function is None:
            self.notify(f"no function {name} in {functions.name}", severity="warning")
            return
        root = functions.view_of(graph_label)
        trail = functions.trail_to(root, function.label) if root is not None else []
        self._to_browser(("trail", functions.view_of(function.label), trail))

    def optimize_view(self, view):
        """Run the optimizer over `view` in a worker, then show its first pass that changed
        something as a diff (stages.py); says why when it cannot."""
        self.notify(f"optimizing {view.label}…", title="optimizer", timeout=3)
        self._optimize(view)

    @work(thread=True, exclusive=True, group="optimize")
    def _optimize(self, view):
        from views.tui import stages
        worker = get_current_worker()
        try:
            found = stages.Stages.of_view(view)
        except stages.OptimizerMissing as error:
            self.call_from_thread(self.notify, str(error), severity="error")
            return
        except Exception as error:  # noqa: BLE001  (a pass's bug must not take the UI down)
            self.call_from_thread(self.notify, f"the optimizer failed on {view.label}:"
                                  f" {type(error).__name__}: {error}", severity="error")
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._show_stages, found)

    def _show_stages(self, found):
        if not len(found):
            self.notify("no optimizer pass ran over this graph", severity="warning")
            return
        first = found.diff_at(found.first_change())
        self.workspace.graphs.append(first)
        self.show_view(first)

    def show_diff(self, before, after):
        """A diff view of two views of the workspace, and one per pair of their functions
        whose bodies differ (listed with the graphs from now on), made in a worker: pairing
        the functions converts every body."""
        self.notify(f"comparing {before.label} with {after.label}…", title="diff", timeout=3)
        self._diff(before, after)

    @work(thread=True, exclusive=True, group="diff")
    def _diff(self, before, after):
        from views.tui import diffs
        worker = get_current_worker()
        try:
            views = diffs.diff_views(before, after)
        except Exception as error:  # noqa: BLE001  (a body that does not read must not take the UI down)
            self.call_from_thread(self.notify, f"cannot compare {before.label} with"
                                  f" {after.label}: {type(error).__name__}: {error}",
                                  severity="error")
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._show_diffs, views)

    def _show_diffs(self, views):
        self.workspace.graphs.extend(views)
        self.show_view(views[0])

    def current_view(self):
        return self.browser.view if self.browser is not None else None

    def action_help(self):
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())
