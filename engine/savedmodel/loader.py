"""tf.saved_model.loader.load: a SavedModel's meta graph by its tags, imported, restored, initialized."""

import os

from google.protobuf import text_format
from google.protobuf.message import DecodeError

from engine.framework.graph import GraphKeys
from engine.lib_io import file_io
from engine.ops.saver import import_meta_graph
from engine.proto import meta_graph_pb2, saved_model_pb2
from engine.savedmodel import constants
from engine.savedmodel.signatures import get_tensor_from_tensor_info


def parse_saved_model(export_dir):
    """The SavedModel message in saved_model.pb (else saved_model.pbtxt); OSError as TensorFlow's,
    and TensorFlow's error naming the file where it cannot be read (a directory, unreadable)."""
    export_dir = os.fspath(export_dir)
    path_to_pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    path_to_pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    saved_model = saved_model_pb2.SavedModel()
    if os.path.exists(path_to_pb):
        with file_io.open_input(path_to_pb) as stream:
            content = stream.read()
        try:
            saved_model.ParseFromString(content)
        except DecodeError as error:
            raise OSError(f"Cannot parse file {path_to_pb}: {error}.") from error
    elif os.path.exists(path_to_pbtxt):
        with file_io.open_input(path_to_pbtxt) as stream:
            content = stream.read()
        try:
            text_format.Parse(content.decode("utf-8"), saved_model)
        except (text_format.ParseError, UnicodeDecodeError) as error:
            raise OSError(f"Cannot parse file {path_to_pbtxt}: {error}.") from error
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.path.sep}"
                      f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|{constants.SAVED_MODEL_FILENAME_PB}}}")
    return saved_model


def maybe_saved_model_directory(export_dir):
    """Whether `export_dir` holds a saved_model.pb or .pbtxt (not whether it loads)."""
    return any(os.path.exists(os.path.join(export_dir, name)) for name in (
        constants.SAVED_MODEL_FILENAME_PBTXT, constants.SAVED_MODEL_FILENAME_PB))


def meta_graph_def_from_tags(saved_model, tags):
    """The meta graph whose tag set equals `tags`; RuntimeError in TensorFlow's words."""
    available = []
    for meta_graph_def in saved_model.meta_graphs:
        available.append(set(meta_graph_def.meta_info_def.tags))
        if set(meta_graph_def.meta_info_def.tags) == set(tags):
            return meta_graph_def
    raise RuntimeError(
        f"MetaGraphDef associated with tags {str(tags).strip('[]')} could not be found in "
        f"SavedModel, with available tags '{available}'. To inspect available tag-sets in the "
        "SavedModel, please use the SavedModel CLI: `saved_model_cli`.")


def _collection_op(graph, meta_graph_def, key):
    if key not in meta_graph_def.collection_def:
        return None
    names = meta_graph_def.collection_def[key].node_list.value
    if len(names) != 1:
        raise RuntimeError(f"Expected exactly one SavedModel init op. Found {len(names)}: {names}.")
    return graph.get_collection(key)[0]


def _init_op(graph, meta_graph_def, import_scope):
    """The init op: the __saved_model_init_op signature's, else the main op, else the legacy one."""
    signature = meta_graph_def.signature_def.get(constants.INIT_OP_SIGNATURE_KEY)
    if signature is not None:
        info = signature.outputs[constants.INIT_OP_SIGNATURE_KEY]
        name = f"{import_scope}/{info.name}" if import_scope else info.name
        return graph.as_graph_element(name)
    return (_collection_op(graph, meta_graph_def, constants.MAIN_OP_KEY)
            or _collection_op(graph, meta_graph_def, constants.LEGACY_INIT_OP_KEY))


def asset_files(meta_graph_def, export_dir):
    """{asset tensor name: its file in export_dir/assets}: what the init op is fed
    (TensorFlow's get_asset_tensors), from asset_file_def and the legacy assets collection."""
    definitions = list(meta_graph_def.asset_file_def)
    legacy = meta_graph_def.collection_def.get(constants.ASSETS_KEY)
    if legacy is not None:
        for packed in legacy.any_list.value:
            definition = meta_graph_pb2.AssetFileDef()
            if packed.Unpack(definition):
                definitions.append(definition)
    directory = os.path.join(os.fspath(export_dir), constants.ASSETS_DIRECTORY)
    return {d.tensor_info.name: os.path.join(directory, d.filename) for d in definitions}


def _asset_feeds(graph, meta_graph_def, export_dir, import_scope):
    scope = f"{import_scope}/" if import_scope else ""
    return {graph.get_tensor_by_name(scope + name): path
            for name, path in asset_files(meta_graph_def, export_dir).items()}


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Load the meta graph tagged `tags` into sess.graph, restore its variables, run its init op
    (fed the SavedModel's asset files); returns the MetaGraphDef."""
    saved_model = parse_saved_model(export_dir)
    meta_graph_def = meta_graph_def_from_tags(saved_model, tags)
    graph = sess.graph
    with graph.as_default():
        saver = import_meta_graph(meta_graph_def, import_scope=import_scope, **saver_kwargs)
        if saver is not None:
            saver.restore(sess, os.path.join(os.fspath(export_dir), constants.VARIABLES_DIRECTORY,
                                             constants.VARIABLES_FILENAME))
        elif graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
            raise ValueError("No tf.train.Saver object was passed to the function "
                             "`SavedModelLoader.restore_variables`. Since there are variables in "
                             "the graph, a saver is required.")
        init_op = _init_op(graph, meta_graph_def, import_scope)
        if init_op is not None:
            assets = _asset_feeds(graph, meta_graph_def, export_dir, import_scope)
            sess.run([init_op], feed_dict=assets or None)
    return meta_graph_def


__all__ = ["asset_files", "get_tensor_from_tensor_info", "load", "maybe_saved_model_directory",
           "parse_saved_model"]
