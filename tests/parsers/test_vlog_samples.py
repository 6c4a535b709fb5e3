"""The VLOG parser against the real TensorFlow logs in sample_logs/.

Expectations come from the log text itself, by simple code of the test's own (a character
scanner for attrs, plain regexes for lines), never from the parser.
"""

import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from parsers.vlog import read_vlog
from parsers.vlog.attr_text import format_attr_value, parse_attr_value

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_logs").glob("*.log"))
NAMES = [path.stem for path in SAMPLES]

ABSL_TIME = re.compile(r"^[IWEF]0000 00:00:(\d+)\.(\d{6}) +(\d+) ")
PROCESS = re.compile(
    r"Process node: (\d+) step (-?\d+) (?:\{\{node (.*?)\}\}|(\S+)) = ([^\[(]+).*? device: (\S+)$"
)


def test_every_program_has_a_log():
    assert {"counter", "counter_tf1x", "mlp_train", "while_v1", "while_v2", "two_cpus"} <= set(NAMES)
    for path in SAMPLES:
        assert path.stat().st_size < 450_000


@pytest.fixture(scope="module", params=NAMES)
def sample(request):
    path = ROOT / "sample_logs" / f"{request.param}.log"
    text = path.read_text(encoding="utf-8")
    return request.param, text.splitlines(), read_vlog(path)


