"""tf.io.decode_proto and tf.io.encode_proto, built the same way by real TensorFlow and the
engine: a proto2 message of every scalar type, repeated (packed and not), enum, nested and
defaulted fields, described by a FileDescriptorSet file (tests/fixtures/proto_codec/
sample.desc) and by the linked-in descriptors ("local://": tensorflow.TensorShapeProto and
tensorflow.Example, which both hold); values, sizes, static shapes, graph nodes and errors.
tools/make_proto_codec_fixtures.py writes TensorFlow's to tests/fixtures/proto_codec/;
tests/engine/test_proto_codec.py compares the engine's."""

from pathlib import Path

import numpy as np

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "proto_codec"
DESC = FOLDER / "sample.desc"
SAMPLE = "iqtest.Sample"

_SCALARS = [  # (name, number, descriptor type, TensorFlow dtype name)
    ("d", 1, "TYPE_DOUBLE", "float64"), ("f", 2, "TYPE_FLOAT", "float32"),
    ("i64", 3, "TYPE_INT64", "int64"), ("u64", 4, "TYPE_UINT64", "uint64"),
    ("i32", 5, "TYPE_INT32", "int32"), ("fx64", 6, "TYPE_FIXED64", "uint64"),
    ("fx32", 7, "TYPE_FIXED32", "uint32"), ("b", 8, "TYPE_BOOL", "bool"),
    ("s", 9, "TYPE_STRING", "string"), ("by", 12, "TYPE_BYTES", "string"),
    ("u32", 13, "TYPE_UINT32", "uint32"), ("sf32", 15, "TYPE_SFIXED32", "int32"),
    ("sf64", 16, "TYPE_SFIXED64", "int64"), ("si32", 17, "TYPE_SINT32", "int32"),
    ("si64", 18, "TYPE_SINT64", "int64"),
]


def descriptor_set():
    """The FileDescriptorSet of iqtest/sample.proto (proto2), built field by field."""
    from google.protobuf import descriptor_pb2
    fds = descriptor_pb2.FileDescriptorSet()
    f = fds.file.add(name="iqtest/sample.proto", package="iqtest", syntax="proto2")
    T = descriptor_pb2.FieldDescriptorProto
    enum = f.enum_type.add(name="Color")
    for name, number in (("RED", 0), ("GREEN", 1), ("BLUE", 5)):
        enum.value.add(name=name, number=number)
    inner = f.message_type.add(name="Inner")
    inner.field.add(name="a", number=1, type=T.TYPE_INT32, label=T.LABEL_OPTIONAL)
    inner.field.add(name="s", number=2, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    sample = f.message_type.add(name="Sample")
    for name, number, kind, _ in _SCALARS:
        sample.field.add(name=name, number=number, type=getattr(T, kind),
                         label=T.LABEL_OPTIONAL)
    sample.field.add(name="color", number=14, type=T.TYPE_ENUM, type_name=".iqtest.Color",
                     label=T.LABEL_OPTIONAL)
    sample.field.add(name="inner", number=11, type=T.TYPE_MESSAGE, type_name=".iqtest.Inner",
                     label=T.LABEL_OPTIONAL)
    packed = sample.field.add(name="ri32", number=20, type=T.TYPE_INT32,
                              label=T.LABEL_REPEATED)
    packed.options.packed = True
    sample.field.add(name="rf", number=21, type=T.TYPE_FLOAT, label=T.LABEL_REPEATED)
    sample.field.add(name="rs", number=22, type=T.TYPE_STRING, label=T.LABEL_REPEATED)
    sample.field.add(name="rinner", number=23, type=T.TYPE_MESSAGE,
                     type_name=".iqtest.Inner", label=T.LABEL_REPEATED)
    sample.field.add(name="rcolor", number=24, type=T.TYPE_ENUM, type_name=".iqtest.Color",
                     label=T.LABEL_REPEATED)
    sample.field.add(name="ri64", number=25, type=T.TYPE_INT64, label=T.LABEL_REPEATED)
    sample.field.add(name="rd", number=26, type=T.TYPE_DOUBLE, label=T.LABEL_REPEATED)
    sample.field.add(name="rb", number=27, type=T.TYPE_BOOL, label=T.LABEL_REPEATED)
    sample.field.add(name="with_default", number=30, type=T.TYPE_INT32,
                     label=T.LABEL_OPTIONAL, default_value="42")
    sample.field.add(name="color_default", number=31, type=T.TYPE_ENUM,
                     type_name=".iqtest.Color", label=T.LABEL_OPTIONAL, default_value="BLUE")
    sample.field.add(name="s_default", number=32, type=T.TYPE_STRING,
                     label=T.LABEL_OPTIONAL, default_value="hi")
    sample.field.add(name="f_default", number=33, type=T.TYPE_FLOAT,
                     label=T.LABEL_OPTIONAL, default_value="2.5")
    return fds


def _classes():
    from google.protobuf import descriptor_pool, message_factory
    pool = descriptor_pool.DescriptorPool()
    for f in descriptor_set().file:
        pool.Add(f)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
            for name in ("iqtest.Sample", "iqtest.Inner")}


