"""Text-format protobuf messages, fast: one pass over the whole text builds the wire bytes.

protobuf's text_format takes a Python call per token (seconds for a 17k-node GraphDef). Here a
compiled regex reads one field at a time over the whole buffer, values are parsed by
text_format's own functions (cached: a graph repeats its ops, dtypes and devices), identical
sub-messages (a graph's `attr { ... }` entries) are encoded once, and so are runs of them (a
node's attrs, looked up as one text), the plain strings a block opens with (a node's name, op,
inputs) are read in a tight loop, and the message is built by one ParseFromString of the wire
bytes. What this path does not take (extensions, Any
expansions, `[...]` lists, a field set twice, nesting past protobuf's limit, any error) goes
to text_format itself, so results and error messages are protobuf's own.

>>> from engine.proto import graph_pb2
>>> graph = parse('node { name: "a" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } }',
...               graph_pb2.GraphDef)
>>> graph.node[0].name, graph.node[0].attr["dtype"].type
('a', 1)
>>> parse('node { name: "a" name: "b" }', graph_pb2.GraphDef)
Traceback (most recent call last):
...
google.protobuf.text_format.ParseError: 1:24 : Message type "graph_inspector.tf.NodeDef" should not have multiple "name" fields.
"""

from __future__ import annotations

import re
import struct
from typing import Callable

from google.protobuf import text_encoding, text_format
from google.protobuf.descriptor import FieldDescriptor

# protobuf's own default: parsers refuse messages nested deeper than this.
RECURSION_LIMIT = 100
# Sub-messages up to this many characters are looked up whole before they are parsed.
BLOCK_LIMIT = 4096
CACHE_LIMIT = 200_000
PROGRESS_EVERY = 1 << 14  # statements between progress reports

_SKIP = r"(?:\s++|#[^\n]*+)*+"  # text_format's whitespace and comments, across lines
_STRING = r"\"[^\"\n\\]*(?:\\.[^\"\n\\]*)*\"|'[^'\n\\]*(?:\\.[^'\n\\]*)*'"
# One statement: `name: value`, `name {` (or `<`), a closing `}` (or `>`), or the end; a `,` or
# `;` may follow a value or a close. A value is text_format's next token (strings joined).
_STATEMENT = re.compile(
    _SKIP + r"(?:(?P<name>[a-zA-Z_][0-9a-zA-Z_+-]*)" + _SKIP + r"(?P<colon>:)?" + _SKIP
    + r"(?:(?P<open>[{<])|(?P<strings>(?:" + _STRING + r")(?:" + _SKIP + r"(?:" + _STRING + r"))*)"
    + r"|(?P<value>[a-zA-Z_][0-9a-zA-Z_+-]*|(?:[0-9+-]|\.[0-9])[0-9a-zA-Z_.+-]*))"
    + r"|(?P<close>[}>])|(?P<end>\Z))" + _SKIP + r"(?P<separator>[,;])?",
    re.MULTILINE,
)
_STRINGS = re.compile(_SKIP + r"(" + _STRING + r")")
# A `{...}` block nested at most 6 deep, without comments or `<...>`: a candidate for the cache.
_BLOCK_BODY = r"(?:[^{}<>#\"']++|" + _STRING + r")*+"
_block = r"\{" + _BLOCK_BODY + r"\}"
for _ in range(5):
    _block = r"\{(?:[^{}<>#\"']++|" + _STRING + r"|" + _block + r")*+\}"
_BLOCK = re.compile(_block)
# `name: "text"` (one double-quoted string, nothing escaped), then what may follow a value.
# Whitespace only: at a comment, or a string that a second one continues, the plain reading
# stops and the statement loop goes on from there.
_PLAIN_ITEM = re.compile(r"([a-zA-Z_][0-9a-zA-Z_+-]*+)\s*+:\s*+\"([^\"\n\\]*+)\"\s*+[,;]?\s*+")
_BLOCK_TEXT = _block
_SEPARATOR = re.compile(_SKIP + r"[,;]?")
RUN_LIMIT = 16384  # characters of a run of blocks looked up whole
RUN_BLOCKS = 16  # blocks at most in a run (a miss costs a scan of this many blocks)
_RUNS: dict[str, re.Pattern] = {}


