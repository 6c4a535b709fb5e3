"""pruning: nodes the fetches do not need are removed, as Grappler's model pruner.

optimize() names the graph's sinks as fetches when the caller names none, so on a GraphDef
optimized on its own this removes what earlier passes left unread. Kept and fed nodes stay,
and so does what they need.
"""

from engine.optimizer.graph_view import GraphView, parse_input
from engine.optimizer.report import Report


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    roots = [name for name in context.fetches | context.keep | context.feeds
             if name in view.nodes]
    if not context.fetches or not roots:
        return view.to_graph_def(), report
    needed, stack = set(), roots
    while stack:
        name = stack.pop()
        if name in needed or name not in view.nodes:
            continue
        needed.add(name)
        stack.extend(parse_input(text)[0] for text in view.inputs(name))
    for name in view.names():
        if name in view.nodes and name not in needed:
            report.note("removed", f"{name} ({view.nodes[name].op}) not needed by the fetches")
            view.remove(name)
    return view.to_graph_def(), report
