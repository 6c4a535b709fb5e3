"""Per-node cost from a RunMetadata's step stats: op time and output bytes, summed over devices."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NodeCost:
    """time_us: the op's own time (op_start to op_end); bytes: its outputs' allocations."""

    time_us: float = 0.0
    bytes: int = 0

    def __add__(self, other):
        return NodeCost(self.time_us + other.time_us, self.bytes + other.bytes)


def op_time_us(node_stats):
    """A NodeExecStats' op time in microseconds, from the nanosecond fields where present.

    >>> from engine.proto import step_stats_pb2
    >>> op_time_us(step_stats_pb2.NodeExecStats(op_start_rel_nanos=1882, op_end_rel_nanos=8032))
    6.15
    >>> op_time_us(step_stats_pb2.NodeExecStats(op_start_rel_micros=2, op_end_rel_micros=8))
    6.0
    """
    if node_stats.op_end_rel_nanos or node_stats.op_start_rel_nanos:
        return (node_stats.op_end_rel_nanos - node_stats.op_start_rel_nanos) / 1000
    return float(node_stats.op_end_rel_micros - node_stats.op_start_rel_micros)


def output_bytes(node_stats):
    """Bytes a NodeExecStats' outputs took: allocated where the allocator says, else requested.

    >>> from engine.proto import step_stats_pb2
    >>> stats = step_stats_pb2.NodeExecStats(output=[{"tensor_description": {
    ...     "allocation_description": {"requested_bytes": 8}}}])
    >>> output_bytes(stats)
    8
    """
    total = 0
    for output in node_stats.output:
        allocation = output.tensor_description.allocation_description
        total += allocation.allocated_bytes or allocation.requested_bytes
    return total


def node_costs(run_metadata):
    """Node name -> NodeCost, over every device's stats (a node run twice counts twice)."""
    costs = {}
    for device_stats in run_metadata.step_stats.dev_stats:
        for node_stats in device_stats.node_stats:
            cost = NodeCost(op_time_us(node_stats), output_bytes(node_stats))
            # Some TensorFlow versions write "name:Op"; node names never hold a colon.
            name = node_stats.node_name.partition(":")[0]
            costs[name] = costs.get(name, NodeCost()) + cost
    return costs
