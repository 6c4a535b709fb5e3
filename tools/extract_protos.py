"""Write engine/proto/*.proto: TensorFlow's message schemas under a package of our own.

Run with the TensorFlow venv (tools/README.md). It walks the descriptors of the messages
Graph Inspector speaks, collects the .proto files they need, and prints each one as .proto
source with the package renamed from `tensorflow` to `graph_inspector.tf`. Field names,
numbers, types and enum values are TensorFlow's, so wire and text formats match; comments
and options (java_package and the like) are left behind.

    .venv-tf/bin/python tools/extract_protos.py engine/proto
    tools/gen_protos.sh          # then regenerate the Python modules
"""

import os
import sys

from google.protobuf import descriptor_pb2

OUR_PACKAGE = "graph_inspector.tf"
ROOT_MESSAGES = [
    "tensorflow.GraphDef", "tensorflow.OpList", "tensorflow.GraphDebugInfo",
    "tensorflow.StepStats", "tensorflow.CostGraphDef", "tensorflow.RunOptions",
    "tensorflow.RunMetadata", "tensorflow.ConfigProto", "tensorflow.MetaGraphDef",
    "tensorflow.SavedModel", "tensorflow.Event", "tensorflow.Summary",
    "tensorflow.TensorDescription", "tensorflow.ResourceHandleProto",
    "tensorflow.BundleHeaderProto", "tensorflow.BundleEntryProto", "tensorflow.CheckpointState",
    "tensorflow.Example", "tensorflow.SequenceExample", "tensorflow.ServerDef",
]

SCALAR_TYPES = {
    descriptor_pb2.FieldDescriptorProto.TYPE_DOUBLE: "double",
    descriptor_pb2.FieldDescriptorProto.TYPE_FLOAT: "float",
    descriptor_pb2.FieldDescriptorProto.TYPE_INT64: "int64",
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT64: "uint64",
    descriptor_pb2.FieldDescriptorProto.TYPE_INT32: "int32",
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED64: "fixed64",
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED32: "fixed32",
    descriptor_pb2.FieldDescriptorProto.TYPE_BOOL: "bool",
    descriptor_pb2.FieldDescriptorProto.TYPE_STRING: "string",
    descriptor_pb2.FieldDescriptorProto.TYPE_BYTES: "bytes",
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT32: "uint32",
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED32: "sfixed32",
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED64: "sfixed64",
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT32: "sint32",
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT64: "sint64",
}


def our_package(package):
    return OUR_PACKAGE + package[len("tensorflow"):] if package.startswith("tensorflow") else package


def our_file_name(name):
    if name.startswith("google/protobuf/"):
        return name
    return "engine/proto/" + os.path.basename(name)


def our_type_name(type_name):
    # ".tensorflow.X.Y" -> ".graph_inspector.tf.X.Y"
    if type_name.startswith(".tensorflow."):
        return "." + OUR_PACKAGE + type_name[len(".tensorflow"):]
    return type_name


def collect_files(pool):
    files, todo = {}, [pool.FindMessageTypeByName(name).file for name in ROOT_MESSAGES]
    while todo:
        file = todo.pop()
        if file.name in files or file.name.startswith("google/protobuf/"):
            continue
        todo.extend(file.dependencies)
        if file.message_types_by_name or file.enum_types_by_name:
            files[file.name] = file
    return files


def real_dependencies(file):
    """A file's imports, looking through files that only re-export another (public import)."""
    for dep in file.dependencies:
        if dep.message_types_by_name or dep.enum_types_by_name or dep.name.startswith("google/"):
            yield dep.name
        else:
            yield from real_dependencies(dep)


def field_line(field, nested_by_name, indent, proto2=False):
    if field.type in (field.TYPE_MESSAGE, field.TYPE_ENUM):
        type_name = our_type_name(field.type_name)
        entry = nested_by_name.get(field.type_name)
        if entry is not None and entry.options.map_entry:
            key, value = entry.field
            return f"{indent}map<{type_text(key)}, {type_text(value)}> {field.name} = {field.number};"
    else:
        type_name = SCALAR_TYPES[field.type]
    label = ""
    if field.label == field.LABEL_REPEATED:
        label = "repeated "
    elif field.proto3_optional or (proto2 and field.label == field.LABEL_OPTIONAL and not in_oneof(field)):
        label = "optional "
    elif field.label == field.LABEL_REQUIRED:
        label = "required "
    options = []
    if field.HasField("default_value"):
        default = field.default_value
        quoted = field.type in (field.TYPE_STRING, field.TYPE_BYTES)
        options.append(f'default = "{default}"' if quoted else f"default = {default}")
    if field.options.HasField("packed"):
        options.append(f"packed = {'true' if field.options.packed else 'false'}")
    if field.options.deprecated:
        options.append("deprecated = true")
    suffix = f" [{', '.join(options)}]" if options else ""
    return f"{indent}{label}{type_name} {field.name} = {field.number}{suffix};"


