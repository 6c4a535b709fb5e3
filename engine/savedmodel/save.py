"""tf.saved_model.save in graph mode (tf.compat.v1.saved_model.save): a TF2 SavedModel of a
tf.Module (or any trackable), as TensorFlow 2.21 writes it from a TF1 graph.

The directory holds saved_model.pb (one `serve` MetaGraphDef: the export graph of
export_graph.py, its function library, the signatures, the `__saved_model_init_op`, a SaverDef
and the SavedObjectGraph), variables/variables.{index,data-00000-of-00001} (each variable by
its object path, with the TrackableObjectGraph under _CHECKPOINTABLE_OBJECT_GRAPH) and an empty
assets/. The variables' values are read with the default session, as TensorFlow does in
graph mode (without one it is TensorFlow's RuntimeError). Only resource variables are saved:
TensorFlow cannot save ref variables either (its restore functions cannot assign them).
"""

import os

from engine.checkpoint.bundle import BundleWriter
from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.framework import dtypes, op_registry
from engine.framework.default_graph import get_default_session
from engine.framework.graph import GraphKeys, get_default_graph
from engine.lib_io import file_io
from engine.ops.variables import ResourceVariable
from engine.proto import meta_graph_pb2, op_def_pb2, saved_model_pb2, types_pb2
from engine.savedmodel import constants
from engine.savedmodel.export_graph import ExportGraph
from engine.savedmodel.saved_objects import SavedObjects, is_saveable_root
from engine.savedmodel.signature_functions import signature_functions


def _tracked_handles(saved):
    """{handle tensor name: node id} of the variables the walk reached (resource ones only)."""
    by_handle = {}
    for node_id, _, variable in saved.variables():
        if not isinstance(variable, ResourceVariable):
            raise TypeError(
                f"tf.saved_model.save saves resource variables only, and {variable.name} is a "
                "reference variable: make it with use_resource=True (or "
                "tf.enable_resource_variables()); TensorFlow cannot save one either")
        by_handle[variable.handle.name] = node_id
    return by_handle


def _graph_variables(graph):
    return {v.handle.name: v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
            + graph.get_collection(GraphKeys.LOCAL_VARIABLES) if isinstance(v, ResourceVariable)}


def _bound_inputs(saved, graph):
    """{concrete function name: the node ids of what it captures, in order}; a capture that
    is neither a tracked variable nor a constant is refused in TensorFlow's words (its
    signature functions checked first, as TensorFlow does)."""
    by_handle = _tracked_handles(saved)
    variables = _graph_variables(graph)
    concretes = list(saved.signatures.values())
    concretes += [c for c in saved.concrete_functions() if all(c is not w for w in concretes)]
    bound = {}
    for concrete in concretes:
        name, ids = concrete.name, []
        for captured in concrete.captured_inputs:
            if captured.name in by_handle:
                ids.append(by_handle[captured.name])
            elif captured.name in saved.constants:
                ids.append(saved.node_ids[id(saved.constants[captured.name])])
            elif captured.dtype.base_dtype == dtypes.resource:
                holder = variables.get(captured.name, captured)
                raise AssertionError(
                    "Tried to export a function which references an 'untracked' resource. "
                    "TensorFlow objects (e.g. tf.Variable) captured by functions must be "
                    "'tracked' by assigning them to an attribute of a tracked object or "
                    "assigned to an attribute of the main object directly. See the information "
                    f"below:\n\tFunction name = {name}\n\tCaptured Tensor = {captured}\n\t"
                    f"Trackable referencing this tensor = {holder!r}\n\t"
                    f"Internal Tensor = {captured}")
            else:
                raise ValueError(
                    f"Unable to save function {name} because it captures graph tensor "
                    f"{captured} from a parent function which cannot be converted to a "
                    "constant with `tf.get_static_value`.")
        bound[name.decode()] = ids
    return bound


def _stripped_op_list(graph_def):
    used = {node.op for node in graph_def.node}
    for function in graph_def.library.function:
        used.update(node.op for node in function.node_def)
    ops = [op_registry.lookup(name) for name in sorted(used)]
    return op_def_pb2.OpList(op=[op for op in ops if op is not None])


def _meta_graph(export, saved_object_graph, tags):
    meta = meta_graph_pb2.MetaGraphDef()
    meta.meta_info_def.tags.extend(tags)
    meta.graph_def.CopyFrom(export.graph.as_graph_def(include_debug_info=False))
    meta.meta_info_def.stripped_op_list.CopyFrom(_stripped_op_list(meta.graph_def))
    meta.saver_def.CopyFrom(export.saver_def)
    meta.collection_def[constants.MAIN_OP_KEY].node_list.value.append(export.init_op.name)
    for key, signature in export.signature_defs.items():
        meta.signature_def[key].CopyFrom(signature)
    meta.object_graph_def.CopyFrom(saved_object_graph)
    return meta


def _write_variables(saved, checkpoint_graph, prefix, session):
    variables = saved.variables()
    values = session.run([variable.value() for _, _, variable in variables]) if variables else []
    writer = BundleWriter(prefix)
    for (_, key, variable), value in zip(variables, values):
        writer.add(key, value, variable.dtype.base_dtype.as_datatype_enum)
    writer.add(OBJECT_GRAPH_KEY, checkpoint_graph.SerializeToString(), types_pb2.DT_STRING)
    writer.finish()


def save(obj, export_dir, signatures=None, options=None):
    """Write `obj`, its variables' values in the default session, its tf.functions' traces
    and `signatures` as a TF2 SavedModel in export_dir."""
    if not is_saveable_root(obj):
        raise ValueError(
            "Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
            f"`Trackable` class, for export. Got {obj} with type {type(obj)}.")
    export_dir = os.fspath(export_dir)
    graph = get_default_graph()
    with graph.as_default():
        signature_map = signature_functions(obj, signatures)
        saved = SavedObjects(obj, signature_map, graph)
        bound = _bound_inputs(saved, graph)
        checkpoint_graph = saved.checkpoint_graph()
        export = ExportGraph(graph, saved, bound, checkpoint_graph)
        tags = [constants.SERVING] + list(getattr(options, "extra_tags", None) or [])
        meta = _meta_graph(export, saved.saved_object_graph(bound, export.constant_operations),
                           tags)
        variables_dir = os.path.join(export_dir, constants.VARIABLES_DIRECTORY)
        file_io.recursively_create_dir(variables_dir)
        prefix = os.path.join(variables_dir, constants.VARIABLES_FILENAME)
        session = get_default_session()
        if session is None:
            raise RuntimeError(f"Unable to save checkpoint to \"{prefix}\" in graph mode "
                               "without a default session. Please use `with tf.Session():` to "
                               "create a session.")
        _write_variables(saved, checkpoint_graph, prefix, session)
    file_io.recursively_create_dir(os.path.join(export_dir, constants.ASSETS_DIRECTORY))
    saved_model = saved_model_pb2.SavedModel(
        saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
    saved_model.meta_graphs.add().CopyFrom(meta)
    file_io.write_atomically(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB),
                             saved_model.SerializeToString(deterministic=True))
