"""A graph with its calls' bodies drawn inline: each function a call reaches becomes a name scope
under the call node, so the exporter draws it as a cluster (`dot --expand-calls`).

A call node `call` of function `f` gets f's body (parsers/functions.py: `_Arg`, body, `_Retval`)
as nodes named `call/f/<node>`; each `_Arg` takes the call's input at its index (after the
condition or branch index of an If or Case), and the call node takes the `_Retval`s as its data
inputs, so data flows from the call's inputs through the body to the call's consumers. A While's
body and cond both hang under it, as an If's branches do. Calls inside the bodies expand the
same way, except a function calling itself (directly or not), which stays a call; `nodes` and
`levels` limit the expansion to some call nodes of the graph and so many levels of bodies (the
TUI's Picture tab opens one call's body).

>>> from engine.proto import graph_pb2
>>> from parsers.functions import FunctionLibrary
>>> from parsers.loaded import LabeledGraph
>>> graph = graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder"},
...     {"name": "call", "op": "PartitionedCall", "input": ["x"], "attr": {"f": {"func": {"name": "neg"}}}},
...     {"name": "y", "op": "Identity", "input": ["call"]}])
>>> function = graph.library.function.add(signature={"name": "neg",
...     "input_arg": [{"name": "a", "type": 1}], "output_arg": [{"name": "b", "type": 1}]})
>>> _ = function.node_def.add(name="n", op="Neg", input=["a"])
>>> function.ret["b"] = "n:y:0"
>>> library = FunctionLibrary([LabeledGraph("g", graph, "g.pb")])
>>> [(n.name, list(n.input)) for n in expand_calls(library, "g").node]
[('x', []), ('call', ['call/neg/b_RetVal']), ('y', ['call']), ('call/neg/a', ['x']), ('call/neg/n', ['call/neg/a']), ('call/neg/b_RetVal', ['call/neg/n'])]
"""

from __future__ import annotations

from engine.proto import graph_pb2

# Ops whose first data input is the condition or branch index, not an argument of the callee.
_ARGS_AFTER_FIRST = frozenset({"If", "StatelessIf", "Case", "StatelessCase"})
NODE_LIMIT = 200_000  # past this many nodes, expanding more calls is refused


class ExpansionTooLarge(ValueError):
    """Inlining every call would make more nodes than NODE_LIMIT."""


def expand_calls(library, label, limit=NODE_LIMIT, nodes=None, levels=None):
    """The GraphDef of graph (or function) `label` of a FunctionLibrary with every call's
    bodies inlined under the call node's name; its library is left out. nodes: the names of
    the graph's call nodes to expand (None: every one); levels: how deep to expand calls
    inside the bodies (None: all the way, 1: the bodies of the graph's calls only)."""
    source = library.graph_def(label)
    if source is None:
        raise ValueError(f"no graph or function {label!r}")
    result = graph_pb2.GraphDef()
    result.versions.CopyFrom(source.versions)
    names = {node.name for node in source.node}
    # (graph, its nodes' scope, functions open, level of bodies it is in)
    pending = [(label, "", frozenset({label}), 0)]
    by_graph = {}
    for node in source.node:
        result.node.add().CopyFrom(node)
    added = {node.name: result.node[i] for i, node in enumerate(source.node)}
    while pending:
        graph_label, prefix, active, level = pending.pop()
        if levels is not None and level >= levels:
            continue
        sites = by_graph.setdefault(graph_label, library.call_sites(graph_label))
        calls = {}
        for site in sites:
            calls.setdefault(site.node, []).append(site)
        for node_name, node_sites in calls.items():
            if nodes is not None and not prefix and node_name not in nodes:
                continue
            call = added.get(prefix + node_name)
            if call is None:
                continue
            data = [i for i in call.input if not i.startswith("^")]
            control = [i for i in call.input if i.startswith("^")]
            offset = 1 if call.op in _ARGS_AFTER_FIRST else 0
            returned = []
            for site in node_sites:
                function = library.resolve(site.graph, site.callee)
                if function is None or function.label in active:
                    continue
                scope = _free_scope(f"{call.name}/{function.name}", names)
                body = function.graph_def
                if len(result.node) + len(body.node) > limit:
                    raise ExpansionTooLarge(
                        f"inlining every call makes more than {limit} nodes; draw one function"
                        f" with --graph FUNCTION instead")
                for body_node in body.node:
                    node = result.node.add()
                    node.CopyFrom(body_node)
                    node.name = f"{scope}/{body_node.name}"
                    del node.input[:]
                    if body_node.op == "_Arg":
                        position = body_node.attr["index"].i + offset
                        if position < len(data):
                            node.input.append(data[position])
                    else:
                        node.input.extend(_scoped(text, scope) for text in body_node.input)
                    if body_node.op == "_Retval":
                        returned.append(node.name)
                    names.add(node.name)
                    added[node.name] = node
                pending.append((function.label, scope + "/", active | {function.label}, level + 1))
            if returned:
                del call.input[:]
                call.input.extend(returned + control)
    return result


def _scoped(text, scope):
    """A body input (`n`, `n:1`, `^n`) named inside `scope`."""
    if text.startswith("^"):
        return f"^{scope}/{text[1:]}"
    return f"{scope}/{text}"


def _free_scope(scope, names):
    """`scope`, or `scope_1`, ... when a node of the graph already has that name."""
    candidate, number = scope, 0
    while candidate in names:
        number += 1
        candidate = f"{scope}_{number}"
    return candidate
