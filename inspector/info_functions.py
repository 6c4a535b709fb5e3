"""The function part of `info`: what each graph's calls reach (functions, their nodes and ops),
each function as a graph entry of `--json`, and a SavedModel's objects and concrete functions as
`saved_model_cli show --all` lists them (parsers/functions.py, parsers/saved_objects.py)."""

from __future__ import annotations

from collections import Counter

from parsers.saved_objects import SavedObjects

TOP_OPS = 8
TREE_LIMIT = 40       # call-tree rows printed per graph; --json lists every function
ROOT_FUNCTIONS = 20   # saved functions printed per meta graph


def _plural(count, noun):
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _ops_text(ops):
    top = ", ".join(f"{op} {count}" for op, count in ops.most_common(TOP_OPS))
    more = len(ops) - TOP_OPS
    return top + (f", and {more} more op types" if more > 0 else "")


# ---- per graph ------------------------------------------------------------------------------


def graph_head(labeled, library):
    """`graph 'serve': 10 nodes; 8 functions, 76 nodes in them` (nodes only, for a graph
    whose calls reach no function)."""
    head = f"graph {labeled.label!r}: {len(labeled.graph_def.node)} nodes"
    reached = library.reached_from(labeled.label) if library is not None else []
    if reached:
        head += (f"; {_plural(len(reached), 'function')},"
                 f" {sum(f.node_count for f in reached)} nodes in them")
    return head


def graph_function_lines(labeled, library):
    """Under a graph's head: its functions' ops, the call tree, and the library's functions
    nothing in the graph calls."""
    if library is None or not labeled.graph_def.library.function:
        return []
    lines = []
    tree = library.call_tree(labeled.label)
    if tree:
        ops = Counter(node.op for _, _, f in tree for node in f.function_def.node_def)
        if ops:
            lines.append(f"  ops in its functions: {_ops_text(ops)}")
        lines.append("  calls:")
        for depth, site, function in tree[:TREE_LIMIT]:
            lines.append(f"  {'  ' * depth}{site.node} ({site.attr}) -> {function.name}:"
                         f" {_plural(function.node_count, 'node')}")
        if len(tree) > TREE_LIMIT:
            lines.append(f"    ... {len(tree) - TREE_LIMIT} more functions"
                         f" (info --json lists every one)")
    reached = {f.label for _, _, f in tree}
    uncalled = [f for f in library.functions_of(labeled.label) if f.label not in reached]
    if uncalled:
        names = ", ".join(f.name for f in uncalled[:TOP_OPS])
        more = ", ..." if len(uncalled) > TOP_OPS else ""
        lines.append(f"  library functions nothing calls: {len(uncalled)},"
                     f" {sum(f.node_count for f in uncalled)} nodes in them: {names}{more}")
    return lines


# ---- the SavedObjectGraph -----------------------------------------------------------------


def saved_objects_of(meta):
    """The SavedObjects of a MetaGraph, or None when it has no object graph (TF1)."""
    meta_graph_def = meta.meta_graph_def
    if not meta_graph_def.object_graph_def.nodes:
        return None
    return SavedObjects(meta_graph_def.object_graph_def, meta_graph_def.graph_def)


def signature_call_line(objects, key):
    """`calls serve (__inference_serve_78) through __inference_signature_wrapper_serve_86`,
    or None when the object graph does not name the signature's function."""
    wrapper = objects.signatures().get(key)
    if wrapper is None:
        return None
    called = objects.signature_calls(wrapper)
    if not called:
        return f"function {wrapper}"
    what = ", ".join(f"{path} ({name})" for path, name in called)
    return f"calls {what} through {wrapper}"


def saved_object_lines(objects):
    """The objects by kind, then the root's functions with each concrete function's
    arguments (saved_model_cli's `Concrete Functions`), then how many more are nested."""
    counts = ", ".join(f"{count} {kind}" for kind, count in objects.kind_counts().items())
    lines = [f"  objects: {len(objects.objects)} ({counts})"]
    roots = objects.functions(root_only=True)
    if roots:
        lines.append("  functions (saved_model_cli's Concrete Functions):")
    for function in roots[:ROOT_FUNCTIONS]:
        lines.append(f"    {function.path}: {_plural(len(function.options), 'concrete function')}")
        for number, option in enumerate(function.options, 1):
            lines.append(f"      #{number} {option.call_text} -> {option.function}")
    if len(roots) > ROOT_FUNCTIONS:
        lines.append(f"    ... {len(roots) - ROOT_FUNCTIONS} more")
    # A signature's function shows with its signature; the rest sit on nested objects.
    nested = [f for f in objects.functions() if "." in f.path
              and not f.path.startswith("signatures.")]
    if nested:
        shown = ", ".join(f.path for f in nested[:3]) + (", ..." if len(nested) > 3 else "")
        lines.append(f"  and {_plural(len(nested), 'function')} of nested objects ({shown};"
                     f" info --json lists them)")
    return lines


# ---- JSON ------------------------------------------------------------------------------------


def function_json(function, library, node_json):
    """A function's entry of `"graphs"`: its label, its graph's nodes, no library of its own,
    and "function": name, inputs, outputs, calls, called_by."""
    return {
        "label": function.label,
        "nodes": [node_json(node) for node in function.graph_def.node],
        "functions": [],
        "function": {
            "name": function.name,
            "inputs": [{"name": a.name, "dtype": a.dtype} for a in function.inputs],
            "outputs": [{"name": a.name, "dtype": a.dtype} for a in function.outputs],
            "calls": function.calls,
            "called_by": [{"graph": site.graph, "node": site.node}
                          for site in library.callers(function.label)],
        },
    }


def saved_objects_json(meta):
    """One entry of `"saved_objects"` for a meta graph with an object graph, else None."""
    objects = saved_objects_of(meta)
    if objects is None:
        return None

    def argument(a):
        return {"name": a.name, "type": a.type_name, "value": a.value}

    return {
        "meta_graph": meta.label,
        "objects": [{"path": o.path, "kind": o.kind, "detail": o.detail} for o in objects.objects],
        "functions": [{"path": f.path, "options": [
            {"function": o.function, "args": [argument(a) for a in o.args],
             "kwargs": [argument(a) for a in o.kwargs]} for o in f.options]}
            for f in objects.functions()],
        "signatures": [{"key": key, "function": wrapper,
                        "calls": [{"path": path, "function": name}
                                  for path, name in objects.signature_calls(wrapper)]}
                       for key, wrapper in sorted(objects.signatures().items())],
    }
