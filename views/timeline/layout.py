"""Where each op goes on the timeline: runs one after another, ops in lanes that never overlap.

Times are integer nanoseconds until the very end, so the layout is exact and deterministic.

>>> assign_lanes([(0, 10), (5, 3), (10, 2), (6, 0)])
[0, 1, 0, 2]
>>> run_offsets([(100, 150), (120, 130), (0, 0)], gap=10)
[-100, -60, 80]
"""

from __future__ import annotations

# An op that took no measurable time still occupies one nanosecond of its lane, so that two
# such ops at the same instant never share a lane (a viewer would nest them).
MIN_DURATION_NS = 1


def occupied_end(start: int, duration: int) -> int:
    return start + max(duration, MIN_DURATION_NS)


def assign_lanes(intervals: list[tuple[int, int]]) -> list[int]:
    """A lane per (start, duration): the lowest lane free at its start (greedy, in start
    order, longer first on ties), so intervals in one lane never overlap."""
    order = sorted(range(len(intervals)),
                   key=lambda i: (intervals[i][0], -intervals[i][1], i))
    lane_ends: list[int] = []
    lanes = [0] * len(intervals)
    for i in order:
        start, duration = intervals[i]
        for lane, end in enumerate(lane_ends):
            if end <= start:
                break
        else:
            lane = len(lane_ends)
            lane_ends.append(0)
        lane_ends[lane] = occupied_end(start, duration)
        lanes[i] = lane
    return lanes


def run_offsets(spans: list[tuple[int, int]], gap: int) -> list[int]:
    """Per run span (first start, last end), the shift that lays runs one after another from
    0 with `gap` between them."""
    offsets, cursor = [], 0
    for start, end in spans:
        offsets.append(cursor - start)
        cursor += max(end - start, MIN_DURATION_NS) + gap
    return offsets
