"""Kahn's topological order, one copy for the engine's layers that order graphs (the graph
optimizer's view, the frame compiler). It takes positions and edge lists as the callers build
them while reading their graphs, so that the optimizer, ordering graphs of 100k nodes, pays
for no second pass over the edges.

>>> kahn_order(users=[[], [], [0]], pending=[1, 0, 0])
[1, 2, 0]
>>> kahn_order(users=[[1], [0], []], pending=[1, 1, 0])
[2]
"""

from collections import deque


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
