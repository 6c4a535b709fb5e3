"""The selected node in tabs: NodeDef, OpDef, Traceback, Inputs, Outputs, Tensor, Picture."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, TabbedContent, TabPane
from textual.widgets.option_list import Option

from parsers.errors import InputError
from parsers.printable import printable
from views.tui import details
from views.tui.bindings import TAB_KEYS
from views.tui.function_views import is_variable_node
from views.tui.messages import NodeChosen, NodeOpened
from views.tui.widgets.neighbourhood import Neighbourhood
from views.tui.widgets.plain import DataTable, Static, plain_lines

TABS = {tab: title for tab, (_, title) in TAB_KEYS.items()}
# The tab titles where the full ones do not fit (a pane under about 64 columns).
SHORT_TABS = {"nodedef": "Node", "opdef": "Op", "traceback": "Trace", "inputs": "In",
              "outputs": "Out", "tensor": "Tensor", "picture": "Picture"}
TABS_WIDTH = sum(len(title) + 2 for title in TABS.values())


class EdgeTable(DataTable):
    """Inputs or consumers of a node; Enter goes to the node on that row."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.view = None

    def on_mount(self):
        self.add_columns("#", "kind", "node", "op", "tensor", "dtype/shape")

    def show(self, view, rows):
        self.view = view
        self.clear()
        for number, (edge_kind, key, op, tensor, label) in enumerate(rows):
            self.add_row(str(number), _kind_text(edge_kind), key, op, tensor, label,
                         key=f"{number}:{key}")

    def on_data_table_row_selected(self, event):
        event.stop()
        key = event.row_key.value.partition(":")[2]
        if self.view is not None and key in self.view.index.nodes:
            self.post_message(NodeChosen(self.view, key))


def _kind_text(kind):
    styles = {"control": "italic magenta", "ref": "yellow", "resource": "yellow",
              "sendrecv": "bold cyan", "missing": "red", "back": "magenta"}
    return Text(kind, style=styles.get(kind, ""))