def split_attrs(text):
    """key=value pairs at depth 0, by walking characters (quotes, escapes, brackets)."""
    pairs, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{(<":
            depth += 1
        elif ch in "]})>":
            depth -= 1
        elif ch == "," and depth == 0:
            pairs.append(text[start:i].strip())
            start = i + 1
        i += 1
    if text[start:].strip():
        pairs.append(text[start:].strip())
    return [tuple(pair.split("=", 1)) for pair in pairs]


def dumped_node_lines(lines):
    """Every `||   ` node line's text (not `return`), in log order."""
    out = []
    for line in lines:
        _, sep, body = line.partition("] || ")
        if sep and body.startswith("  ") and not body.startswith("  return "):
            out.append(body[2:])
    return out


def expected_node(text):
    """(name, op, inputs, control inputs, device, attrs) of a node line, by hand."""
    name, _, rest = text.partition(" = ")
    control = []
    if " @ " in rest:
        rest, _, ctrl = rest.rpartition(" @ ")
        control = ctrl.split(", ")
    cut = min(i for i in (rest.find("["), rest.find("(")) if i >= 0)
    op = rest[:cut]
    attrs = []
    if rest[cut] == "[":
        closing = rest.rindex("](")
        attrs = split_attrs(rest[cut + 1:closing])
        rest = rest[closing + 1:]
    else:
        rest = rest[cut:]
    inputs = [i for i in rest[1:-1].split(", ") if i]
    device = ""
    if attrs and attrs[-1][0] == "device":
        device = attrs.pop()[1]
    return name, op, inputs, control, device, dict(attrs)


def test_dump_count_is_the_brace_opening_blocks(sample):
    _, lines, log = sample
    opening = sum(1 for line in lines if "|| " in line and line.split("|| ", 1)[1].rstrip().endswith("{"))
    assert opening > 0
    assert len(log.graphs) == opening
    assert all(graph.complete for graph in log.graphs)
    assert [g.first_line for g in log.graphs] == sorted(g.first_line for g in log.graphs)


def test_every_node_line_is_a_node(sample):
    _, lines, log = sample
    expected = [expected_node(text) for text in dumped_node_lines(lines)]
    got = [
        (n.name, n.op, list(n.inputs), list(n.control_inputs), n.device, dict(n.attrs))
        for graph in log.graphs
        for n in graph.nodes
    ]
    assert got == expected


def test_function_prints_keep_their_returns(sample):
    name, lines, log = sample
    returns = [line.split("||   return ", 1)[1] for line in lines if "||   return " in line]
    got = [f"{out} = {tensor}" for g in log.graphs for out, tensor in g.returns]
    assert got == returns
    if name == "while_v2":
        functions = [g for g in log.graphs if g.kind == "function"]
        assert {g.function_name for g in functions} == {"while_body_4", "while_cond_3"}
        assert all(g.label == f"Instantiate function definition: name={g.function_name}" for g in functions)


def process_lines(lines):
    """(line number, step, device, id, name, op, dead) of every Process node line."""
    out = []
    for number, line in enumerate(lines, 1):
        match = PROCESS.search(line)
        if match:
            node_id, step, name_new, name_old, op, device = match.groups()
            out.append((number, int(step), device, int(node_id), name_new or name_old, op, " is dead device: " in line))
    return out


def test_every_step_ran_its_process_lines(sample):
    _, lines, log = sample
    expected = defaultdict(Counter)
    for _, step, device, node_id, name, op, dead in process_lines(lines):
        expected[step][(device, node_id, name, op, dead)] += 1
    got = defaultdict(Counter)
    for execution in log.executions:
        for node in execution.nodes:
            got[execution.step][(execution.device, node.id, node.name, node.op, node.dead)] += 1
    assert expected and got == expected
    assert log.steps() == list(dict.fromkeys(step for _, step, *_ in process_lines(lines)))


def test_executions_keep_log_order_threads_and_times(sample):
    name, lines, log = sample
    by_line = {number: (step, node_id) for number, step, _, node_id, *_ in process_lines(lines)}
    for execution in log.executions:
        for node in execution.nodes:
            assert by_line[node.line] == (execution.step, node.id)
            match = ABSL_TIME.match(lines[node.line - 1])
            if name == "counter_tf1x":
                assert node.thread is None
            else:
                assert node.start_us == int(match.group(1)) * 1_000_000 + int(match.group(2))
                assert node.thread == int(match.group(3))
        assert [n.line for n in execution.nodes] == sorted(n.line for n in execution.nodes)


def dumps_by_hand(lines):
    """[(first line, {id: op})] of graph dumps whose nodes are all n<id>."""
    out = []
    current = None
    for number, line in enumerate(lines, 1):
        if "|| " not in line:
            continue
        body = line.split("|| ", 1)[1]
        if body.rstrip().endswith("{") and body.startswith("("):
            current = {}
            args, _, rets = body.partition(" -> ")
            for part, op in ((args, "_Arg"), (rets, "_Retval")):
                for item in re.findall(r"n(\d+):", part):
                    current[int(item)] = op
            out.append((number, current))
        elif body.startswith("  ") and current is not None:
            match = re.match(r"  n(\d+) = ([^\[(]+)", body)
            if match:
                current[int(match.group(1))] = match.group(2)
            else:
                current.clear()
                current = None
                out[-1] = (out[-1][0], {})
        elif body.strip() == "}":
            current = None
    return out


def test_dumped_ids_get_the_names_the_trace_gives_them(sample):
    name, lines, log = sample
    runs = defaultdict(dict)  # (step, device, start line of its _SOURCE) -> {id: (name, op)}
    starts = []
    current = {}
    for number, step, device, node_id, node_name, op, _ in process_lines(lines):
        if node_id == 0 and node_name == "_SOURCE" or (step, device) not in current:
            current[(step, device)] = (step, device, number)
            starts.append((number, current[(step, device)]))
        runs[current[(step, device)]].setdefault(node_id, (node_name, op))
    graphs = {g.first_line: g for g in log.graphs}
    named = 0
    for first_line, ids in dumps_by_hand(lines):
        graph = graphs[first_line]
        following = [run for start, run in starts if start > first_line][:1]
        fits = [
            run for run in following
            if ids and all(runs[run].get(i, (None, None))[1] == op for i, op in ids.items())
        ]
        if fits:
            real = {f"n{i}": runs[fits[0]][i][0] for i in ids}
            assert graph.real_names == real, first_line
            assert graph.names_from == fits[0][:2]
            named += 1
        # Names found further away still come from one run of that step and device, id for id.
        if graph.real_names:
            assert any(
                all(runs[run].get(int(d[1:]), (None,))[0] == r for d, r in graph.real_names.items())
                for run in runs
                if run[:2] == graph.names_from
            )
    assert named >= {"counter": 16, "counter_tf1x": 16, "two_cpus": 7, "while_v1": 5}.get(name, 1)


def test_renamed_json_uses_real_names(sample):
    _, _, log = sample
    for graph in log.graphs:
        doc = graph.to_json()
        for node, raw in zip(doc["nodes"], graph.nodes):
            assert node["name"] == graph.real_names.get(raw.name, raw.name)
            for given, dumped in zip(node["inputs"], raw.inputs):
                base, colon, index = dumped.partition(":")
                assert given == graph.real_names.get(base, base) + colon + index


def test_attrs_read_back_as_printed(sample):
    _, _, log = sample
    checked = 0
    for graph in log.graphs:
        for node in graph.nodes:
            for key, text in node.attrs:
                if text.startswith("Tensor<"):
                    continue
                value = parse_attr_value(text, key=key)
                assert format_attr_value(value) == text.replace("{", "[").replace("}", "]"), (key, text)
                checked += 1
    assert checked > 20


def test_graph_defs_and_step_stats_build(sample):
    name, lines, log = sample
    for graph in log.graphs:
        graph_def = graph.graph_def()
        names = [n.name for n in graph_def.node]
        assert len(names) == len(graph.nodes) + len(graph.args) + len(graph.rets)
        for node, dumped in zip(graph_def.node[len(graph.args):], graph.nodes):
            assert node.op == dumped.op
            assert set(node.attr) == {k for k, _ in dumped.attrs}
            assert sum(1 for i in node.input if i.startswith("^")) == len(dumped.control_inputs)
    for step in log.steps():
        stats = log.step_stats(step)
        devices = [d.device for d in stats.dev_stats]
        assert len(devices) == len(set(devices))
        expected = Counter(d for _, s, d, *_ in process_lines(lines) if s == step)
        assert {d.device: len(d.node_stats) for d in stats.dev_stats} == dict(expected)
        for dev in stats.dev_stats:
            for ns in dev.node_stats:
                assert ns.timeline_label.startswith(f"{ns.node_name} = ")
                if name != "counter_tf1x":
                    assert ns.all_start_micros > 1_700_000_000_000_000
    if name == "two_cpus":
        assert len(log.step_stats(1).dev_stats) == 2
        metadata = log.run_metadata(1)
        assert len(metadata.partition_graphs) >= 2


def test_events_are_kept_with_their_lines(sample):
    _, lines, log = sample
    kinds = Counter(event.kind for event in log.events)
    assert kinds["memory"] == sum("] __LOG_MEMORY__ " in line for line in lines)
    assert kinds["pass"] == sum("Running optimization pass: " in line for line in lines)
    assert kinds["placement"] == sum(") placed on: " in line for line in lines)
    assert kinds["grappler"] == sum("Graph size after: " in line for line in lines)
    for event in log.events[:200]:
        assert event.text and event.text in lines[event.line - 1]
        assert event.fields
    placements = [e.fields for e in log.events if e.kind == "placement"]
    assert all(p["device"].startswith("/job:localhost") for p in placements)


def test_counting_events_keeps_none_and_counts_the_same(sample):
    name, _, log = sample
    counted = read_vlog(ROOT / "sample_logs" / f"{name}.log", events=False)
    assert counted.event_rows == [] and counted.events == []
    assert counted.event_counts == log.event_counts == dict(Counter(e.kind for e in log.events))
    assert counted.to_json() == log.to_json()


def test_tf1x_log_reads_as_the_2x_log_it_came_from():
    two = read_vlog(ROOT / "sample_logs" / "counter.log")
    one = read_vlog(ROOT / "sample_logs" / "counter_tf1x.log")
    assert [g.to_json() for g in one.graphs] == [g.to_json() for g in two.graphs]
    strip = lambda log: [  # noqa: E731
        (e.step, e.device, [(n.id, n.name, n.op, n.inputs, n.dead) for n in e.nodes]) for e in log.executions
    ]
    assert strip(one) == strip(two)
    assert (one.lines, one.unparsed_lines) == (two.lines, two.unparsed_lines)
    assert [(e.kind, e.line) for e in one.events] == [(e.kind, e.line) for e in two.events]
