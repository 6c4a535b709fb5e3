"""Single-message files, binary or text: which TensorFlow message they hold, decided by content.

Binary: parse as each candidate message and keep the one that parses cleanly, with no unknown
fields, and holds something plausible. Text: the first top-level field name says which message.
"""

from __future__ import annotations

import re

from google.protobuf import text_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError

from engine.proto import config_pb2, graph_pb2, meta_graph_pb2, saved_model_pb2
from parsers import text_proto, wire
from parsers.errors import InputError
from parsers.printable import excerpt, printable

# kind -> the message a file of that kind holds, in the order ties are broken.
MESSAGES = {
    "graphdef": graph_pb2.GraphDef,
    "metagraph": meta_graph_pb2.MetaGraphDef,
    "saved_model": saved_model_pb2.SavedModel,
    "run_metadata": config_pb2.RunMetadata,
}

EXPECTED = "a GraphDef, MetaGraphDef, SavedModel, RunMetadata or TensorBoard events file"


def _plausible(kind, message):
    """Whether a cleanly parsed message holds what a real file of that kind holds."""
    if kind == "graphdef":
        named = all(node.name and node.op for node in message.node)
        return named and bool(len(message.node) or len(message.library.function) or message.versions.producer)
    if kind == "metagraph":
        return message.HasField("graph_def") or message.HasField("meta_info_def")
    if kind == "saved_model":
        return len(message.meta_graphs) > 0
    return bool(
        len(message.step_stats.dev_stats)
        or len(message.partition_graphs)
        or len(message.cost_graph.node)
        or len(message.function_graphs)
    )


def _unchecked_map(entry):
    """Whether map entry type `entry` has string keys the protobuf runtime does not check as
    UTF-8: with a scalar value (found so for a map<string, fixed64>: GraphDebugInfo's
    name_to_trace_id; maps of strings or messages have their keys checked)."""
    key, value = entry.fields_by_name["key"], entry.fields_by_name["value"]
    return (key.type == FieldDescriptor.TYPE_STRING and value.type not in
            (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES, FieldDescriptor.TYPE_MESSAGE))


def _reaches_unchecked_map(descriptor):
    """Whether a message of `descriptor` is, or can hold at any depth, such a map (cached)."""
    if descriptor.full_name not in _REACHES:
        found = descriptor.GetOptions().map_entry and _unchecked_map(descriptor)
        seen, stack = {descriptor.full_name}, [descriptor]
        while stack and not found:  # every message type reachable from this one
            for field in stack.pop().fields:
                inner = field.message_type
                if inner is None or inner.full_name in seen:
                    continue
                found = found or inner.GetOptions().map_entry and _unchecked_map(inner)
                seen.add(inner.full_name)
                stack.append(inner)
        _REACHES[descriptor.full_name] = found
    return _REACHES[descriptor.full_name]


_REACHES = {}


def bad_map_key(message):
    """The first map key of `message` (at any depth) that is not UTF-8 text, or None.

    TensorFlow's parser refuses such a key, and the text writer fails on it; only the maps
    the runtime leaves unchecked are looked at (a graph's nodes never hold one), so the cost
    does not grow with the graph."""
    stack = [message]
    while stack:
        for field, value in stack.pop().ListFields():
            entry = field.message_type
            if entry is None or not _reaches_unchecked_map(entry):
                continue
            if entry.GetOptions().map_entry:
                for key in value:
                    if isinstance(key, bytes):
                        return key
            elif wire.is_repeated(field):
                stack.extend(value)
            else:
                stack.append(value)
    return None


def _candidate_order(data):
    """Kinds ordered by how many of the leading top-level fields their schema expects."""
    leading = wire.top_level_fields(data)

    def fit(kind):
        fields = MESSAGES[kind].DESCRIPTOR.fields_by_number
        return sum(1 for number, wire_type in leading if number in fields)

    return sorted(MESSAGES, key=lambda kind: -fit(kind))


def parse_binary(path, data):
    """(kind, message) for a binary protobuf file; InputError saying where it breaks if none fits."""
    found = binary_message(data)
    if found is None:
        raise InputError(path, _explain_binary(data))
    return found


def binary_message(data):
    """(kind, message) for bytes that are one of MESSAGES in binary, or None (no explanation:
    that walk is slow on big bytes)."""
    fallback = None
    for kind in _candidate_order(data):
        message = MESSAGES[kind]()
        try:
            message.ParseFromString(data)
        except (DecodeError, RecursionError, ValueError):
            continue
        if not _plausible(kind, message) or bad_map_key(message) is not None:
            continue
        message.DiscardUnknownFields()
        unexplained = len(data) - message.ByteSize()
        if unexplained == 0:
            return kind, message
        if fallback is None or unexplained < fallback[0]:
            fallback = (unexplained, kind, message)
    if fallback is not None:
        return fallback[1], fallback[2]
    return None