def _messages():
    """Three serialized Samples: every field set, some set, none."""
    from google.protobuf import text_format
    sample = _classes()[SAMPLE]
    texts = [
        'd: 1.5 f: -2.25 i64: -9000000000 u64: 18446744073709551615 i32: -7 fx64: 5 '
        'fx32: 4294967295 b: true s: "text" by: "\\000\\377" u32: 4000000000 sf32: -3 '
        'sf64: -4 si32: -5 si64: -6 color: BLUE inner { a: 3 s: "in" } ri32: [1, -2, 3] '
        'rf: [0.5] rs: ["x", "yy"] rinner { a: 1 } rinner { s: "z" } rcolor: [GREEN, RED] '
        'ri64: [9, 8, 7, 6] rd: [1e300] rb: [true, false, true] with_default: 7 '
        'color_default: GREEN s_default: "set" f_default: -1',
        'f: 3.0 i32: 12 s: "only" ri32: [4] rs: ["a"] rb: [false]',
        '',
    ]
    return [text_format.Parse(t, sample()).SerializeToString() for t in texts]


def _text_messages():
    return [b'i32: 5 s: "t" ri32: 1 ri32: 2', b'color: GREEN inner { a: 9 }']


_ALL = [name for name, *_ in _SCALARS] + ["color", "inner", "ri32", "rf", "rs", "rinner",
                                          "rcolor", "ri64", "rd", "rb", "with_default",
                                          "color_default", "s_default", "f_default"]
_TYPES = {name: dtype for name, _, _, dtype in _SCALARS}
_TYPES.update(color="int32", inner="string", ri32="int32", rf="float32", rs="string",
              rinner="string", rcolor="int32", ri64="int64", rd="float64", rb="bool",
              with_default="int32", color_default="int32", s_default="string",
              f_default="float32")


def _decode(fields, types=None, batch_shape=None, **kwargs):
    def build(tf):
        messages = np.array(_messages(), dtype=object)
        if batch_shape is not None:
            messages = np.array((_messages() * 2)[:int(np.prod(batch_shape))],
                                dtype=object).reshape(batch_shape)
        out_types = [getattr(tf, t) for t in (types or [_TYPES[f] for f in fields])]
        kwargs.setdefault("descriptor_source", str(DESC))
        sizes, values = tf.io.decode_proto(tf.constant(messages), SAMPLE, fields, out_types,
                                           **kwargs)
        return [sizes] + list(values)
    return build


def _local_shape(tf):
    """tensorflow.TensorShapeProto, linked into both: dims as serialized submessages."""
    from google.protobuf import text_format
    shape = text_format.Parse('dim { size: 3 name: "a" } dim { size: -1 } unknown_rank: false',
                              _tensor_shape_proto(tf)()).SerializeToString()
    sizes, values = tf.io.decode_proto([shape, b""], "tensorflow.TensorShapeProto",
                                       ["dim", "unknown_rank"], [tf.string, tf.bool])
    return [sizes] + list(values)