class NodeDetail(Vertical):
    """Fills each tab for a node; the picture only when its tab shows (it runs dot)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.view = self.key = None
        self.workspace = None
        self.depth = 1
        self.opened = set()   # keys of the call nodes whose bodies the picture draws open

    @property
    def active(self):
        return self.query_one(TabbedContent).active

    @active.setter
    def active(self, tab):
        self.query_one(TabbedContent).active = tab

    def compose(self) -> ComposeResult:
        with TabbedContent(initial="nodedef", id="tabs"):
            yield from self._panes()

    def _panes(self):
        with TabPane(TABS["nodedef"], id="nodedef"):
            yield OptionList(id="nodedef-calls")   # the functions a call node calls
            yield VerticalScroll(Static(id="nodedef-text"))
        with TabPane(TABS["opdef"], id="opdef"):
            yield VerticalScroll(Static(id="opdef-text"))
        with TabPane(TABS["traceback"], id="traceback"):
            yield VerticalScroll(Static(id="traceback-text"))
        with TabPane(TABS["inputs"], id="inputs"):
            yield EdgeTable(id="inputs-table")
        with TabPane(TABS["outputs"], id="outputs"):
            yield EdgeTable(id="outputs-table")
        with TabPane(TABS["tensor"], id="tensor"):
            yield Static(id="tensor-summary")
            yield DataTable(id="tensor-table", zebra_stripes=True)
        with TabPane(TABS["picture"], id="picture"):
            yield Neighbourhood(id="picture-view")

    def fit_tabs(self, width):
        """Full tab titles when they fit in `width` columns, short ones otherwise."""
        titles = TABS if width >= TABS_WIDTH + 2 else SHORT_TABS
        tabs = self.query_one(TabbedContent)
        for tab, title in titles.items():
            tabs.get_tab(tab).label = title

    def clear(self):
        """Empty every tab (another graph is shown and no node chosen yet)."""
        self.view = self.key = None
        self.opened = set()
        for name in ("#nodedef-text", "#opdef-text", "#traceback-text", "#tensor-summary"):
            self.query_one(name, Static).update("")
        for name in ("#inputs-table", "#outputs-table"):
            self.query_one(name, EdgeTable).clear()
        self.query_one("#nodedef-calls", OptionList).clear_options()
        self.remove_class("-calls")
        self.query_one("#tensor-table", DataTable).clear(columns=True)
        self.query_one(Neighbourhood).clear()

    def show(self, workspace, view, key):
        self.workspace, self.view, self.key = workspace, view, key
        node = view.index.nodes[key]
        self._show_calls(view, key)
        self.query_one("#nodedef-text", Static).update(plain_lines(details.nodedef_text(node.node_def)))
        if self.active == "opdef":
            self.show_opdef()
        self._show_traceback(node)
        self._show_edges(view, key)
        self._show_tensor(node)
        if self.active == "picture":
            self.show_picture()

    def show_opdef(self):
        """The OpDef tab, filled when it shows: the engine's registry behind it loads every
        kernel and gradient the first time (a second), not wanted for a node only passed."""
        if self.view is not None:
            op = self.view.index.nodes[self.key].op
            self.query_one("#opdef-text", Static).update(
                plain_lines(details.opdef_text(op, self.workspace.op_defs)))

    def show_picture(self):
        if self.view is not None:
            self.query_one(Neighbourhood).show(self.view, self.key, self.depth,
                                               self.key in self.opened)

    def toggle_opened(self):
        """Draw the selected call node's bodies open in the picture, or fold them again;
        whether the node calls anything."""
        view, key = self.view, self.key
        if view is None or view.functions is None or not view.functions.calls_of(view, key):
            return False
        self.opened ^= {key}
        self.active = "picture"
        self.show_picture()
        return True

    def picture_nodes(self):
        """(view, keys): the nodes the Picture tab draws for the selected node (what x
        exports), in the view they are drawn from."""
        from views.tui.picture import pictured
        from views.tui.widgets.neighbourhood import picture_source
        drawn, inner, _ = picture_source(self.view, self.key, self.key in self.opened)
        return drawn, pictured(drawn.index, self.key, self.depth, inner)[1]

    def _show_calls(self, view, key):
        """Above the NodeDef, a row per function-valued attr naming a function of the file:
        Enter opens its body."""
        calls = view.functions.calls_of(view, key) if view.functions is not None else []
        listed = self.query_one("#nodedef-calls", OptionList)
        listed.clear_options()
        listed.add_options(Option(Text.assemble(
            (f"{site.attr}: " if site.attr != "op" else "op: ", "cyan"),
            (printable(function.name), "bold"), (f"  {function.node_count} nodes", "dim"),
            ("   enter: open the body", "dim italic")), id=function.label)
            for site, function in calls)
        self.set_class(bool(calls), "-calls")

    def focus_calls(self):
        """Put the focus on the calls above the NodeDef; whether there are any."""
        if not self.has_class("-calls"):
            return False
        calls = self.query_one("#nodedef-calls", OptionList)
        if calls.highlighted is None:
            calls.highlighted = 0     # Enter opens the first at once
        calls.focus()
        return True

    def on_option_list_option_selected(self, event):
        event.stop()
        if self.view is not None and self.key is not None:
            self.post_message(NodeOpened(self.view, self.key, event.option.id))

    def on_tabbed_content_tab_activated(self, event):
        if event.pane.id == "picture":
            self.show_picture()
        elif event.pane.id == "opdef":
            self.show_opdef()

    def _show_traceback(self, node):
        trace = self.workspace.trace_of(self.view, node.name)
        lines = details.traceback_lines(trace) if trace else []
        text = "\n".join(lines) if lines else (
            f"no creation stack known for {node.name} (the graph has no debug_info for it)")
        self.query_one("#traceback-text", Static).update(plain_lines(text))

    def _show_edges(self, view, key):
        index = view.index
        inputs, outputs = [], []
        for edge in index.inputs(key):
            producer = index.nodes.get(edge.src)
            tensor = f"^{edge.src}" if edge.index < 0 else f"{_name(index, edge.src)}:{edge.index}"
            inputs.append((edge.kind, edge.src, producer.op if producer else "?", tensor, edge.label))
        for edge in index.consumers(key):
            tensor = "" if edge.index < 0 else f"{_name(index, key)}:{edge.index}"
            outputs.append((edge.kind, edge.dst, index.nodes[edge.dst].op, tensor, edge.label))
        twin = index.twin(key) if index.nodes[key].op in ("_Send", "_Recv", "_HostSend", "_HostRecv") else None
        if twin is not None:
            row = ("sendrecv", twin, index.nodes[twin].op, index.nodes[twin].partition, "twin")
            (outputs if index.nodes[key].op.endswith("Send") else inputs).append(row)
        self.query_one("#inputs-table", EdgeTable).show(view, inputs)
        self.query_one("#outputs-table", EdgeTable).show(view, outputs)

    def _show_tensor(self, node):
        if self._show_saved_variable(node):
            return
        table = self.query_one("#tensor-table", DataTable)
        table.clear(columns=True)
        value = self.workspace.value_of(self.view, f"{node.name}:0")
        origin = "fetched from the engine's run"
        if value is None:
            value = details.const_value(node.node_def)
            origin = "the Const's value attr"
        if value is None:
            label, checkpoint = self.workspace.checkpoint_holding(node.name)
            if checkpoint is not None:
                self._show_checkpoint_value(node, label, checkpoint)
                return
            label, checkpoint, weights = self.workspace.layer_weights(node.name)
            if weights:  # a Keras layer: its first weight, the others named
                self._show_checkpoint_value(node, label, checkpoint, weights)
                return
        if value is None:
            self.query_one("#tensor-summary", Static).update(self._ran_text(node))
            return
        self._fill_tensor(f"{node.name}:0 ({origin})", value)

    def _show_checkpoint_value(self, node, label, checkpoint, weights=()):
        """A variable's value from an opened checkpoint, its bytes read in a worker (they can be
        big): the node's own, or the first of a layer's `weights` (the others listed above it)."""
        info = weights[0] if weights else checkpoint.info(node.name)
        self.query_one("#tensor-summary", Static).update(
            f"{info.name}: reading {info.nbytes:,} bytes from checkpoint {label} …")
        key = self.key
        title = f"{info.name} (checkpoint {label})"
        if len(weights) > 1:
            listed = ", ".join(f"{w.name[len(node.name) + 1:]} [{','.join(map(str, w.shape))}]"
                               for w in weights)
            title = f"layer weights: {listed} (6: every weight)\n{title}"

        def read():
            try:
                value = checkpoint.value(info.name)
            except InputError as error:  # a corrupt shard: say so in the tab, keep the UI
                self.app.call_from_thread(self.query_one("#tensor-summary", Static).update, str(error))
                return
            if self.key == key:  # the user may have moved on meanwhile
                self.app.call_from_thread(self._fill_tensor, title, value)

        self.run_worker(read, thread=True, exclusive=True, group="checkpoint-value")

    def _show_saved_variable(self, node):
        """A TF2 variable's saved value, for its VarHandleOp and each node reading it (in any
        body: parsers/saved_variables.py follows the calls), found and read in a worker (the
        first question reads every body the saver's restore goes through). Whether it took
        the tab (a node no variable is behind: no)."""
        functions = self.view.functions
        if (functions is None or functions.variables is None
                or not is_variable_node(node.op)
                or self.workspace.value_of(self.view, f"{node.name}:0") is not None):
            return False
        summary = self.query_one("#tensor-summary", Static)
        summary.update(f"{printable(node.name)}: looking for the saved variable behind it …")
        view, key = self.view, self.key

        def read():
            try:
                info = functions.saved_variable(view, key)
                value = functions.variables.checkpoint.value(info.key) if info else None
            except Exception as error:  # noqa: BLE001  (a corrupt shard or a reader's bug)
                self.app.call_from_thread(summary.update, printable(f"no saved value: {error}"))
                return
            if self.view is not view or self.key != key:   # the user moved on meanwhile
                return
            if info is None:
                self.app.call_from_thread(summary.update, self._ran_text(node) + "\nno saved"
                                          " variable is behind it in the file's checkpoint")
                return
            title = (f"{printable(node.name)}: saved variable {printable(info.name)}"
                     f" (checkpoint key {printable(info.key)})")
            self.app.call_from_thread(self._fill_tensor, title, value)

        self.run_worker(read, thread=True, exclusive=True, group="checkpoint-value")
        return True

    def _fill_tensor(self, title, value):
        table = self.query_one("#tensor-table", DataTable)
        table.clear(columns=True)
        lines = [title, *details.summary_lines(value)]
        self.query_one("#tensor-summary", Static).update("\n".join(lines))
        columns, rows = details.value_table(value)
        table.add_columns(*columns)
        table.add_rows(rows)

    def _ran_text(self, node):
        """What the runs say about a node without a value: where it ran, its outputs' shapes."""
        found = []
        for run in self.workspace.runs:
            for device_stats in run.run_metadata.step_stats.dev_stats:
                for stats in device_stats.node_stats:
                    if stats.node_name.partition(":")[0] == node.name:
                        outputs = [_described(o.tensor_description) for o in stats.output]
                        found.append(f"ran on {device_stats.device} in {run.label}: "
                                     + ("; ".join(outputs) or "no outputs"))
        if not found:
            return f"{node.name} has no recorded value (it did not run in any run opened here)"
        return "\n".join(found + ["values are not recorded in RunMetadata, only shapes and bytes"])


def _name(index, key):
    return index.nodes[key].name if key in index.nodes else key


def _described(description):
    from views.attr_text import dtype_name, shape_text
    allocation = description.allocation_description
    size = allocation.allocated_bytes or allocation.requested_bytes
    return f"{dtype_name(description.dtype)} {shape_text(description.shape)} ({size} bytes)"