def _run_pattern(name: str) -> re.Pattern:
    """2 to RUN_BLOCKS `name { ... }` blocks in a row (a node's attrs), each a cache
    candidate."""
    pattern = _RUNS.get(name)
    if pattern is None:
        one = (re.escape(name) + r"(?![0-9a-zA-Z_+-])" + _SKIP + r":?" + _SKIP + _BLOCK_TEXT
               + _SKIP + r"[,;]?" + _SKIP)
        pattern = _RUNS[name] = re.compile(r"(?:" + one + r"){2,%d}+" % RUN_BLOCKS)
    return pattern


class _Fallback(Exception):
    """Text this path does not take: text_format decides."""


def parse(text: str, message_class, progress: Callable[[int, int], None] | None = None):
    """A `message_class` read from text format, as text_format.Parse reads it (its errors too).

    progress(done_characters, total_characters) is called now and then on big texts.
    """
    message = parse_fast(text, message_class, progress)
    if message is None:
        message = message_class()
        text_format.Parse(text, message, allow_unknown_extension=False)
    return message


def parse_fast(text: str, message_class, progress: Callable[[int, int], None] | None = None):
    """What text_format.Parse would read, where this path takes the text; None where it does
    not (text_format then decides: it reads it, or says what is wrong)."""
    try:
        data = _Builder(text, progress).build(_schema(message_class.DESCRIPTOR))
    except _Fallback:
        return None
    message = message_class()
    message.ParseFromString(data)
    if progress is not None:
        progress(len(text), len(text))
    return message


# ---- what the builder knows of a message type ---------------------------------------------

_WIRE = {
    FieldDescriptor.TYPE_DOUBLE: 1, FieldDescriptor.TYPE_FIXED64: 1,
    FieldDescriptor.TYPE_SFIXED64: 1, FieldDescriptor.TYPE_FLOAT: 5,
    FieldDescriptor.TYPE_FIXED32: 5, FieldDescriptor.TYPE_SFIXED32: 5,
    FieldDescriptor.TYPE_STRING: 2, FieldDescriptor.TYPE_BYTES: 2, FieldDescriptor.TYPE_MESSAGE: 2,
}
# (signed, 64-bit) of each integer type, as text_format checks their range.
_INTEGERS = {
    FieldDescriptor.TYPE_INT32: (True, False), FieldDescriptor.TYPE_SINT32: (True, False),
    FieldDescriptor.TYPE_SFIXED32: (True, False), FieldDescriptor.TYPE_INT64: (True, True),
    FieldDescriptor.TYPE_SINT64: (True, True), FieldDescriptor.TYPE_SFIXED64: (True, True),
    FieldDescriptor.TYPE_UINT32: (False, False), FieldDescriptor.TYPE_FIXED32: (False, False),
    FieldDescriptor.TYPE_UINT64: (False, True), FieldDescriptor.TYPE_FIXED64: (False, True),
}
_PACK = {
    FieldDescriptor.TYPE_DOUBLE: "<d", FieldDescriptor.TYPE_FLOAT: "<f",
    FieldDescriptor.TYPE_FIXED64: "<Q", FieldDescriptor.TYPE_SFIXED64: "<q",
    FieldDescriptor.TYPE_FIXED32: "<I", FieldDescriptor.TYPE_SFIXED32: "<i",
}


class _Field:
    """One field of a message type, as the builder needs it."""

    __slots__ = ("descriptor", "number", "tag", "repeated", "oneof", "message", "encode", "text")

    def __init__(self, descriptor):
        self.descriptor = descriptor
        self.number = descriptor.number
        self.tag = _varint(descriptor.number << 3 | _WIRE.get(descriptor.type, 0))
        self.repeated = _is_repeated(descriptor)
        self.oneof = descriptor.containing_oneof
        self.message = descriptor.message_type  # its _Schema once asked for
        self.encode = _encoder(descriptor)
        self.text = descriptor.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)