def _tensor_shape_proto(tf):
    module = getattr(tf, "__name__", "")
    if module.startswith("engine"):
        from engine.proto import tensor_shape_pb2
    else:
        from tensorflow.core.framework import tensor_shape_pb2
    return tensor_shape_pb2.TensorShapeProto


def _encode(fields, types, sizes, values):
    def build(tf):
        out = tf.io.encode_proto(tf.constant(np.array(sizes, np.int32)),
                                 [tf.constant(np.array(v, dtype=getattr(np, t) if t not in (
                                     "string", "bool") else (object if t == "string" else bool)),
                                     getattr(tf, t)) for v, t in zip(values, types)],
                                 fields, SAMPLE, descriptor_source=str(DESC))
        # The bytes' order is protobuf's serializer's; decoding them back is what compares.
        sizes_back, values_back = tf.io.decode_proto(out, SAMPLE, fields,
                                                     [getattr(tf, t) for t in types],
                                                     descriptor_source=str(DESC))
        return [out, sizes_back] + list(values_back)
    return build


CASES = {
    "decode_all_fields": _decode(_ALL),
    "decode_scalars_batch_2x2": _decode(["i32", "s", "ri32", "f_default"], batch_shape=[2, 2]),
    "decode_repeated_only": _decode(["rs", "rinner", "rb"], name="dp"),
    "decode_widened": _decode(["u32", "fx32", "i32", "sf32", "si32", "f"],
                              ["uint64", "uint64", "int64", "int64", "int64", "float64"]),
    "decode_sanitize": _decode(["s", "by", "rs"], sanitize=True),
    "decode_text": lambda tf: (lambda out: [out[0]] + list(out[1]))(tf.io.decode_proto(
        tf.constant(np.array(_text_messages(), dtype=object)), SAMPLE,
        ["i32", "s", "ri32", "color", "inner"],
        [tf.int32, tf.string, tf.int32, tf.int32, tf.string], descriptor_source=str(DESC),
        message_format="text")),
    "decode_local_tensor_shape": _local_shape,
    "encode_scalars": _encode(["i32", "s", "f", "b", "d"],
                              ["int32", "string", "float32", "bool", "float64"],
                              [[1, 1, 0, 1, 1], [0, 1, 1, 1, 0]],
                              [[[5], [-1]], [[b"a"], [b"bc"]], [[0.5], [1.5]],
                               [[True], [False]], [[2.0], [3.0]]]),
    "encode_repeated": _encode(["ri32", "rs", "ri64", "rb"],
                               ["int32", "string", "int64", "bool"],
                               [[3, 1, 0, 2]],
                               [[[1, 2, 3]], [[b"x", b""]], [[7, 0]], [[True, False]]]),
    "encode_unsigned_and_enum": _encode(["u32", "u64", "color", "rcolor", "fx32", "fx64"],
                                        ["uint32", "uint64", "int32", "int32", "uint32",
                                         "uint64"],
                                        [[1, 1, 1, 2, 1, 1]],
                                        [[[4000000000]], [[2 ** 64 - 1]], [[5]], [[1, 0]],
                                         [[123]], [[2 ** 63 + 5]]]),
    "encode_singular_twice": _encode(["i32", "s"], ["int32", "string"], [[2, 2]],
                                     [[[1, 2]], [[b"a", b"b"]]]),
    "encode_int64_into_int32": _encode(["i32", "ri32"], ["int64", "int64"], [[1, 2]],
                                       [[[-3]], [[2 ** 40 + 1, -1]]]),
    "encode_nested": _encode(["inner", "rinner"], ["string", "string"], [[1, 2]],
                             [[[b"\x08\x03"]], [[b"\x08\x01", b"\x12\x01z"]]]),
}


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run(outputs)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    return {f"out{i}": _storable(np.asarray(v)) for i, v in enumerate(fetched)}, shapes


def _storable(array):
    """Strings as their hex (an .npz holds no objects without pickle)."""
    if array.dtype != object:
        return array
    return np.vectorize(bytes.hex, otypes=["U"])(array) if array.size else \
        array.astype("U1")


