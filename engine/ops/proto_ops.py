"""tf.io.decode_proto (DecodeProtoV2) and tf.io.encode_proto (EncodeProto), TensorFlow's
generated wrappers with their defaults: decode_proto gives (sizes, [values])."""

from collections import namedtuple

from engine.ops.op_def_library import apply_op

DecodeProtoV2 = namedtuple("DecodeProtoV2", ["sizes", "values"])


def decode_proto(bytes, message_type, field_names, output_types,  # noqa: A002
                 descriptor_source="local://", message_format="binary", sanitize=False,
                 name=None):
    outputs = apply_op("DecodeProtoV2", bytes=bytes, message_type=message_type,
                       field_names=field_names, output_types=output_types,
                       descriptor_source=descriptor_source, message_format=message_format,
                       sanitize=sanitize, name=name)
    if not isinstance(outputs, (list, tuple)):  # no fields: sizes alone
        return DecodeProtoV2(outputs, [])
    return DecodeProtoV2(outputs[0], list(outputs[1:]))


def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://",
                 name=None):
    return apply_op("EncodeProto", sizes=sizes, values=values, field_names=field_names,
                    message_type=message_type, descriptor_source=descriptor_source, name=name)
