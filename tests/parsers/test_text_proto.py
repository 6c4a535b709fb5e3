"""parsers.text_proto against protobuf's own text_format: every fixture, fuzzed texts, big inputs.

The fast reader must give text_format.Parse's message wherever text_format reads the text, and
text_format's own error wherever it does not (it hands such texts to text_format).
"""

import resource
import time

import pytest
from google.protobuf import text_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsers
from tests.scaling import assert_scales_linearly
from engine.proto import graph_pb2
from parsers import protobuf_files, text_proto
from parsers_testing import FIXTURES

TEXTS = sorted(FIXTURES.glob("**/*.pbtxt"))


def _messages_of(text):
    kinds = protobuf_files.text_kinds(text)
    return [protobuf_files.MESSAGES[kind] for kind in kinds] or [graph_pb2.GraphDef]


def _both(text, message_class):
    """(text_format's (message bytes, error), ours, whether the fast path took the text)."""
    results = []
    for parse in (_text_format, text_proto.parse):
        try:
            message = parse(text, message_class)
            results.append((message.SerializeToString(deterministic=True), None))
        except text_format.ParseError as error:
            results.append((None, str(error)))
    return results[0], results[1], text_proto.parse_fast(text, message_class) is not None


def _text_format(text, message_class):
    message = message_class()
    text_format.Parse(text, message, allow_unknown_extension=False)
    return message


@pytest.mark.parametrize("path", TEXTS, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_every_fixture_reads_as_text_format_reads_it(path):
    text = path.read_text(encoding="utf-8")
    for message_class in _messages_of(text):
        theirs, ours, fast = _both(text, message_class)
        assert ours == theirs
        assert fast  # TensorFlow-written text: all of it on the fast path


# Pieces a fuzzed text is made of: fixture lines, and what text_format has rules for.
_PIECES = [
    "node {", "}", "<", ">", "name: \"x\"", "name: 'y' \"z\"", "op: \"Const\"", "input: \"a:1\"",
    "attr {", "key: \"T\"", "value {", "type: DT_FLOAT", "type: 1", "type: 99", "type: DT_NOPE",
    "i: 0x10", "i: -012", "i: 99999999999999999999", "f: 1e39", "f: -inf", "f: nanf", "f: 1.5f",
    "b: t", "b: True", "b: 2", "s: \"\\x41\\101\\n\"", "s: \"\\xff\"", "list { i: [1, 2] }",
    "shape { dim { size: -1 } unknown_rank: true }", "versions { producer: 27 }", ",", ";", ":",
    "# comment \"with quote", "[ext]", "name: \"unterminated", "library { function { } }",
    "experimental_debug_info { original_node_names: \"n\" }", "func { name: \"f\" }", "\n", " ",
]


@st.composite
def fuzzed_texts(draw):
    base = draw(st.sampled_from(TEXTS)).read_text(encoding="utf-8").splitlines()
    start = draw(st.integers(0, max(0, len(base) - 1)))
    lines = base[start:start + draw(st.integers(0, 60))]
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(lines)))
        choice = draw(st.integers(0, 2))
        if choice == 0:
            lines.insert(at, draw(st.sampled_from(_PIECES)))
        elif choice == 1 and lines:
            lines[min(at, len(lines) - 1)] = ""
        elif lines:
            line = lines[min(at, len(lines) - 1)]
            cut = draw(st.integers(0, len(line)))
            piece = draw(st.sampled_from(_PIECES))
            lines[min(at, len(lines) - 1)] = line[:cut] + piece + line[cut:]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=fuzzed_texts(), message_class=st.sampled_from(list(protobuf_files.MESSAGES.values())))
def test_fuzzed_text_reads_as_text_format_reads_it(text, message_class):
    theirs, ours, _ = _both(text, message_class)
    assert ours == theirs


@st.composite
def repeated_texts(draw):
    """A fixture's nodes three times over, pieces put into the later copies: the caches of
    attr blocks, runs of attr blocks and plain strings are warm when the changes come."""
    text = draw(st.sampled_from(TEXTS)).read_text(encoding="utf-8")
    copies = [text] * 3
    for _ in range(draw(st.integers(1, 4))):
        copy = draw(st.integers(1, 2))
        lines = copies[copy].splitlines()
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        line = lines[at] if lines else ""
        cut = draw(st.integers(0, len(line)))
        lines[at:at + 1] = [line[:cut] + draw(st.sampled_from(_PIECES)) + line[cut:]]
        copies[copy] = "\n".join(lines)
    return "\n".join(copies)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=repeated_texts())
def test_changes_among_repeated_nodes_read_as_text_format_reads_them(text):
    for message_class in _messages_of(text):
        theirs, ours, _ = _both(text, message_class)
        assert ours == theirs


