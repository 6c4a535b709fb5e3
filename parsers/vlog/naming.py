"""Give a graph dump's n<id> nodes the real names the executor trace printed for the same ids.

>>> from parsers.vlog.model import DumpNode, Execution, ExecutedNode, GraphDump
>>> dump = GraphDump("", 1, nodes=[DumpNode("n2", "Const", (), (), "", ())])
>>> run = Execution(1, "/device:CPU:0", 5, [ExecutedNode(2, "c", "Const", (), None, 0, False, 5)])
>>> name_dumps([dump], [run]); dump.real_names, dump.names_from, dump.retval_names
({'n2': 'c'}, (1, '/device:CPU:0'), {})
"""

from __future__ import annotations

import bisect
from itertools import chain
from operator import itemgetter

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
    # each distinct dump gets a number, and is matched once per starting execution.
    numbers: dict[tuple, int] = {}
    wanted: list[tuple | None] = []  # number -> (its {(id, op)}, its (n<id>, id) in name order)
    matched: dict[tuple[int, int], tuple | None] = {}
    ran: dict[int, frozenset] = {}  # execution index -> {(id, op)} it ran
    for graph in graphs:
        if graph.kind != "graph" or graph.real_names:
            continue
        signature = (tuple(map(id, graph.nodes)), tuple(graph.args), tuple(graph.rets))
        number = numbers.get(signature)
        if number is None:
            number = numbers[signature] = len(wanted)
            needed = frozenset(graph.node_ids().items())
            wanted.append((needed, sorted((f"n{node_id}", node_id) for node_id, _ in needed))
                          if needed else None)
        if wanted[number] is None:
            continue
        key = (number, bisect.bisect_left(starts, graph.first_line))
        found = matched.get(key, False)
        if found is False:
            found = matched[key] = _match(wanted[number], key[1], executions, ran, interned)
        if found is not None:
            graph.real_names, graph.names_from, graph.retval_names = found


def _match(wanted, at, executions, ran, interned):
    """(real names, (step, device), {returned node: its _Retval's name}) from the execution
    nearest `at` that ran `wanted`, or None."""
    needed, labels = wanted
    # Mostly the very next execution ran it: tried before the window is laid out.
    if at < len(executions):
        pairs = ran.get(at)
        if pairs is None:
            pairs = ran[at] = _pairs(executions[at])
        if needed <= pairs:
            return _names(labels, executions[at], interned)
    after = range(at + 1, min(len(executions), at + MATCH_WINDOW))
    before = range(at - 1, max(-1, at - 1 - MATCH_WINDOW), -1)
    # One loop, few calls: a dump no executor ran (before pruning, say) tries all 32.
    for index in chain(after, before):
        pairs = ran.get(index)
        if pairs is None:
            pairs = ran[index] = _pairs(executions[index])
        if needed <= pairs:
            return _names(labels, executions[index], interned)
    return None


def _pairs(execution) -> frozenset:
    """{(id, op)} the execution ran."""
    known = execution.id_names()
    return frozenset(zip(known, map(itemgetter(1), known.values())))


def _names(labels, execution, interned):
    known = execution.id_names()
    mapping = tuple([(label, known[node_id][0]) for label, node_id in labels])
    retvals = {node.inputs[0]: node.name for node in execution.nodes
               if node.op == "_Retval" and len(node.inputs) == 1}
    names = interned.get(mapping)
    if names is None:
        names = interned[mapping] = dict(mapping)
    return names, (execution.step, execution.device), retvals
