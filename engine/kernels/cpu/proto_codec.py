"""CPU kernels of DecodeProtoV2 and EncodeProto: TensorFlow's decode_proto_op.cc and
encode_proto_op.cc over protobuf's descriptors, reading and writing the wire format field by
field as they do (a submessage is its bytes as they stand, a singular field seen twice is its
last value, repeated fields read packed or not, written packed where the field says so, the
fields in field-number order).

descriptor_source is "local://" (or empty: the descriptors linked into the process, here
protobuf's default pool with the engine's own protos loaded, whose package
graph_inspector.tf stands for TensorFlow's tensorflow), "bytes://<FileDescriptorSet>" or the
path of a file holding a serialized FileDescriptorSet.
"""

import importlib
import pkgutil
import struct

import numpy as np

from engine.framework import varint
from engine.framework.errors import DataLossError
from engine.kernels import register
from engine.kernels.common import invalid
from engine.proto import types_pb2

# Field types (FieldDescriptor.TYPE_*): their C++ names and the dtypes a field may be read
# as or written from (decode_proto_op.cc's CheckOutputType).
_TYPE_NAMES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64",
               7: "fixed32", 8: "bool", 9: "string", 10: "group", 11: "message",
               12: "bytes", 13: "uint32", 14: "enum", 15: "sfixed32", 16: "sfixed64",
               17: "sint32", 18: "sint64"}
_ALLOWED = {1: ("float64",), 2: ("float64", "float32"), 3: ("int64",), 4: ("uint64",),
            5: ("int64", "int32"), 6: ("uint64",), 7: ("uint64", "uint32"), 8: ("bool",),
            9: ("string",), 10: ("string",), 11: ("string",), 12: ("string",),
            13: ("uint64", "uint32"), 14: ("int32",), 15: ("int64", "int32"),
            16: ("int64",), 17: ("int64", "int32"), 18: ("int64",)}
_VARINT_TYPES = {3, 4, 5, 8, 13, 14, 17, 18}
_FIXED64 = {1: "<d", 6: "<Q", 16: "<q"}
_FIXED32 = {2: "<f", 7: "<I", 15: "<i"}
_LENGTH_TYPES = {9, 10, 11, 12}
_NUMPY = {"float64": np.float64, "float32": np.float32, "int64": np.int64,
          "uint64": np.uint64, "int32": np.int32, "uint32": np.uint32, "bool": np.bool_,
          "string": object}


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _dtype_name(dtype):
    return types_pb2.DataType.Name(dtype.as_datatype_enum)


def _pool(ctx, raw_source):
    from google.protobuf import descriptor_pb2, descriptor_pool
    source = raw_source.decode("utf-8", "replace") if isinstance(raw_source, bytes) \
        else str(raw_source)
    if source in ("", "local://"):
        _load_engine_protos()
        return descriptor_pool.Default()
    data = None
    if source.startswith("bytes://"):
        raw = raw_source if isinstance(raw_source, bytes) else raw_source.encode()
        data = raw[len(b"bytes://"):]
    else:
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError:
            data = None
    files = descriptor_pb2.FileDescriptorSet()
    try:
        if data is None:
            raise ValueError(source)
        files.ParseFromString(data)
        pool = descriptor_pool.DescriptorPool()
        for file in files.file:
            pool.Add(file)
    except Exception:  # noqa: BLE001  (protobuf's parse and pool errors vary)
        raise invalid(ctx, f"Source does not represent serialized file descriptor set proto. "
                           f"This may be due to a missing dependency on the file containing "
                           f"REGISTER_DESCRIPTOR_POOL(\"{source}\", ...);") from None
    return pool


def _load_engine_protos():
    import engine.proto as package
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.endswith("_pb2"):
            importlib.import_module(f"engine.proto.{info.name}")


_ENGINE_PACKAGE = "graph_inspector.tf."


def _find(pool, message_type, local):
    names = [message_type]
    if local and message_type.startswith("tensorflow."):
        names.append(_ENGINE_PACKAGE + message_type[len("tensorflow."):])
    for name in names:
        try:
            return pool.FindMessageTypeByName(name)
        except KeyError:
            continue
    return None


def _fields(ctx, message_type, field_names):
    source = ctx.attrs.get("descriptor_source", b"local://")
    pool = _pool(ctx, source)
    descriptor = _find(pool, message_type, source in (b"", b"local://", "", "local://"))
    if descriptor is None:
        raise invalid(ctx, f"No descriptor found for message type {message_type}")
    fields = []
    for name in field_names:
        field = descriptor.fields_by_name.get(name)
        if field is None:
            raise invalid(ctx, f"Unknown field: {name} in message type {message_type}")
        fields.append(field)
    return descriptor, fields


# --- the wire format ---

def _varint(data, at):
    value, at = varint.decode(data, at)  # (a VarintError is a ValueError)
    return value & (2 ** 64 - 1), at