def _explain_binary(data):
    """The most telling reason `data` is none of MESSAGES: the candidate that got furthest."""
    best = None
    for kind in _candidate_order(data):
        problem = wire.find_problem(data, MESSAGES[kind].DESCRIPTOR)
        if problem is not None and (best is None or problem.known_fields > best[1].known_fields):
            best = (kind, problem)
    if best is None:
        return f"not {EXPECTED}: well-formed protobuf, but it holds none of their contents"
    kind, problem = best
    return f"not {EXPECTED}: as a {MESSAGES[kind].DESCRIPTOR.name}, {problem}"


def parse_message(path, data, message_class, where):
    """A message of a known type (an event's payload); InputError naming `where` if it is bad."""
    message = message_class()
    try:
        message.ParseFromString(data)
        if bad_map_key(message) is not None:
            raise DecodeError("a map key is not UTF-8")  # as TensorFlow's parser says
    except (DecodeError, RecursionError, ValueError):
        problem = wire.find_problem(data, message_class.DESCRIPTOR)
        detail = f": {problem}" if problem else ""
        raise InputError(path, f"{where}: not a valid {message_class.DESCRIPTOR.name}{detail}") from None
    return message


# ---- text format ------------------------------------------------------------------------------

_FIRST_NAME = re.compile(r"(?:\s++|#[^\n]*+)*+([A-Za-z_][A-Za-z0-9_]*)")
# Strings unrolled (no alternation per character): linear time and constant memory on a 10 MB one.
_NESTING_TOKENS = re.compile(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\\\n]*(?:\\.[^\'\\\n]*)*\'|#[^\n]*|[{}<>]'
)


def text_kinds(text):
    """Kinds whose message has the first top-level field name of `text` (a text proto).

    >>> text_kinds('# a graph\\nnode { name: "x" }')
    ['graphdef']
    >>> text_kinds("step_stats { }")
    ['run_metadata']
    >>> text_kinds("hello world")
    []
    """
    match = _FIRST_NAME.match(text)
    if match is None:
        return []
    name = match.group(1)
    return [kind for kind, cls in MESSAGES.items() if name in cls.DESCRIPTOR.fields_by_name]


def parse_text(path, text, kinds=None, progress=None):
    """(kind, message) for a text-format file; InputError with line:column where it breaks.

    The fast reader (parsers.text_proto) takes what it can; protobuf's text_format the rest,
    after the nesting check that keeps it from recursing too deep. progress(done, total
    characters) is called now and then on big texts.
    """
    kinds = kinds if kinds is not None else text_kinds(text)
    if not kinds:
        match = _FIRST_NAME.match(text)
        if match:
            found, offset = f"`{excerpt(match.group(1))}`", match.start(1)
        else:
            offset = len(text) - len(text.lstrip())
            found = f"{printable(repr(text[offset:offset + 12]))}, no field name"
        line, column = _line_column(text, offset)
        raise InputError(
            path,
            f"line {line}:{column}: text starts with {found}, not a top-level field of"
            " GraphDef, MetaGraphDef, SavedModel or RunMetadata",
        )
    first_error = None
    checked = False
    for kind in kinds:
        message = text_proto.parse_fast(text, MESSAGES[kind], progress)
        if message is not None:
            return kind, message
        if not checked:
            _check_nesting(path, text)
            checked = True
        message = MESSAGES[kind]()
        try:
            text_format.Parse(text, message, allow_unknown_extension=False)
            return kind, message
        except text_format.ParseError as error:
            first_error = first_error or error
        except RecursionError:
            raise InputError(path, "text proto nested too deeply to read") from None
    raise InputError(path, _describe_parse_error(first_error, kinds[0]))


def _describe_parse_error(error, kind):
    message = str(error)
    prefix = f"{error.GetLine()}:{error.GetColumn()} : "
    if message.startswith(prefix):
        message = message[len(prefix) :]
    message = message.replace("graph_inspector.tf.", "")
    return f"line {error.GetLine()}:{error.GetColumn()}: {message} (as a text {MESSAGES[kind].DESCRIPTOR.name})"


def _check_nesting(path, text):
    """Refuse text nested deeper than protobuf's recursion limit, before parsing recurses."""
    depth = 0
    for match in _NESTING_TOKENS.finditer(text):
        token = match.group()
        if token in "{<":
            depth += 1
            if depth > wire.RECURSION_LIMIT:
                line, column = _line_column(text, match.start())
                raise InputError(
                    path,
                    f"line {line}:{column}: messages nested deeper than {wire.RECURSION_LIMIT} levels",
                )
        elif token in "}>":
            depth -= 1


def _line_column(text, offset):
    """1-based line and column of a character offset.

    >>> _line_column("ab\\ncd", 4)
    (2, 2)
    """
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
