"""Give a graph dump's n<id> nodes the real names the executor trace printed for the same ids.

>>> from parsers.vlog.model import DumpNode, Execution, ExecutedNode, GraphDump
>>> dump = GraphDump("", 1, nodes=[DumpNode("n2", "Const", (), (), "", ())])
>>> run = Execution(1, "/device:CPU:0", 5, [ExecutedNode(2, "c", "Const", (), None, 0, False, 5)])
>>> name_dumps([dump], [run]); dump.real_names, dump.names_from, dump.retval_names
({'n2': 'c'}, (1, '/device:CPU:0'), {})
"""

from __future__ import annotations

import bisect

from parsers.vlog.model import Execution, GraphDump

# How far from a dump (in executions, each way) to look for the trace that names its nodes.
MATCH_WINDOW = 16


def name_dumps(graphs: list[GraphDump], executions: list[Execution]) -> None:
    """Give n<id> dumps their real names from the nearest execution that ran the same graph.

    A dump matches an execution when every n<id> it prints ran there with the same op (args
    as _Arg, rets as _Retval); the first such execution after the dump wins, else the last
    one before it. Dumps of graphs no executor ran (before pruning, say) keep their n<id> names.
    """
    if not executions:
        return
    starts = [execution.first_line for execution in executions]
    # Equal mappings are shared, so repeated dumps share their nodes' JSON too.
    interned: dict[tuple, dict[str, str]] = {}
    # Dumps repeat (every pass prints the graph again) with the very same DumpNode objects:
    # each distinct dump is matched once per starting execution.
    signatures: dict[tuple, frozenset] = {}
    matched: dict[tuple, tuple | None] = {}
    ran: dict[int, frozenset] = {}  # execution index -> {(id, op)} it ran
    for graph in graphs:
        if graph.kind != "graph" or graph.real_names:
            continue
        signature = (tuple(map(id, graph.nodes)), tuple(graph.args), tuple(graph.rets))
        needed = signatures.get(signature)
        if needed is None:
            needed = signatures[signature] = frozenset(graph.node_ids().items())
        if not needed:
            continue
        at = bisect.bisect_left(starts, graph.first_line)
        found = matched.get((signature, at), False)
        if found is False:
            found = matched[(signature, at)] = _match(needed, at, executions, ran, interned)
        if found is not None:
            graph.real_names, graph.names_from, graph.retval_names = found


def _match(needed, at, executions, ran, interned):
    """(real names, (step, device), {returned node: its _Retval's name}) from the execution
    nearest `at` that ran `needed`, or None."""
    candidates = list(range(at, min(len(executions), at + MATCH_WINDOW)))
    candidates += list(range(at - 1, max(-1, at - 1 - MATCH_WINDOW), -1))
    for index in candidates:
        pairs = ran.get(index)
        if pairs is None:
            known = executions[index].id_names()
            pairs = ran[index] = frozenset((i, op) for i, (_, op) in known.items())
        if needed <= pairs:
            execution = executions[index]
            known = execution.id_names()
            mapping = tuple(sorted((f"n{node_id}", known[node_id][0]) for node_id, _ in needed))
            retvals = {node.inputs[0]: node.name for node in execution.nodes
                       if node.op == "_Retval" and len(node.inputs) == 1}
            names = interned.setdefault(mapping, dict(mapping))
            return names, (execution.step, execution.device), retvals
    return None
