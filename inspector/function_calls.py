"""Before a run: the functions the run would call exist, and none of them calls itself.

A function call (a PartitionedCall's `f`, a While's `body`, a node whose op names a function)
to a function the graph's library lacks, or a call cycle (`f` calling `f`, or `f -> g -> f`),
is bad input: found here from the nodes the run needs, by walking their inputs and then the
call graph, it is one line (exit 2) instead of a failed node or a run that never ends.
"""

from __future__ import annotations

from engine.framework.function_graph import called_functions
from parsers.errors import InputError


def needed_nodes(graph_def, names):
    """The nodes of `graph_def` that running `names` (nodes or `node:k` tensors) reaches
    through data and control inputs."""
    nodes = {node.name: node for node in graph_def.node}
    seen, stack = set(), [name.lstrip("^").split(":")[0] for name in names]
    while stack:
        name = stack.pop()
        if name in seen or name not in nodes:
            continue
        seen.add(name)
        stack.extend(inp.lstrip("^").split(":")[0] for inp in nodes[name].input)
    return [nodes[name] for name in nodes if name in seen]


def check_calls(path, graph_def, names):
    """InputError naming the first missing function or call cycle the run of `names` meets."""
    library = {function.signature.name: function for function in graph_def.library.function}
    roots = []
    for node in needed_nodes(graph_def, names):
        for called in called_functions(node, library):
            if called not in library:
                raise InputError(path, f"node {node.name!r} ({node.op}) calls function "
                                       f"{called!r}, which the graph's library does not define")
            roots.append(called)
    state = {}  # function name -> "open" while its calls are walked, "done" after
    for root in roots:
        _walk(path, library, root, state)


def _calls(path, library, name):
    """The functions `name`'s nodes call, each checked to exist."""
    found = []
    for node in library[name].node_def:
        for called in called_functions(node, library):
            if called not in library:
                raise InputError(path, f"function {name!r} node {node.name!r} ({node.op}) "
                                       f"calls function {called!r}, which the graph's library "
                                       f"does not define")
            found.append(called)
    return found


def _walk(path, library, root, state):
    """Depth first from `root` over the call graph, with a stack of its own (a library may
    chain thousands of functions): the stack holds the call path as (name, calls left)."""
    if state.get(root) == "done":
        return
    state[root] = "open"
    stack = [(root, iter(_calls(path, library, root)))]
    while stack:
        name, calls = stack[-1]
        called = next(calls, None)
        if called is None:
            state[name] = "done"
            stack.pop()
        elif state.get(called) == "open":
            chain = [entry[0] for entry in stack]
            cycle = chain[chain.index(called):] + [called]
            what = "calls itself" if len(cycle) == 2 else "is part of a call cycle"
            raise InputError(path, f"function {called!r} {what} ({' -> '.join(cycle)}): the "
                                   f"engine does not run recursive functions")
        elif state.get(called) != "done":
            state[called] = "open"
            stack.append((called, iter(_calls(path, library, called))))
