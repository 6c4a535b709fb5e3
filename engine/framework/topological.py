"""Kahn's topological order, one copy for the engine's layers that order graphs (the graph
optimizer's view, the frame compiler). It takes positions and edge lists as the callers build
them while reading their graphs, so that the optimizer, ordering graphs of 100k nodes, pays
for no second pass over the edges.

`check_no_cycle` is TensorFlow's ValidateGraphHasNoCycle over a GraphDef: a loop's
NextIteration -> Merge edge is the one cycle a graph may hold.

>>> kahn_order(users=[[], [], [0]], pending=[1, 0, 0])
[1, 2, 0]
>>> kahn_order(users=[[1], [0], []], pending=[1, 1, 0])
[2]
"""

from collections import deque

from engine.framework import errors, op_families


def kahn_order(users, pending):
    """The positions 0..len(users)-1 ordered so that each comes after those it waits for,
    ties kept in position order. users[i]: the positions waiting for i (one listed twice
    waits twice); pending[i]: how many waits position i has (the list is used up). Positions
    on a cycle, and those after them, are left out: the caller says what a cycle means."""
    ready = deque(i for i, count in enumerate(pending) if count == 0)
    order = []
    while ready:
        i = ready.popleft()
        order.append(i)
        for user in users[i]:
            pending[user] -= 1
            if pending[user] == 0:
                ready.append(user)
    return order


def _producer(text):
    """The node an input names ("^x", "x:1", "x"; only ASCII digits make an index)."""
    if ":" not in text:
        return text[1:] if text[:1] == "^" else text
    if text[0] == "^":
        return text[1:]
    name, sep, index = text.rpartition(":")
    return name if sep and index.isascii() and index.isdigit() else text


def graph_def_edges(graph_def):
    """(name, op, input node names, whether each is a data input) of each node of a
    GraphDef, as nodes_in_cycles takes them."""
    for node in graph_def.node:
        inputs = list(node.input)
        yield (node.name, node.op, [_producer(text) for text in inputs],
               [text[:1] != "^" for text in inputs])


def nodes_in_cycles(nodes):
    """Names, in graph order, of the nodes no topological order reaches: those on a cycle
    of non-loop edges and those downstream of one ([] for a graph without). `nodes`: (name,
    op, input node names, whether each is a data input) per node, in graph order; a data
    edge NextIteration -> Merge (a while loop's back edge) is not followed.

    >>> nodes_in_cycles([("c", "Const", [], []), ("a", "AddV2", ["c", "b"], [True, True]),
    ...                  ("b", "AddV2", ["a", "c"], [True, True]), ("d", "Neg", ["b"], [False])])
    ['a', 'b', 'd']
    """
    nodes = list(nodes)
    position = {node[0]: i for i, node in enumerate(nodes)}.get
    next_iterations = {position(node[0]) for node in nodes
                       if node[1] in op_families.NEXT_ITERATION}
    users = [[] for _ in nodes]
    pending = [0] * len(nodes)
    for i, (_, op, producers, is_data) in enumerate(nodes):
        is_merge = op in op_families.MERGE
        count = 0
        for k, producer in enumerate(producers):
            j = position(producer)
            if j is None or (is_merge and j in next_iterations and is_data[k]):
                continue
            users[j].append(i)
            count += 1
        pending[i] = count
    order = kahn_order(users, pending)
    if len(order) == len(nodes):
        return []
    reached = set(order)
    return [nodes[i][0] for i in range(len(nodes)) if i not in reached]


def check_no_cycle(nodes):
    """InvalidArgumentError with TensorFlow's words (ValidateGraphHasNoCycle, as a session
    run raises it) when the nodes (a GraphDef, or nodes_in_cycles' tuples) form a cycle
    other than a loop's: how many nodes no order reaches, and the first three of them."""
    if hasattr(nodes, "node"):
        nodes = graph_def_edges(nodes)
    stuck = nodes_in_cycles(nodes)
    if stuck:
        raise errors.InvalidArgumentError(
            None, None, f"Graph is invalid, contains a cycle with {len(stuck)} nodes, "
                        f"including: {', '.join(stuck[:3])}")
