"""tf.train.export_meta_graph and the import under import_meta_graph: a graph with its SaverDef
and collections, as a .meta file.

Collections travel as TensorFlow writes them: variables as VariableDef bytes, tensors and
operations as node names, strings, ints and floats as lists; anything else is left out (as
TensorFlow does with a warning). Importing rebuilds the variables over the imported nodes;
saver.import_meta_graph returns a Saver over the imported SaverDef.
"""

import os

from google.protobuf import text_format
from google.protobuf.message import DecodeError

from engine.framework import op_registry
from engine.framework.graph import GraphKeys, get_default_graph
from engine.lib_io import file_io
from engine.framework.operation import Operation
from engine.ops.importer import import_graph_def
from engine.ops.variables import RefVariable, ResourceVariable, Variable
from engine.proto import meta_graph_pb2, op_def_pb2, variable_pb2
from engine.framework.tensor import Tensor

_VARIABLE_KEYS = {GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES, GraphKeys.GLOBAL_STEP,
                  GraphKeys.LOCAL_VARIABLES, GraphKeys.MODEL_VARIABLES, GraphKeys.MOVING_AVERAGE_VARIABLES}


def variable_def(variable):
    """The VariableDef TensorFlow's Variable.to_proto writes."""
    proto = variable_pb2.VariableDef(variable_name=variable.name, trainable=variable.trainable)
    if isinstance(variable, ResourceVariable):
        proto.is_resource = True
        proto.snapshot_name = variable._graph_element.name
    else:
        proto.snapshot_name = variable.value().name
    proto.initializer_name = variable.initializer.name
    if getattr(variable, "_initial_value", None) is not None:
        proto.initial_value_name = variable._initial_value.name
    return proto


def variable_from_def(proto, graph):
    """A Variable object over the nodes a VariableDef names (Variable.from_proto)."""
    cls = ResourceVariable if proto.is_resource else RefVariable
    variable = object.__new__(cls)
    element = graph.as_graph_element
    variable._trainable, variable._constraint = proto.trainable, None
    variable._initializer_op = element(proto.initializer_name)
    variable._initial_value = element(proto.initial_value_name) if proto.initial_value_name else None
    if proto.is_resource:
        variable._handle = element(proto.variable_name)
        variable._graph_element = element(proto.snapshot_name)
        variable._dtype = variable._graph_element.dtype.base_dtype
        variable._shape = variable._graph_element.shape
        variable._name = variable._handle.name
    else:
        variable._variable = variable._graph_element = element(proto.variable_name)
        variable._snapshot = element(proto.snapshot_name)
        variable._shape, variable._name = variable._variable.shape, variable._variable.name
    return variable


def _collection_def(items):
    """A CollectionDef for one collection's items, or None when they are not all of one kind."""
    collection = meta_graph_pb2.CollectionDef()
    if all(isinstance(item, Variable) for item in items):
        collection.bytes_list.value.extend(variable_def(item).SerializeToString() for item in items)
    elif all(isinstance(item, (Tensor, Operation)) for item in items):
        collection.node_list.value.extend(item.name for item in items)
    elif all(isinstance(item, (str, bytes)) for item in items):
        collection.bytes_list.value.extend(item.encode() if isinstance(item, str) else item for item in items)
    elif all(isinstance(item, bool) is False and isinstance(item, int) for item in items):
        collection.int64_list.value.extend(items)
    elif all(isinstance(item, float) for item in items):
        collection.float_list.value.extend(items)
    else:
        return None
    return collection


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                      save_debug_info=False, **kwargs):
    """The MetaGraphDef of `graph` (the default graph); written to `filename` when given."""
    graph = graph or get_default_graph()
    meta = meta_graph_pb2.MetaGraphDef()
    if meta_info_def is not None:
        meta.meta_info_def.CopyFrom(meta_info_def)
    meta.graph_def.CopyFrom(graph_def if graph_def is not None else graph.as_graph_def())
    if clear_devices:
        for node in meta.graph_def.node:
            node.device = ""
    used = sorted({node.op for node in meta.graph_def.node})
    stripped = op_def_pb2.OpList(op=[op_registry.lookup(op) for op in used if op_registry.lookup(op)])
    meta.meta_info_def.stripped_op_list.CopyFrom(stripped)
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in sorted(keys):
        items = graph.get_collection(key)
        if key == GraphKeys.SAVERS or not items:
            continue
        collection = _collection_def(items)
        if collection is not None:
            meta.collection_def[key].CopyFrom(collection)
    if filename:
        file_io.write_atomically(
            filename, text_format.MessageToString(meta) if as_text else meta.SerializeToString())
    return meta


def read_meta_graph_file(filename):
    """A MetaGraphDef from a binary or text .meta file."""
    if not os.path.lexists(filename):
        raise OSError(f"File does not exist. Received: {filename}.")
    with file_io.open_input(filename) as stream:
        data = stream.read()
    meta = meta_graph_pb2.MetaGraphDef()
    try:
        meta.ParseFromString(data)
        return meta
    except DecodeError:
        pass
    try:
        return text_format.Parse(data.decode("utf-8"), meta_graph_pb2.MetaGraphDef())
    except (text_format.ParseError, UnicodeDecodeError) as error:
        raise OSError(f"Cannot parse file {filename}: {error}") from None


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None):
    """Import a .meta (or a MetaGraphDef) into the default graph, its collections with it; its
    SaverDef with names in `import_scope`, or None (saver.import_meta_graph makes the Saver)."""
    meta = meta_graph_or_file
    if not isinstance(meta, meta_graph_pb2.MetaGraphDef):
        meta = read_meta_graph_file(meta_graph_or_file)
    graph = get_default_graph()
    graph_def = meta.graph_def
    if clear_devices:
        graph_def = type(graph_def).FromString(graph_def.SerializeToString())
        for node in graph_def.node:
            node.device = ""
    import_graph_def(graph_def, name=import_scope or "",
                     producer_op_list=meta.meta_info_def.stripped_op_list or None)
    scope = f"{import_scope}/" if import_scope else ""

    def scoped(name):
        return scope + name

    for key in sorted(meta.collection_def):
        collection = meta.collection_def[key]
        kind = collection.WhichOneof("kind")
        if kind == "node_list":
            for name in collection.node_list.value:
                graph.add_to_collection(key, graph.as_graph_element(scoped(name)))
        elif kind == "bytes_list" and key in _VARIABLE_KEYS:
            for data in collection.bytes_list.value:
                proto = variable_pb2.VariableDef.FromString(data)
                for field in ("variable_name", "initializer_name", "snapshot_name", "initial_value_name"):
                    if getattr(proto, field):
                        setattr(proto, field, scoped(getattr(proto, field)))
                graph.add_to_collection(key, variable_from_def(proto, graph))
        elif kind == "bytes_list":
            for data in collection.bytes_list.value:
                graph.add_to_collection(key, data)
        elif kind in ("int64_list", "float_list"):
            for value in getattr(collection, kind).value:
                graph.add_to_collection(key, value)
    if meta.HasField("saver_def"):
        saver_def = type(meta.saver_def)()
        saver_def.CopyFrom(meta.saver_def)
        for field in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
            setattr(saver_def, field, scoped(getattr(saver_def, field)))
        return saver_def
    return None