def _signed(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _from_varint(kind, value):
    if kind in (5, 14):
        return _signed(value, 32)
    if kind == 3:
        return _signed(value, 64)
    if kind == 13:
        return value & 0xFFFFFFFF
    if kind == 8:
        return value != 0
    if kind in (17, 18):
        return (value >> 1) ^ -(value & 1)
    return value


def _skip(data, at, wire):
    if wire == 0:
        return _varint(data, at)[1]
    if wire == 1:
        end = at + 8
    elif wire == 5:
        end = at + 4
    elif wire == 2:
        length, at = _varint(data, at)
        end = at + length
    else:
        raise ValueError("wire type")
    if end > len(data):
        raise ValueError("truncated")
    return end


def _read_one(data, at, kind):
    if kind in _VARINT_TYPES:
        value, at = _varint(data, at)
        return _from_varint(kind, value), at
    for table, width in ((_FIXED64, 8), (_FIXED32, 4)):
        if kind in table:
            if at + width > len(data):
                raise ValueError("truncated")
            return struct.unpack_from(table[kind], data, at)[0], at + width
    raise ValueError("type")


def decode_message(data, fields, unsigned_packed=frozenset()):
    """{field number: [values]} of the requested fields, read off the wire. The int32 fields
    numbered in unsigned_packed (read as int64) give their packed values as uint32, as
    TensorFlow's packed reader does (its unpacked one sign-extends them)."""
    by_number = {field.number: field for field in fields}
    found = {number: [] for number in by_number}
    at = 0
    while at < len(data):
        try:
            tag, at = _varint(data, at)
        except ValueError:
            raise DataLossError(None, None, "Failed to consume entire buffer") from None
        number, wire = tag >> 3, tag & 7
        field = by_number.get(number)
        if field is None:
            try:
                at = _skip(data, at, wire)
            except ValueError:
                raise DataLossError(None, None, "Failed skipping unrequested field") from None
            continue
        kind = field.type
        try:
            if kind in _LENGTH_TYPES or (wire == 2 and kind not in _LENGTH_TYPES):
                length, at = _varint(data, at)
                if at + length > len(data):
                    raise ValueError("truncated")
                chunk = bytes(data[at:at + length])
                at += length
                if kind in _LENGTH_TYPES:
                    values = [chunk]
                else:  # packed
                    values, inner = [], 0
                    while inner < len(chunk):
                        value, inner = _read_one(chunk, inner, kind)
                        values.append(value & 0xFFFFFFFF if number in unsigned_packed
                                      else value)
            else:
                value, at = _read_one(data, at, kind)
                values = [value]
        except ValueError:
            raise DataLossError(None, None, f"Failed reading field {field.name}") from None
        if field.is_repeated:
            found[number].extend(values)
        elif values:
            found[number] = values[-1:]
    return found


_varint_bytes = varint.encode


def _to_varint(kind, value):
    value = int(value)
    if kind in (5, 14, 17):  # 32-bit fields take an int64 value's low 32 bits
        value = _signed(value, 32)
    if kind == 13:
        value &= 0xFFFFFFFF
    if kind in (17, 18):
        bits = 32 if kind == 17 else 64
        return (value << 1) ^ (value >> (bits - 1))
    return value


def _payload(kind, value):
    if kind in _VARINT_TYPES:
        return _varint_bytes(_to_varint(kind, value))
    for table in (_FIXED64, _FIXED32):
        if kind in table:
            code = table[kind]
            number = float(value) if code[1] in "df" else int(value)
            if code[1] in "IQ":
                number &= 2 ** (32 if code[1] == "I" else 64) - 1
            elif code[1] in "iq":
                number = _signed(number, 32 if code[1] == "i" else 64)
            return struct.pack(code, number)
    data = value if isinstance(value, bytes) else str(value).encode()
    return _varint_bytes(len(data)) + data


def _wire(kind):
    if kind in _VARINT_TYPES:
        return 0
    if kind in _FIXED64:
        return 1
    if kind in _FIXED32:
        return 5
    return 2


def encode_message(entries):
    """The bytes of [(field, values)] in field-number order, repeated scalars packed where
    the field is packed."""
    out = bytearray()
    for field, values in sorted(entries, key=lambda entry: entry[0].number):
        kind = field.type
        if not values:
            continue
        if field.is_repeated and field.is_packed and kind not in _LENGTH_TYPES:
            body = b"".join(_payload(kind, v) for v in values)
            out += _varint_bytes(field.number << 3 | 2) + _varint_bytes(len(body)) + body
            continue
        tag = _varint_bytes(field.number << 3 | _wire(kind))
        for value in values:
            out += tag + _payload(kind, value)
    return bytes(out)


def _default(field):
    if field.is_repeated:
        return b"" if field.type in _LENGTH_TYPES else 0
    value = field.default_value
    if field.type in _LENGTH_TYPES:
        return value if isinstance(value, bytes) else str(value or "").encode()
    return value


def _check_types(ctx, fields, dtypes_, full_name):
    for field, dtype in zip(fields, dtypes_):
        if dtype.name not in _ALLOWED[field.type]:
            raise invalid(ctx, f"Unexpected output type for {full_name}.{field.name}: "
                               f"{_TYPE_NAMES[field.type]} to {_dtype_name(dtype)}")


@register("DecodeProtoV2")
def decode_proto(ctx, messages):
    attrs = ctx.attrs
    message_type = _text(attrs["message_type"])
    names = [_text(n) for n in attrs.get("field_names", [])]
    out_types = list(attrs.get("output_types", []))
    if len(names) != len(out_types):
        raise invalid(ctx, "field_names and output_types attributes must have the same length")
    descriptor, fields = _fields(ctx, message_type, names)
    _check_types(ctx, fields, out_types, message_type)
    message_format = _text(attrs.get("message_format", b"binary"))
    if message_format not in ("binary", "text"):
        raise invalid(ctx, "format must be one of binary or text")
    messages = np.asarray(messages, dtype=object)
    flat = [m if isinstance(m, bytes) else str(m).encode() for m in messages.reshape(-1)]
    if message_format == "text" or attrs.get("sanitize", False):
        flat = [_canonical(ctx, descriptor, m, message_format) for m in flat]
    unsigned_packed = frozenset(field.number for field, dtype in zip(fields, out_types)
                                if field.type == 5 and dtype.name == "int64")
    decoded = []
    for data in flat:
        try:
            decoded.append(decode_message(data, fields, unsigned_packed))
        except DataLossError as error:
            raise DataLossError(getattr(ctx, "node_def", None), None, error.message) from None
    sizes = np.array([[len(d[f.number]) for f in fields] for d in decoded], np.int32)
    sizes = sizes.reshape(messages.shape + (len(fields),))
    values = []
    for index, (field, dtype) in enumerate(zip(fields, out_types)):
        width = max([1] + [len(d[field.number]) for d in decoded])
        default = _default(field)
        array = np.empty((len(decoded), width), object)
        for i, d in enumerate(decoded):
            array[i, :] = list(d[field.number]) + [default] * (width - len(d[field.number]))
        numpy_type = _NUMPY[dtype.name]
        if numpy_type is not object:
            array = array.astype(numpy_type)
        values.append(array.reshape(messages.shape + (width,)))
    return (sizes, *values)


def _canonical(ctx, descriptor, data, message_format):
    """The message parsed into protobuf's class and written again (sanitize=True, or text
    format's parse)."""
    from google.protobuf import message_factory, text_format
    message = message_factory.GetMessageClass(descriptor)()
    try:
        if message_format == "text":
            text_format.Parse(data.decode("utf-8", "replace"), message)
        else:
            message.ParseFromString(data)
    except Exception:  # noqa: BLE001
        raise DataLossError(getattr(ctx, "node_def", None), None,
                            "Unable to parse text protobuf" if message_format == "text"
                            else "Unable to parse binary protobuf") from None
    return message.SerializeToString()


@register("EncodeProto")
def encode_proto(ctx, sizes, *values):
    attrs = ctx.attrs
    message_type = _text(attrs["message_type"])
    names = [_text(n) for n in attrs.get("field_names", [])]
    if len(values) != len(names):
        raise invalid(ctx, "Length of inputs list must match field_names")
    descriptor, fields = _fields(ctx, message_type, names)
    for field, value in zip(fields, values):
        tf_name = _tf_dtype_name(value)
        if tf_name not in _ALLOWED[field.type]:
            raise invalid(ctx, f"Incompatible type for field {field.name}.  Saw dtype: "
                               f"{_short_name(tf_name)} but field type is: "
                               f"{_TYPE_NAMES[field.type]}")
    sizes = np.asarray(sizes)
    batch_shape = np.shape(values[0])[:-1] if values else sizes.shape[:-1]
    expected = tuple(batch_shape) + (len(fields),)
    if sizes.shape != expected:
        raise invalid(ctx, f"sizes should be batch_size + [len(field_names)].  Saw: "
                           f"[{','.join(map(str, sizes.shape))}] but expected: "
                           f"[{','.join(map(str, expected))}]")
    count = int(np.prod(batch_shape, dtype=np.int64))
    flat_sizes = sizes.reshape(count, len(fields))
    flat_values = [np.asarray(v).reshape(count, -1) if np.asarray(v).size or count == 0
                   else np.asarray(v).reshape(count, 0) for v in values]
    out = np.empty(count, object)
    for m in range(count):
        entries = []
        for f, field in enumerate(fields):
            size = int(flat_sizes[m, f])
            available = flat_values[f].shape[1]
            if size > available:
                raise invalid(ctx, f"Size to write must not be larger than value tensor; but "
                                   f"saw: {size} > {available} at message {m} field {f}")
            entries.append((field, [_python(v) for v in flat_values[f][m, :size]]))
        out[m] = encode_message(entries)
    return out.reshape(batch_shape)


def _tf_dtype_name(value):
    array = np.asarray(value)
    if array.dtype == object:
        return "string"
    return {"float64": "float64", "float32": "float32", "int64": "int64", "int32": "int32",
            "uint64": "uint64", "uint32": "uint32", "bool": "bool"}.get(array.dtype.name,
                                                                      array.dtype.name)


def _short_name(name):
    """DataTypeString's word for a dtype (float, double, int32, ...)."""
    return {"float32": "float", "float64": "double"}.get(name, name)


def _python(value):
    return value.item() if isinstance(value, np.generic) else value