class _Schema:
    __slots__ = ("descriptor", "fields")

    def __init__(self, descriptor):
        self.descriptor = descriptor
        self.fields = {field.name: _Field(field) for field in descriptor.fields}


_SCHEMAS: dict = {}


def _schema(descriptor) -> _Schema:
    schema = _SCHEMAS.get(descriptor)
    if schema is None:
        if (descriptor.full_name == "google.protobuf.Any"
                or descriptor.GetOptions().message_set_wire_format
                or any(field.type == FieldDescriptor.TYPE_GROUP for field in descriptor.fields)):
            raise _Fallback  # `[type.googleapis.com/...]` expansions, message sets, groups
        schema = _SCHEMAS[descriptor] = _Schema(descriptor)
    return schema


def _is_repeated(field) -> bool:
    # protobuf 7 dropped FieldDescriptor.label for is_repeated.
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == FieldDescriptor.LABEL_REPEATED


def _varint(value: int) -> bytes:
    """protobuf's varint (negative numbers as 10 bytes of two's complement).

    >>> _varint(1), _varint(300), len(_varint(-1))
    (b'\\x01', b'\\xac\\x02', 10)
    """
    if value < 0:
        value += 1 << 64
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = [bytes((value,)) for value in range(128)]  # one-byte varints


def _encoder(field) -> Callable[[str], bytes] | None:
    """value text -> encoded value for a scalar field (ValueError where text_format errs)."""
    kind = field.type
    if kind in _INTEGERS:
        signed, long = _INTEGERS[kind]
        pack = _PACK.get(kind)
        zigzag = kind in (FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64)

        def integer(text):
            value = text_format.ParseInteger(text, is_signed=signed, is_long=long)
            if pack is not None:
                return struct.pack(pack, value)
            if zigzag:
                value = (value << 1) ^ (value >> 63)
            return _varint(value)

        return integer
    if kind in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        pack = _PACK[kind]

        def real(text):
            try:
                return struct.pack(pack, text_format.ParseFloat(text))
            except OverflowError:
                raise ValueError("out of float range") from None  # text_format stores inf

        return real
    if kind == FieldDescriptor.TYPE_BOOL:
        return lambda text: b"\x01" if text_format.ParseBool(text) else b"\x00"
    if kind == FieldDescriptor.TYPE_ENUM:
        return lambda text: _varint(text_format.ParseEnum(field, text))
    return None  # strings and bytes: from string tokens; messages: from blocks


def _string_bytes(strings: str, utf8: bool) -> bytes:
    """Adjacent quoted strings as text_format's ConsumeString / ConsumeByteString read them."""
    quote = strings[0]
    if strings[-1] == quote and strings.count(quote) == 2 and "\\" not in strings:
        return strings[1:-1].encode("utf-8")  # one string, nothing escaped: the common case
    pieces = []
    for token in _STRINGS.findall(strings):
        body = token[1:-1]
        pieces.append(text_encoding.CUnescape(body) if "\\" in body else body.encode("utf-8"))
    data = b"".join(pieces)
    if utf8:
        data.decode("utf-8")  # UnicodeDecodeError: text_format refuses it too
    return data


# ---- the builder ----------------------------------------------------------------------------


class _Frame:
    """A message being read: its encoded fields so far, and what text_format would refuse."""

    __slots__ = ("schema", "parts", "singular", "oneofs", "closer", "field", "block")

    def __init__(self, schema, closer, field=None, block=None):
        self.schema = schema
        self.parts: list[bytes] = []
        self.singular: set[int] = set()
        self.oneofs: dict = {}
        self.closer = closer
        self.field = field
        self.block = block  # the block's text, to remember its encoding by


