"""What every Chrome trace we write must satisfy, checked event by event (shared by tests)."""

from __future__ import annotations

from collections import defaultdict

PHASES = {"M", "X", "s", "f", "C"}


def check_chrome_trace(trace: dict) -> dict:
    """Asserts the trace is well formed; returns its events grouped by phase.

    Metadata names every pid (process_name) and every (pid, tid) an X event uses
    (thread_name); X events have numeric ts >= 0 and dur > 0 and never overlap within one
    (pid, tid); flow ids appear once as "s" and once as "f" (bound to the enclosing slice),
    each end inside an X event of its lane and no earlier than its start; counters carry
    numeric args.
    """
    assert set(trace) >= {"traceEvents"}
    events = trace["traceEvents"]
    by_phase = defaultdict(list)
    for event in events:
        assert event["ph"] in PHASES, event
        assert isinstance(event["pid"], int) and isinstance(event["name"], str), event
        by_phase[event["ph"]].append(event)
    processes = {e["pid"] for e in by_phase["M"] if e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]) for e in by_phase["M"] if e["name"] == "thread_name"}
    lanes = defaultdict(list)
    for event in by_phase["X"]:
        assert isinstance(event["ts"], (int, float)) and event["ts"] >= 0, event
        assert isinstance(event["dur"], (int, float)) and event["dur"] > 0, event
        assert event["pid"] in processes and (event["pid"], event["tid"]) in threads, event
        lanes[(event["pid"], event["tid"])].append((event["ts"], event["ts"] + event["dur"]))
    for lane, spans in lanes.items():
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert end <= start + 1e-9, f"overlap in lane {lane}: {spans}"
    starts = {e["id"]: e for e in by_phase["s"]}
    ends = {e["id"]: e for e in by_phase["f"]}
    assert len(starts) == len(by_phase["s"]) and len(ends) == len(by_phase["f"])
    assert set(starts) == set(ends), "every flow start has its end and the other way round"
    for flow in (*starts.values(), *ends.values()):
        assert any(a <= flow["ts"] <= b for a, b in lanes[(flow["pid"], flow["tid"])]), flow
    for end in ends.values():
        assert end.get("bp") == "e"
        # Perfetto drops an arrow that ends before it starts.
        assert end["ts"] >= starts[end["id"]]["ts"], (starts[end["id"]], end)
    for counter in by_phase["C"]:
        assert counter["pid"] in processes
        assert all(isinstance(v, (int, float)) for v in counter["args"].values())
    return by_phase