_ATTRS = ('attr { key: "T" value { type: DT_FLOAT } } '
          'attr { key: "shape" value { shape { dim { size: 2 } } } }')
_WARM = f'node {{ name: "w" op: "Mul" input: "a" input: "b" {_ATTRS} }}\n' * 3


@pytest.mark.parametrize("tail", [
    'node { name: "a" name: "b" }',
    'node { name: "a" op: "b" name: "c" }',
    'node { name: "a", op: "b"; input: "c", }',
    'node { name: "a" "b" op: "c" }',
    "node { name: 'a' op: \"b\" }",
    'node { name: "a" # a comment\n op: "b" }',
    'node { name: "a\\x41" op: "b" }',
    'node { name : "a" op:"b" input :"c" device: "d" device: "e" }',
    'node { op: "b" experimental_type { } name: "a" }',
    'node { name: "a" attr { key: "T" } attr { key: "T" } }',
    f'node {{ name: "a" {_ATTRS} name: "b" }}',
    f'node {{ name: "a" {_ATTRS}, op: "b" }}',
    f'node {{ name: "a" {_ATTRS};; }}',
    'node { name: "a" ' + _ATTRS.replace("} attr", "} # c\n attr") + " }",
    'node { name: "a" ' + _ATTRS.replace("} attr", "}, attr") + " }",
    f'node {{ name: "a" {_ATTRS} attr < key: "x" > }}',
    f'node {{ name: "a" {_ATTRS} attribute {{ }} }}',
    f'node {{ name: "a" {_ATTRS.replace("DT_FLOAT", "DT_NOPE")} }}',
    f'node {{ name: "a" {_ATTRS.replace("attr {", "attr: {")} }}',
    f'node {{ name: "a" {_ATTRS} {_ATTRS} {_ATTRS} }}',
    f'node {{ {_ATTRS} }}',
    'node { name: "a" op: "b" } versions { producer: 1 } versions { producer: 2 }',
    'node { }',
])
def test_warm_caches_read_as_text_format_reads(tail):
    """After nodes whose attrs, runs of attrs and plain strings are cached: texts that each
    path must take as it stands, leave to the statement loop, or to text_format."""
    for text in (_WARM + tail, _WARM + tail + "\n" + tail):
        theirs, ours, _ = _both(text, graph_pb2.GraphDef)
        assert ours == theirs


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
       st.sampled_from(["name", "op", "device"]))
def test_any_string_value_reads_as_text_format_reads_it(value, field):
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    for text in (f"node {{ {field}: {quoted} }}", f"node {{ {field}: '{value}' }}",
                 f"node {{ {field}: {quoted} {quoted} }}"):
        theirs, ours, _ = _both(text, graph_pb2.GraphDef)
        assert ours == theirs


def _peak_rss_growth(function):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    result = function()
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
    return result, time.perf_counter() - start, grown


def test_a_10_mb_string_costs_little_per_byte(tmp_path):
    size = 10 * 1024 * 1024
    path = tmp_path / "big_string.pbtxt"
    path.write_text('node { name: "' + "a" * size + '" op: "NoOp" }\n', encoding="utf-8")
    loaded, _, grown = _peak_rss_growth(lambda: parsers.load(path))
    assert len(loaded.graphs[0].graph_def.node[0].name) == size
    assert grown < 12 * size  # was 120 bytes per byte

    def load_string_of(megabytes):
        path.write_text('node { name: "' + "a" * (megabytes * 1024 * 1024) + '" op: "NoOp" }\n',
                        encoding="utf-8")
        parsers.load(path)
    assert_scales_linearly(load_string_of, 1)


def test_a_long_leading_comment_does_not_hide_the_graph(tmp_path):
    path = tmp_path / "commented.pbtxt"

    def load_after_comment_of(kilobytes):
        comment = "#" + "x" * (kilobytes * 1024)
        path.write_text(comment + '\nnode { name: "a" op: "NoOp" }\n', encoding="utf-8")
        return parsers.load(path)
    loaded = load_after_comment_of(2048)
    assert [node.name for node in loaded.graphs[0].graph_def.node] == ["a"]
    assert_scales_linearly(load_after_comment_of, 200)  # was 2.6 s per MB, walked as binary


def test_big_text_reports_progress(tmp_path):
    graph = graph_pb2.GraphDef()
    for number in range(20_000):
        graph.node.add(name=f"n{number}", op="NoOp")
    path = tmp_path / "big.pbtxt"
    path.write_text(text_format.MessageToString(graph), encoding="utf-8")
    seen = []
    loaded = parsers.load(path, progress=lambda done, total: seen.append((done, total)))
    assert loaded.graphs[0].graph_def == graph
    assert len(seen) > 1 and seen == sorted(seen) and seen[-1][0] == seen[-1][1]