class _Builder:
    """Reads one text. Its caches: encoded fields by (field, value text), and encoded
    sub-messages by (field, block text)."""

    def __init__(self, text: str, progress):
        self.text = text
        self.progress = progress
        self.values: dict[tuple, bytes] = {}
        self.blocks: dict[tuple, bytes] = {}
        self.runs: dict[tuple, tuple[bytes, int]] = {}  # (encoded, blocks in the run)

    def build(self, root: _Schema) -> bytes:
        text = self.text
        match_statement = _STATEMENT.match
        match_block = _BLOCK.match
        values = self.values
        blocks = self.blocks
        runs = self.runs
        find_blocks = _BLOCK.findall
        # Per field, [found, missed, seen] for runs of blocks: attrs copied from node to node are
        # looked up as one text; runs that keep missing (each Const's value) stop being tried.
        run_tries: dict[_Field, list[int]] = {}
        # Per message type, [found, missed, seen] for plain strings first in a block (a
        # node's name, op, inputs and device), read in one match.
        plain_tries: dict[_Schema, list[int]] = {}
        # Per field, [found, missed] in the caches: a field whose values or blocks are mostly
        # new (node names, whole nodes) stops being looked up, and costs nothing more.
        tries: dict[_Field, list[int]] = {}
        progress = self.progress
        stack = [_Frame(root, "")]
        frame = stack[0]
        position = 0
        statements = 0  # read so far (a cached block or a run's block: one each)
        next_progress = PROGRESS_EVERY
        while True:
            match = match_statement(text, position)
            if match is None:
                raise _Fallback  # `[`, a stray character: text_format says what is wrong
            position = match.end()
            name, colon, opener, strings, value, close, end, separator = match.groups()
            if name is None:
                if end is not None:
                    if len(stack) > 1:
                        raise _Fallback
                    return b"".join(frame.parts)
                if close != frame.closer:
                    raise _Fallback
                stack.pop()
                data = b"".join(frame.parts)
                field = frame.field
                size = len(data)
                encoded = field.tag + (_SMALL[size] if size < 128 else _varint(size)) + data
                if frame.block is not None and len(blocks) < CACHE_LIMIT:
                    blocks[(field, frame.block)] = encoded
                frame = stack[-1]
                frame.parts.append(encoded)
                continue
            field = frame.schema.fields.get(name)
            if field is None:
                raise _Fallback  # an unknown field, or a group's type name
            if not field.repeated:
                if field.number in frame.singular:
                    raise _Fallback  # set twice: text_format refuses most such texts
                frame.singular.add(field.number)
            if field.oneof is not None:
                if frame.oneofs.setdefault(field.oneof.name, field.number) != field.number:
                    raise _Fallback
            statements += 1
            if progress is not None and statements >= next_progress:
                next_progress += PROGRESS_EVERY
                progress(position, len(text))
            tried = tries.get(field)
            if tried is None:
                tried = tries[field] = [0, 0]
            worth = tried[1] < 64 or tried[0] * 4 >= tried[1]
            if opener is not None:
                if field.message is None or separator:
                    raise _Fallback
                if not isinstance(field.message, _Schema):
                    field.message = _schema(field.message)
                block = None
                if (opener == "{" and worth and field.repeated
                        and len(stack) + 6 <= RECURSION_LIMIT):
                    ran = run_tries.get(field)
                    if ran is None:
                        ran = run_tries[field] = [0, 0, 0]
                    ran[2] += 1
                    # (Every 16th run is tried anyway: the first copies of a graph's attrs
                    # miss, being new, and later ones find them.)
                    if ran[1] < 64 or ran[0] * 2 >= ran[1] or ran[2] % 16 == 0:
                        found = _run_pattern(name).match(text, match.start(1))
                        if found is not None:
                            run = found.group()
                            known = runs.get((field, run))
                            if known is None and len(run) <= RUN_LIMIT and "#" not in run:
                                # (No comment: the blocks are exactly the {...} in the run.)
                                parts = [blocks.get((field, one)) for one in find_blocks(run)]
                                if None not in parts:
                                    known = (b"".join(parts), len(parts))
                                    if len(runs) < CACHE_LIMIT:
                                        runs[(field, run)] = known
                            if known is not None:
                                ran[0] += 1
                                frame.parts.append(known[0])
                                position = found.end()
                                statements += known[1] - 1  # (this one counted above)
                                continue
                            ran[1] += 1
                if opener == "{" and worth and len(stack) + 6 <= RECURSION_LIMIT:
                    # (A cached block nests up to 6 deep: not where that passes the limit.)
                    found = match_block(text, match.start(3))
                    if found is not None and found.end() - found.start() <= BLOCK_LIMIT:
                        block = found.group()
                        known = blocks.get((field, block))
                        if known is not None:
                            tried[0] += 1
                            frame.parts.append(known)
                            position = _SEPARATOR.match(text, found.end()).end()
                            continue
                        tried[1] += 1
                stack.append(_Frame(field.message, "}" if opener == "{" else ">", field, block))
                if len(stack) > RECURSION_LIMIT + 1:
                    raise _Fallback  # protobuf_files refuses it before text_format recurses
                frame = stack[-1]
                plain = plain_tries.get(frame.schema)
                if plain is None:
                    plain = plain_tries[frame.schema] = [0, 0, 0]
                plain[2] += 1
                if plain[1] < 64 or plain[0] * 2 >= plain[1] or plain[2] % 16 == 0:
                    done, count = self._plain_strings(frame, text, position)
                    if count:
                        plain[0] += 1
                        position = done
                        statements += count
                        if progress is not None and statements >= next_progress:
                            next_progress += PROGRESS_EVERY
                            progress(position, len(text))
                    else:
                        plain[1] += 1
                continue
            if colon is None or field.message is not None:
                raise _Fallback
            if strings is not None:
                value = strings
                if not worth and field.text and "\\" not in strings:
                    quote = strings[0]
                    if strings[-1] == quote and strings.count(quote) == 2:
                        # One plain string (a node's name, an input): encoded here, uncached.
                        data = strings[1:-1].encode("utf-8")
                        size = len(data)
                        size = _SMALL[size] if size < 128 else _varint(size)
                        frame.parts.append(field.tag + size + data)
                        continue
            if worth:
                key = (field, value)
                encoded = values.get(key)
                if encoded is not None:
                    tried[0] += 1
                    frame.parts.append(encoded)
                    continue
                tried[1] += 1
                encoded = field.tag + self._value(field, strings, value)
                if len(values) < CACHE_LIMIT:
                    values[key] = encoded
            else:
                encoded = field.tag + self._value(field, strings, value)
            frame.parts.append(encoded)

    @staticmethod
    def _plain_strings(frame: _Frame, text: str, position: int) -> tuple[int, int]:
        """Encodes the `name: "text"` statements at `position` (the start of a block) up to
        the first that is not a plain string or bytes field this path takes as it stands.
        (The position after the last one encoded, how many were.)"""
        fields = frame.schema.fields
        singular = frame.singular
        parts = frame.parts
        match_item = _PLAIN_ITEM.match
        count = 0
        while True:
            item = match_item(text, position)
            if item is None:
                return position, count
            name, body = item.group(1, 2)
            field = fields.get(name)
            if field is None or not field.text or field.oneof is not None:
                return position, count  # the statement loop decides
            if not field.repeated:
                if field.number in singular:
                    return position, count
                singular.add(field.number)
            try:
                data = body.encode("utf-8")
            except UnicodeEncodeError:
                raise _Fallback from None
            size = len(data)
            parts.append(field.tag + (_SMALL[size] if size < 128 else _varint(size)) + data)
            position = item.end()
            count += 1

    @staticmethod
    def _value(field: _Field, strings: str | None, value: str) -> bytes:
        try:
            if field.text:
                if strings is None:
                    raise _Fallback
                data = _string_bytes(strings, field.descriptor.type == FieldDescriptor.TYPE_STRING)
                return _varint(len(data)) + data
            if strings is not None or field.encode is None:
                raise _Fallback
            return field.encode(value)
        except (ValueError, UnicodeDecodeError):
            raise _Fallback from None