def in_oneof(field):
    return field.HasField("oneof_index") and not field.proto3_optional


def type_text(field):
    if field.type in (field.TYPE_MESSAGE, field.TYPE_ENUM):
        return our_type_name(field.type_name)
    return SCALAR_TYPES[field.type]


def enum_lines(enum, indent):
    lines = [f"{indent}enum {enum.name} {{"]
    if enum.options.allow_alias:
        lines.append(f"{indent}  option allow_alias = true;")
    for value in enum.value:
        lines.append(f"{indent}  {value.name} = {value.number};")
    for reserved in enum.reserved_range:
        lines.append(f"{indent}  reserved {reserved.start} to {reserved.end};")
    lines.append(f"{indent}}}")
    return lines


def message_lines(message, scope, indent, proto2=False):
    full_name = f"{scope}.{message.name}"
    nested_by_name = {f"{full_name}.{n.name}": n for n in message.nested_type}
    lines = [f"{indent}message {message.name} {{"]
    inner = indent + "  "
    for enum in message.enum_type:
        lines += enum_lines(enum, inner)
    for nested in message.nested_type:
        if not nested.options.map_entry:
            lines += message_lines(nested, full_name, inner, proto2)
    real_oneofs = {}
    for field in message.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            real_oneofs.setdefault(field.oneof_index, []).append(field)
    emitted_oneofs = set()
    for field in message.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            if field.oneof_index in emitted_oneofs:
                continue
            emitted_oneofs.add(field.oneof_index)
            lines.append(f"{inner}oneof {message.oneof_decl[field.oneof_index].name} {{")
            for member in real_oneofs[field.oneof_index]:
                lines.append(field_line(member, nested_by_name, inner + "  "))
            lines.append(f"{inner}}}")
        else:
            lines.append(field_line(field, nested_by_name, inner, proto2))
    for reserved in message.reserved_range:
        end = reserved.end - 1
        lines.append(f"{inner}reserved {reserved.start}{'' if end == reserved.start else f' to {end}'};")
    if message.reserved_name:
        names = ", ".join(f'"{n}"' for n in message.reserved_name)
        lines.append(f"{inner}reserved {names};")
    lines.append(f"{indent}}}")
    return lines


def proto_source(file):
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    package = our_package(proto.package)
    lines = [
        f"// Generated by tools/extract_protos.py from TensorFlow's {proto.name}.",
        "// Same messages, field names and numbers; package renamed so both can share a process.",
        f'syntax = "{proto.syntax or "proto2"}";',
        "",
        f"package {package};",
        "",
    ]
    lines += [f'import "{our_file_name(dep)}";' for dep in dict.fromkeys(real_dependencies(file))]
    lines.append("")
    for enum in proto.enum_type:
        lines += enum_lines(enum, "")
        lines.append("")
    for message in proto.message_type:
        lines += message_lines(message, "." + proto.package, "", proto.syntax in ("", "proto2"))
        lines.append("")
    return "\n".join(lines)


def schema_table(files):
    """{message or enum full name (our package): fields or values}, for tests/fixtures/proto_schema.json."""
    table = {}

    def walk_message(message):
        table[our_type_name("." + message.full_name)] = {
            field.name: [field.number, field.type, field.is_repeated, our_type_name(
                "." + (field.message_type or field.enum_type).full_name)
                if (field.message_type or field.enum_type) else ""]
            for field in message.fields}
        for nested in message.nested_types:
            walk_message(nested)
        for enum in message.enum_types:
            walk_enum(enum)

    def walk_enum(enum):
        table[our_type_name("." + enum.full_name)] = {v.name: v.number for v in enum.values}

    for file in files.values():
        for message in file.message_types_by_name.values():
            walk_message(message)
        for enum in file.enum_types_by_name.values():
            walk_enum(enum)
    return dict(sorted(table.items()))


def main(out_dir, schema_path="tests/fixtures/proto_schema.json"):
    # Importing these registers TensorFlow's descriptors in the default pool.
    import tensorflow  # noqa: F401
    from tensorflow.core.framework import graph_pb2, op_def_pb2, step_stats_pb2  # noqa: F401
    from tensorflow.core.protobuf import config_pb2, meta_graph_pb2, saved_model_pb2  # noqa: F401
    from tensorflow.core.protobuf import tensor_bundle_pb2, tensorflow_server_pb2  # noqa: F401
    from tensorflow.core.util import event_pb2  # noqa: F401
    from tensorflow.python.training import checkpoint_state_pb2  # noqa: F401
    from google.protobuf import descriptor_pool

    files = collect_files(descriptor_pool.Default())
    os.makedirs(out_dir, exist_ok=True)
    for name in sorted(files):
        path = os.path.join(out_dir, os.path.basename(name))
        with open(path, "w") as out:
            out.write(proto_source(files[name]))
        print(path)
    import json
    with open(schema_path, "w") as out:
        json.dump(schema_table(files), out, indent=0, sort_keys=True)
    print(schema_path)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "engine/proto")
