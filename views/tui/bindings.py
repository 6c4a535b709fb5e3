"""Key bindings as data: one table per screen, shown in the footer and on the help screen."""

from textual.binding import Binding

APP = [
    Binding("q", "quit", "Quit"),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("1", "switch_mode('browser')", "Graph"),
    Binding("2", "switch_mode('runs')", "Runs"),
    Binding("3", "switch_mode('partitions')", "Partitions"),
    Binding("4", "switch_mode('log')", "Log"),
    Binding("5", "switch_mode('debugger')", "Debugger", show=False),
    Binding("6", "switch_mode('checkpoint')", "Checkpoint", show=False),
    Binding("7", "switch_mode('objects')", "SavedModel objects", show=False),
]

# detail tab id -> (key that opens it, title)
TAB_KEYS = {"nodedef": ("d", "NodeDef"), "opdef": ("o", "OpDef"), "traceback": ("t", "Traceback"),
            "inputs": ("i", "Inputs"), "outputs": ("u", "Outputs"), "tensor": ("v", "Tensor"),
            "picture": ("p", "Picture")}

BROWSER = [
    Binding("slash", "filter", "Find", key_display="/"),
    Binding("f", "filter(True)", "Filter"),
    Binding("n", "match(1)", "Next"),
    Binding("N", "match(-1)", "Prev", key_display="N", show=False),
    Binding("g", "choose_graph", "Graphs"),
    # Shown in the footer only inside a body (BrowserScreen.check_action).
    Binding("backspace", "back", "Back", key_display="⌫"),
    Binding("e", "expand_calls", "Expand call", show=False),
    Binding("plus", "depth(1)", "Depth+", key_display="+", show=False),
    Binding("minus", "depth(-1)", "Depth-", key_display="-", show=False),
    Binding("x", "export", "Export"),
    Binding("X", "export(True)", "Export the whole graph", key_display="X", show=False),
    Binding("D", "diff", "Diff", key_display="D", show=False),
    Binding("O", "optimize", "Optimize", key_display="O", show=False),
    Binding("less_than_sign", "stage(-1)", "Previous pass", key_display="<", show=False),
    Binding("greater_than_sign", "stage(1)", "Next pass", key_display=">", show=False),
    Binding("left_square_bracket", "tree_width(-4)", "Narrower tree", key_display="[",
            show=False),
    Binding("right_square_bracket", "tree_width(4)", "Wider tree", key_display="]", show=False),
    Binding("escape", "close_filter", "Close filter", show=False),
    *(Binding(key, f"tab('{tab}')", f"{title} tab", show=False)
      for tab, (key, title) in TAB_KEYS.items()),
]

RUNS = [
    Binding("slash", "filter", "Filter", key_display="/"),
    Binding("s", "sort_next", "Sort"),
    Binding("r", "sort_reverse", "Reverse"),
    Binding("d", "next_device", "Device"),
    Binding("g", "choose_run", "Runs"),
    Binding("T", "export_trace", "Export trace", key_display="T", show=False),
    Binding("escape", "close_filter", "Close filter", show=False),
]

LOG = [
    Binding("space", "replay_step", "Next node", key_display="space"),
    Binding("backspace", "replay_back", "Prev node", key_display="backspace"),
    Binding("g", "replay_show", "Show node"),
]

DEBUGGER = [
    Binding("s", "step", "Step"),
    Binding("c", "cont", "Continue"),
    Binding("b", "toggle_break", "Break"),
    Binding("a", "add_break", "Break at"),
    # n and f both end this Session.run without stopping again in it; they differ in the next:
    # n stops at its start, f only where a breakpoint fires (as the line prompt's n and f).
    Binding("n", "next_run", "Next run"),
    Binding("f", "finish", "Finish run"),
    Binding("r", "rerun", "Rerun"),
    Binding("w", "watch", "Watch", show=False),
    Binding("g", "show_in_graph", "In graph"),
    Binding("escape", "close_input", "Close", show=False),
    # The screen keys work here as everywhere; the footer has room only for the stepping keys.
    *(Binding(b.key, f"app.{b.action}", b.description, show=False) for b in APP
      if b.key in "1234"),
]

