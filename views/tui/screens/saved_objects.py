"""The SavedModel screen: a TF2 SavedModel's signatures, concrete functions and objects, as
`saved_model_cli show --all` lists them (parsers/saved_objects.py reads the SavedObjectGraph;
no TensorFlow): each signature with the function it calls, each tf.function of the root object
with its options (argument specs, `training=True`/`False` variants), the functions of nested
objects, and every object by its Python path. Enter on a concrete function opens its body in
the graph browser, entered through the calls that reach it.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen

from engine.proto import types_pb2
from parsers.printable import printable
from views.tui import bindings
from views.tui.widgets.footer import InspectorFooter
from views.tui.widgets.keyed_tree import KeyedTree
from views.tui.widgets.plain import Static


def tensor_info_text(key, info):
    """One input or output of a signature as saved_model_cli gives it: key, dtype, shape
    (-1 for an unknown size), tensor name.

    >>> from engine.proto import meta_graph_pb2
    >>> info = meta_graph_pb2.TensorInfo(name="serving_default_x:0", dtype=1)
    >>> info.tensor_shape.dim.add(size=-1)
    size: -1
    <BLANKLINE>
    >>> tensor_info_text("x", info)
    'x: DT_FLOAT (-1) serving_default_x:0'
    """
    try:
        dtype = types_pb2.DataType.Name(info.dtype)
    except ValueError:
        dtype = f"DT_<{info.dtype}>"
    shape = info.tensor_shape
    dims = "unknown_rank" if shape.unknown_rank else \
        "(" + ", ".join(str(d.size) for d in shape.dim) + ")"
    return f"{key}: {dtype} {dims} {info.name or '(composite)'}"


def argument_lines(option):
    """saved_model_cli's `Callable with:` of one option, a line per argument.

    >>> from parsers.saved_objects import Argument, ConcreteOption
    >>> option = ConcreteOption("f", (Argument("x", "TensorSpec", "TensorSpec(...)"),
    ...                                Argument("training", "bool", "False")), ())
    >>> argument_lines(option)
    ['Argument #1  x: TensorSpec(...)', 'Argument #2  DType: bool  Value: False']
    """
    lines = []
    for number, argument in enumerate(option.args + option.kwargs, 1):
        if argument.type_name == "TensorSpec":
            text = argument.text
        else:
            text = f"DType: {argument.type_name}  Value: {argument.value}"
            if option.kwargs and argument in option.kwargs:
                text = f"{argument.name}: {text}"
        lines.append(f"Argument #{number}  {text}")
    return lines


class SavedObjectTree(KeyedTree):
    """Sections per SavedModel meta graph; rows that name a library function carry
    ("function", FileFunctions, graph label, function name) as data: Enter opens its body."""

    def __init__(self, **kwargs):
        super().__init__("SavedModels", **kwargs)
        self.show_root = False
        self.guide_depth = 2

    def fill(self, workspace):
        self.clear()
        found = 0
        for functions in workspace.functions:
            for label, objects in functions.saved_objects.items():
                found += 1
                self._meta_graph(functions, label, objects)
        return found

    def _meta_graph(self, functions, label, objects):
        view = functions.graph_views.get(label)
        top = self.root.add(Text.assemble((printable(functions.name), "bold"),
                                          f"  meta graph {printable(label)}"), expand=True)
        library = functions.library

        def opener(name):
            return ("function", functions, label, name) if library.get(name) else None

        signatures = top.add(Text("Signatures (signature_def)", style="bold"), expand=True)
        wrappers = objects.signatures()
        for key in sorted(view.signatures if view is not None else ()):
            signature = view.signatures[key]
            method = signature.method_name.rpartition("/")[2] or "-"
            row = signatures.add(Text.assemble((printable(key), "cyan"), f"  ({method})"),
                                 expand=True)
            for direction, tensors in (("input", signature.inputs),
                                       ("output", signature.outputs)):
                for name in sorted(tensors):
                    row.add_leaf(f"{direction} {printable(tensor_info_text(name, tensors[name]))}")
            wrapper = wrappers.get(key)
            for path, name in objects.signature_calls(wrapper) if wrapper else ():
                row.add_leaf(Text.assemble("calls ", (printable(path), "bold"),
                                           f" ({printable(name)}) through {printable(wrapper)}",
                                           ("  enter: open", "dim")), opener(name))
        roots = objects.functions(root_only=True)
        concrete = top.add(Text(f"Concrete Functions ({len(roots)}, as saved_model_cli lists"
                                " them)", style="bold"), expand=True)
        for function in roots:
            self._saved_function(concrete, function, opener)
        nested = [f for f in objects.functions() if "." in f.path
                  and not f.path.startswith("signatures.")]
        if nested:
            more = top.add(Text(f"Functions of nested objects ({len(nested)})", style="bold"))
            for function in nested:
                self._saved_function(more, function, opener)
        counts = ", ".join(f"{count} {kind}" for kind, count in objects.kind_counts().items())
        tree = top.add(Text(f"Objects ({len(objects.objects)}: {counts})", style="bold"))
        children = {}
        for item in objects.objects:
            if item.path:
                children.setdefault(item.path.rpartition(".")[0], []).append(item)
        tree.data = ("objects", children, "")

    def _saved_function(self, parent, function, opener):
        row = parent.add(Text.assemble((printable(function.path), "cyan"),
                                       f"  {len(function.options)} option"
                                       f"{'' if len(function.options) == 1 else 's'}"),
                         expand=len(function.options) <= 4)
        for number, option in enumerate(function.options, 1):
            # The Python values (training=True) first: they tell the options apart.
            values = ", ".join(a.text for a in option.args + option.kwargs
                               if a.type_name != "TensorSpec")
            item = row.add(Text.assemble(f"Option #{number}  ", (printable(values), "yellow"),
                                         "  → " if values else "→ ",
                                         (printable(option.function), "bold")),
                           opener(option.function))
            for line in argument_lines(option):
                item.add_leaf(printable(line))
            item.add_leaf(Text.assemble("→ ", (printable(option.function), "bold"),
                                        self._node_count_text(option.function, opener),
                                        ("  enter: open the body", "dim")),
                          opener(option.function))

    @staticmethod
    def _node_count_text(name, opener):
        target = opener(name)
        function = target[1].library.get(name) if target else None
        return (f"  {function.node_count} nodes", "dim") if function is not None else ""

    def fill_children(self, tree_node):
        """An object's children by Python attribute name, made when it opens."""
        data = tree_node.data
        if not (isinstance(data, tuple) and data[0] == "objects") or tree_node.children:
            return
        _, children, path = data
        for item in children.get(path, ()):
            name = item.path.rpartition(".")[2]
            label = Text.assemble((printable(name), "bold"), f"  {item.kind}",
                                  (f"  {printable(item.detail)}" if item.detail else "", "dim"))
            if item.path in children:
                tree_node.add(label, ("objects", children, item.path))
            else:
                tree_node.add_leaf(label)

    def _on_tree_node_expanded(self, event):
        self.fill_children(event.node)

    def action_select_cursor(self):
        """Enter on a row naming a function opens its body; elsewhere opens or closes."""
        data = self.cursor_node.data if self.cursor_node is not None else None
        if isinstance(data, tuple) and data[0] == "function":
            _, functions, label, name = data
            self.app.show_function(functions, label, name)
            return
        super().action_select_cursor()


class SavedObjectsScreen(Screen):
    BINDINGS = bindings.SAVED_OBJECTS

    def compose(self) -> ComposeResult:
        yield Static("SavedModel objects and functions", id="title", classes="screen-title")
        yield Static("", id="saved-caption")
        yield SavedObjectTree(id="saved-objects")
        yield InspectorFooter()

    def on_mount(self):
        self.workspace_ready()

    def on_screen_resume(self):
        self.workspace_ready()

    def workspace_ready(self):
        workspace = self.app.workspace
        if workspace is None or self.has_class("-filled"):
            return
        self.add_class("-filled")   # once: the tree keeps what the user opened
        tree = self.query_one(SavedObjectTree)
        found = tree.fill(workspace)
        self.query_one("#saved-caption", Static).update(
            "enter on a concrete function: its body in the graph browser" if found else
            "no SavedObjectGraph opened: a TF2 SavedModel (tf.saved_model.save) has one")
        tree.focus()
