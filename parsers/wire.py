"""Protobuf wire format by hand: peek at top-level fields, and find where bad bytes go wrong.

The fast path parses with the protobuf runtime, which only says "corrupt". These walkers run on
the bytes themselves, guided by a message descriptor, to say what is wrong and at which byte.
"""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

from engine.checkpoint.table import CorruptTable, decode_varint

# protobuf's own default: parsers refuse messages nested deeper than this.
RECURSION_LIMIT = 100

VARINT, FIXED64, LENGTH, START_GROUP, END_GROUP, FIXED32 = range(6)

_SCALAR_WIRE_TYPES = {
    FieldDescriptor.TYPE_DOUBLE: FIXED64,
    FieldDescriptor.TYPE_FIXED64: FIXED64,
    FieldDescriptor.TYPE_SFIXED64: FIXED64,
    FieldDescriptor.TYPE_FLOAT: FIXED32,
    FieldDescriptor.TYPE_FIXED32: FIXED32,
    FieldDescriptor.TYPE_SFIXED32: FIXED32,
    FieldDescriptor.TYPE_STRING: LENGTH,
    FieldDescriptor.TYPE_BYTES: LENGTH,
    FieldDescriptor.TYPE_MESSAGE: LENGTH,
    FieldDescriptor.TYPE_GROUP: START_GROUP,
}


class WireError(Exception):
    """Bytes that are not protobuf wire format: what is wrong, at which byte.

    known_fields: how many fields of the schema the walk had read when it stopped, a measure of
    how well the bytes fit that schema up to there.
    """

    def __init__(self, offset, message):
        super().__init__(f"{message} at byte {offset}")
        self.offset = offset
        self.known_fields = 0


def read_varint(data, offset, end):
    """(value, next offset) of the varint at offset (the engine's decoder, our errors).

    >>> read_varint(b"\\x96\\x01", 0, 2)
    (150, 2)
    >>> read_varint(b"\\x96", 0, 1)
    Traceback (most recent call last):
    ...
    parsers.wire.WireError: varint runs past the end at byte 0
    """
    try:
        return decode_varint(data, offset, end)
    except CorruptTable as error:
        raise WireError(offset, str(error)) from None


def top_level_fields(data, limit=8):
    """The first `limit` (field number, wire type) pairs at the top level, stopping at any error.

    Cheap: it skips over field contents, so it tells a GraphDef from a SavedModel without
    parsing either.

    >>> top_level_fields(b"\\x08\\x01\\x12\\x00")
    [(1, 0), (2, 2)]
    """
    fields = []
    offset, end = 0, len(data)
    try:
        while offset < end and len(fields) < limit:
            key, offset = read_varint(data, offset, end)
            number, wire_type = key >> 3, key & 7
            if number == 0 or wire_type > FIXED32:
                break
            fields.append((number, wire_type))
            offset = _skip(data, offset, end, number, wire_type, 0)
    except WireError:
        pass
    return fields


def find_problem(data, descriptor):
    """The first thing wrong with `data` as a `descriptor` message: a WireError, or None.

    Checks what the protobuf runtime checks: well-formed tags and varints, lengths inside the
    enclosing message, wire types that match the schema, UTF-8 in strings, nesting depth.
    """
    counter = [0]
    try:
        _walk(data, 0, len(data), descriptor, 0, counter)
    except WireError as error:
        error.known_fields = counter[0]
        return error
    return None


def _walk(data, offset, end, descriptor, depth, counter):
    if depth > RECURSION_LIMIT:
        raise WireError(offset, f"messages nested deeper than {RECURSION_LIMIT} levels")
    fields = descriptor.fields_by_number
    while offset < end:
        tag_offset = offset
        key, offset = read_varint(data, offset, end)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise WireError(tag_offset, "field number 0")
        if wire_type > FIXED32:
            raise WireError(tag_offset, f"invalid wire type {wire_type}")
        field = fields.get(number)
        if field is None:
            offset = _skip(data, offset, end, number, wire_type, depth)
            continue
        counter[0] += 1
        where = f"{descriptor.name}.{field.name} ({number})"
        expected = _SCALAR_WIRE_TYPES.get(field.type, VARINT)
        packable = is_repeated(field) and expected != LENGTH
        if wire_type != expected and not (packable and wire_type == LENGTH):
            raise WireError(tag_offset, f"{where} has wire type {wire_type}, expected {expected}")
        if wire_type != LENGTH:
            offset = _skip(data, offset, end, number, wire_type, depth)
            continue
        length_offset = offset
        length, offset = read_varint(data, offset, end)
        if length > end - offset:
            raise WireError(
                length_offset,
                f"{where} declares {length} bytes but only {end - offset} remain"
                " (truncated or corrupt)",
            )
        stop = offset + length
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            _walk(data, offset, stop, field.message_type, depth + 1, counter)
        elif field.type == FieldDescriptor.TYPE_STRING:
            try:
                bytes(data[offset:stop]).decode("utf-8")
            except UnicodeDecodeError as error:
                raise WireError(offset + error.start, f"{where} is not valid UTF-8") from None
        elif packable:
            _walk_packed(data, offset, stop, expected, where)
        offset = stop
    if offset != end:
        raise WireError(end, "field runs past the end of its message")


def is_repeated(field):
    # protobuf 7 dropped FieldDescriptor.label for is_repeated.
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == FieldDescriptor.LABEL_REPEATED


def _walk_packed(data, offset, end, wire_type, where):
    width = {FIXED64: 8, FIXED32: 4}.get(wire_type)
    if width is not None:
        if (end - offset) % width:
            raise WireError(offset, f"packed {where} is not a whole number of {width}-byte values")
        return
    while offset < end:
        _, offset = read_varint(data, offset, end)


def _skip(data, offset, end, number, wire_type, depth):
    """The offset after the contents of a field whose tag ends at offset."""
    if wire_type == VARINT:
        return read_varint(data, offset, end)[1]
    if wire_type in (FIXED64, FIXED32):
        width = 8 if wire_type == FIXED64 else 4
        if offset + width > end:
            raise WireError(offset, f"field {number} needs {width} bytes, only {end - offset} remain")
        return offset + width
    if wire_type == LENGTH:
        length_offset = offset
        length, offset = read_varint(data, offset, end)
        if length > end - offset:
            raise WireError(
                length_offset,
                f"field {number} declares {length} bytes but only {end - offset} remain"
                " (truncated or corrupt)",
            )
        return offset + length
    if wire_type == START_GROUP:
        if depth > RECURSION_LIMIT:
            raise WireError(offset, f"groups nested deeper than {RECURSION_LIMIT} levels")
        # The fields of a group, skipped in one loop (a text file read as binary can be a
        # group of a million fixed-size fields): one-byte tags and fixed widths inline.
        while True:
            tag_offset = offset
            if offset < end and data[offset] < 0x80:
                key = data[offset]
                offset += 1
            else:
                key, offset = read_varint(data, offset, end)
            inner_number, inner_type = key >> 3, key & 7
            if inner_type == END_GROUP:
                if inner_number != number:
                    raise WireError(tag_offset, f"group {number} ended by field {inner_number}")
                return offset
            if inner_number == 0 or inner_type > FIXED32:
                raise WireError(tag_offset, f"invalid tag in group {number}")
            width = 8 if inner_type == FIXED64 else 4 if inner_type == FIXED32 else 0
            if width and offset + width <= end:
                offset += width
            else:
                offset = _skip(data, offset, end, inner_number, inner_type, depth + 1)
    raise WireError(offset, f"unexpected end of group {number}")
