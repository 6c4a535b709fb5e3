"""What a debugged run has done and what it can do next, from the plan's graph.

A PlanIndex learns each executed plan (one per device's partition) and follows the
observer's callbacks: which nodes are ready (scheduled, not started), which are running,
which wait on which inputs, and how many consumers still have to read each tensor (so the
debugger keeps only the values someone will read).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Frontier:
    """ready: node names in the order they became ready; waiting: (name, [missing inputs])."""

    ready: list
    running: list
    waiting: list
    done: int
    total: int


MERGE_OPS = ("Merge", "RefMerge")


class PlanIndex:
    def __init__(self):
        self.plans = []
        self.nodes = {}          # name -> PlanNode, every plan
        self._outputs = {}       # PlanNode -> tensor names
        self._inputs = {}        # PlanNode -> tensor names, one per data input
        self._uses = {}          # tensor -> consumers in the plan
        self._left = {}          # tensor -> consumers yet to start since its last production
        self._ready = {}         # name -> None (ordered set)
        self._running = {}
        self._finished = {}      # name -> times finished
        self.consumers = {}      # name -> names of the nodes reading it

    def add_plan(self, plan):
        if any(known is plan for known in self.plans):
            return
        self.plans.append(plan)
        feed_of_slot = {slot: name for name, slot in plan.feed_slots.items()}
        tensor_of_slot = {}
        for node in plan.nodes:
            if node.kind == "arg":
                names = [feed_of_slot.get(node.output_slots[0], f"{node.name}:0")]
            else:
                names = [f"{node.name}:{i}" for i in range(len(node.output_slots))]
            self._outputs[node] = names
            tensor_of_slot.update(zip(node.output_slots, names))
            self.nodes[node.name] = node
        for node in plan.nodes:
            self.consumers[node.name] = list(dict.fromkeys(plan.nodes[i].name
                                                           for i in node.consumers))
            inputs = [tensor_of_slot.get(slot, f"?{slot}") for slot in node.input_slots]
            self._inputs[node] = inputs
            for tensor in inputs:
                self._uses[tensor] = self._uses.get(tensor, 0) + 1

    def output_tensors(self, node):
        return self._outputs.get(node, ())

    def input_tensors(self, node):
        return self._inputs.get(node, ())

    # Callbacks --------------------------------------------------------------------------------

    # `label` tells apart one node's executions in a loop's frames and iterations.

    def scheduled(self, node, label=None):
        self._ready[label or node.name] = node.name

    def started(self, node, label=None):
        self._ready.pop(label or node.name, None)
        self._running[label or node.name] = node.name

    def finished(self, node, label=None):
        self._running.pop(label or node.name, None)
        self._finished[node.name] = self._finished.get(node.name, 0) + 1

    def produced(self, tensor):
        self._left[tensor] = self._uses.get(tensor, 0)

    def consumed(self, tensor):
        if self._left.get(tensor, 0) > 0:
            self._left[tensor] -= 1

    def knows(self, tensor):
        node = tensor.rpartition(":")[0]
        return node in self.nodes or tensor in self._uses

    def uses_left(self, tensor):
        return self._left.get(tensor, 0)

    # Queries ----------------------------------------------------------------------------------

    def status(self, name):
        """"running", "ready", "done", "waiting" (some inputs there) or "pending"."""
        if name in self._running.values():
            return "running"
        if name in self._ready.values():
            return "ready"
        if name in self._finished:
            return "done"
        node = self.nodes.get(name)
        if node is not None and not self._missing(node):
            return "ready"  # its inputs are all there; the executor queues it next
        if node is not None and any(s in self._finished for s in node.sources):
            return "waiting"
        return "pending"

    def _missing(self, node):
        """The inputs `node` still waits for: a Merge waits for none once any has arrived (the
        loop's Enter or its NextIteration, a cond's taken branch)."""
        missing = [s for s in dict.fromkeys(node.sources) if s not in self._finished]
        if node.op_type in MERGE_OPS and len(missing) < len(set(node.sources)):
            return []
        return missing

    def times_run(self, name):
        return self._finished.get(name, 0)

    def frontier(self):
        queued, ready, waiting = list(self._ready), [], []
        for name, node in self.nodes.items():
            if name in self._finished or name in self._ready.values() or \
                    name in self._running.values():
                continue
            missing = self._missing(node)
            if not missing:
                ready.append(name)  # about to be queued: the pause came before the executor did
            elif len(missing) < len(set(node.sources)):
                waiting.append((name, missing))
        ready.sort(key=lambda name: not self.nodes[name].inexpensive)  # run inline first
        return Frontier(queued + ready, list(self._running), waiting, len(self._finished),
                        len(self.nodes))