def _kernel_message(message):
    lines = message.splitlines()
    index = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
    return lines[index + 1] if index is not None else lines[0]


def _raw_decode(message_type=SAMPLE, fields=("i32",), types=("int32",), data=None, **kwargs):
    def build(tf):
        kwargs.setdefault("descriptor_source", str(DESC))
        return tf.io.decode_proto(tf.constant(np.array(data or _messages(), dtype=object)),
                                  message_type, list(fields), [getattr(tf, t) for t in types],
                                  **kwargs)[0]
    return build


ERROR_CASES = {
    "unknown_message_type": _raw_decode("iqtest.Nothing"),
    "unknown_field": _raw_decode(fields=("nope",)),
    "wrong_output_type": _raw_decode(fields=("s",), types=("int32",)),
    "float_as_int": _raw_decode(fields=("f",), types=("int64",)),
    "message_as_int": _raw_decode(fields=("inner",), types=("int32",)),
    "missing_descriptor_file": _raw_decode(descriptor_source="/nonexistent/x.desc"),
    "unknown_local_type": _raw_decode("iqtest.Sample", descriptor_source="local://"),
    "bad_format": _raw_decode(message_format="json"),
    "corrupt_binary": _raw_decode(data=[b"\x08"]),
    "corrupt_text": _raw_decode(data=[b"i32: oops"], message_format="text"),
    "encode_sizes_too_big": lambda tf: tf.io.encode_proto(
        tf.constant([[2]]), [tf.constant([[1]])], ["ri32"], SAMPLE,
        descriptor_source=str(DESC)),
    "encode_unknown_field": lambda tf: tf.io.encode_proto(
        tf.constant([[1]]), [tf.constant([[1]])], ["zzz"], SAMPLE,
        descriptor_source=str(DESC)),
    "encode_wrong_type": lambda tf: tf.io.encode_proto(
        tf.constant([[1]]), [tf.constant([[1.0]])], ["i32"], SAMPLE,
        descriptor_source=str(DESC)),
}


def run_error_case(tf, name):
    with tf.Graph().as_default():
        out = ERROR_CASES[name](tf)
        with tf.Session() as sess:
            try:
                sess.run(out)
            except tf.errors.OpError as error:
                return type(error).__name__, _kernel_message(error.message)
    raise AssertionError(f"{name}: no error")


def _raw_encode(sizes, values, fields):
    return lambda tf: tf.io.encode_proto(tf.constant(sizes), [tf.constant(v) for v in values],
                                         fields, SAMPLE, descriptor_source=str(DESC))


ERROR_CASES.update({
    "types_and_fields_differ": _raw_decode(fields=("i32", "s"), types=("int32",)),
    "encode_values_and_fields_differ": _raw_encode([[1, 1]], [[[1]]], ["i32", "s"]),
    "encode_sizes_rank_1": _raw_encode([1], [[[1]]], ["i32"]),
    "encode_sizes_and_fields_differ": _raw_encode([[1, 1]], [[[1]]], ["i32"]),
    "encode_batch_differs": _raw_encode([[1]], [[[1], [2]]], ["i32"]),
    "encode_int_as_bool": _raw_encode([[1]], [[[1]]], ["b"]),
    "encode_int32_as_int64": _raw_encode([[1]], [np.array([[1]], np.int32)], ["i64"]),
    "encode_float_as_double": _raw_encode([[1]], [np.array([[1.5]], np.float32)], ["d"]),
})

# Graph building accepts all of these (TensorFlow checks them when the graph runs).
PYTHON_ERRORS = {
    "types_and_fields_differ": _raw_decode(fields=("i32", "s"), types=("int32",)),
    "encode_values_and_fields_differ": _raw_encode([[1, 1]], [[[1]]], ["i32", "s"]),
    "decode_rank_0": _raw_decode(data=b"\x08\x01"),
}


def python_errors(tf):
    found = {}
    for name, build in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                build(tf)
            except (ValueError, TypeError) as error:
                kind = "TypeError" if isinstance(error, TypeError) else "ValueError"
                found[name] = [kind, str(error).split(" for '{{node")[0]]
            else:
                found[name] = None
    return found