CHECKPOINTS = [
    Binding("slash", "filter", "Filter", key_display="/"),
    Binding("s", "sort_next", "Sort column"),
    Binding("r", "sort_reverse", "Reverse"),
    Binding("c", "compare", "Compare two"),
    Binding("k", "next_checkpoint", "Next checkpoint"),
    Binding("escape", "close_filter", "Close filter", show=False),
]

SAVED_OBJECTS = []   # the tree's own keys: enter, space, arrows (HELP_EXTRA says what they do)

# Every tree's (widgets/keyed_tree.py): the graph browser's scopes, the SavedModel objects.
TREE = [
    Binding("right", "expand_or_child", "Open the row, or go to its first child", key_display="→",
            show=False),
    Binding("left", "collapse_or_parent", "Close the row, or go to its parent", key_display="←",
            show=False),
    Binding("shift+right", "scroll_right", "Scroll the tree right", key_display="shift+→",
            show=False),
    Binding("shift+left", "scroll_left", "Scroll the tree left", key_display="shift+←",
            show=False),
]

STATS_DIFF = [
    Binding("s", "sort_next", "Sort"),
    Binding("r", "sort_reverse", "Reverse"),
]

TREES = "Trees (graph browser, SavedModel objects)"

HELP_SECTIONS = {"Everywhere": APP, "Graph browser": BROWSER, TREES: TREE, "Runs": RUNS,
                 "Log": LOG, "Debugger": DEBUGGER, "Checkpoint": CHECKPOINTS, "Stats diff": STATS_DIFF,
                 "SavedModel objects": SAVED_OBJECTS}

HELP_EXTRA = {
    "Everywhere": [("ctrl+p", "command palette: open a graph, jump to a screen, find a node")],
    TREES: [("space", "open or close the row"),
            ("shift+↑/↓", "the previous or next sibling")],
    "Graph browser": [("enter", "on a tree node, input or consumer: go to that node"),
                      ("enter", "on a call node (→ in the tree), or a call in the NodeDef tab:"
                                " open the function's body"),
                      ("⌫", "back out of a body to the call node (the path is shown above)"),
                      ("g", "graphs, with the functions their calls reach under them"),
                      ("/ f", "find, or filter the tree to the matches (escape: all)"),
                      ("", "a regex over names, ops, devices; ^ $ anchor on the name;"
                           " / finds in every function body too"),
                      ("e", "in the Picture tab: a call's body drawn inside it, or folded"),
                      ("x X", "export the picture's nodes, or the whole graph or body"),
                      ("d o t i u v p", "tabs: NodeDef, OpDef, Traceback, Inputs, Outputs, "
                                        "Tensor, Picture"),
                      ("+ -", "picture depth"),
                      ("D", "diff: compare this graph with another opened (+ added, "
                            "- removed, ~ changed)"),
                      ("O", "optimize: the graph's optimizer passes, each as a diff"),
                      ("< >", "in a pass's diff: the previous or next pass"),
                      ("[ ]", "the tree panel narrower or wider")],
    "Runs": [("enter", "on a row: select that node in the graph browser"),
             ("click", "on a column title: sort by it (times largest first)")],
    "Log": [("enter", "on a graph: browse it; on an execution: replay it one node at a time")],
    "Checkpoint": [("enter", "on a variable: select its node in the graph browser")],
    "SavedModel objects": [("7", "a TF2 SavedModel's signatures, concrete functions and objects,"
                                 " as saved_model_cli show --all lists them"),
                           ("enter", "on a concrete function: its body in the graph browser"),
                           ("space", "open or close a row (an object's attributes)")],
    "Stats diff": [("s", "sort by cost (the larger of A's and B's time), by B/A, by name"),
                   ("", "graph-inspector diff --stats A B --tui opens it")],
    "Debugger": [("n", "next run: finish this Session.run, stop at the start of the next"),
                 ("f", "finish run: end this Session.run without stopping; the program goes "
                       "on, stopping again only at a breakpoint"),
                 ("enter", "on a breakpoint: turn it on or off"),
                 ("5", "the debugger screen, from any other")],
}
