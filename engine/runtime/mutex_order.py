"""A step's critical sections one after another: the plan's order for each mutex.

TensorFlow runs the nodes of a step on a thread pool, so a second MutexLock of one mutex
simply waits until the first section's lock is consumed. The engine runs a step on one
thread, where that wait would never end. So the plan puts each mutex's sections in a row:
a control edge from each section's release (its ConsumeMutexLock, or the MutexLock itself
when nothing in the plan consumes the lock: its value dies where it is made) to the next
section's MutexLock, the sections taken in the order the plan would run their locks. That
is one of the orders TensorFlow's runs may take (it promises mutual exclusion, no order).

Only the top frame's sections are put in a row: a lock inside a loop is taken once per
iteration, in the loop's own order. Where the edges would make a cycle (a section waiting
for another's output while that one waits for its lock: TensorFlow would wait for ever),
the plan is left as it was and the MutexLock that finds its mutex held says so.
"""

from engine.framework import op_families

_IDENTITIES = frozenset({"Identity", "IdentityN"})


def order_sections(plan_nodes, schedule):
    """Adds the edges to `plan_nodes` (wired PlanNodes: sources, consumers, num_pending);
    `schedule(plan_nodes)` is the plan's run order. Returns whether any edge was added."""
    locks = [i for i, node in enumerate(plan_nodes) if node.op_type == "MutexLock"]
    if len(locks) < 2:
        return False
    position = {node.name: i for i, node in enumerate(plan_nodes)}
    in_loop = _positions_in_loops(plan_nodes)
    sections = {}
    for i in locks:
        if i in in_loop:
            continue
        mutex = _mutex_of(plan_nodes, position, plan_nodes[i])
        if mutex is not None:
            sections.setdefault(mutex, []).append((i, _release_of(plan_nodes, i)))
    chains = [group for group in sections.values() if len(group) > 1]
    if not chains:
        return False
    rank = {i: r for r, i in enumerate(schedule(plan_nodes))}
    edges = []
    for group in chains:
        group.sort(key=lambda section: rank[section[0]])
        edges += [(release, lock) for (_, release), (lock, _) in zip(group, group[1:])]
    for release, lock in edges:
        _add_control_edge(plan_nodes, release, lock)
    try:
        schedule(plan_nodes)
    except ValueError:  # a cycle: take the edges back out
        for release, lock in edges:
            _remove_control_edge(plan_nodes, release, lock)
        return False
    return True


def _mutex_of(plan_nodes, position, lock):
    """The mutex a MutexLock locks: (container, shared_name) of the MutexV2 its handle comes
    from (through Identities), the key its kernel finds the mutex by; None when the handle
    is fed or comes from elsewhere."""
    if not lock.sources:
        return None
    node = plan_nodes[position[lock.sources[0]]]
    while node.op_type in _IDENTITIES and node.sources:
        node = plan_nodes[position[node.sources[0]]]
    if node.op_type != "MutexV2" or node.node_def is None:
        return None
    attrs = node.node_def.attr
    return attrs["container"].s, attrs["shared_name"].s


def _release_of(plan_nodes, lock_position):
    """Where the section of the lock at `lock_position` ends: its ConsumeMutexLock in the
    plan, else the lock itself."""
    for consumer in plan_nodes[lock_position].consumers:
        if plan_nodes[consumer].op_type == "ConsumeMutexLock":
            return consumer
    return lock_position


def _add_control_edge(plan_nodes, source, destination):
    plan_nodes[destination].sources.append(plan_nodes[source].name)
    plan_nodes[source].consumers.append(destination)
    plan_nodes[destination].num_pending += 1


def _remove_control_edge(plan_nodes, source, destination):
    plan_nodes[destination].sources.remove(plan_nodes[source].name)
    plan_nodes[source].consumers.remove(destination)
    plan_nodes[destination].num_pending -= 1


def _positions_in_loops(plan_nodes):
    """Positions of the nodes inside a loop's frame: reached from an Enter with more Enters
    than Exits on the way (a loop's back edge, NextIteration, is not followed)."""
    inside, stack = set(), []
    for i, node in enumerate(plan_nodes):
        if node.op_type in op_families.ENTER:
            stack.append((i, 1))
    seen = set()
    while stack:
        i, depth = stack.pop()
        if (i, depth) in seen:
            continue
        seen.add((i, depth))
        node = plan_nodes[i]
        if depth > 0:
            inside.add(i)
        if node.op_type in op_families.NEXT_ITERATION:
            continue
        for consumer in node.consumers:
            kind = plan_nodes[consumer].op_type
            step = 1 if kind in op_families.ENTER else -1 if kind in op_families.EXIT else 0
            if depth + step > 0:
                stack.append((consumer, depth + step))
    return inside
