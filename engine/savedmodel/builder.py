"""tf.saved_model.builder.SavedModelBuilder and simple_save: a SavedModel as TF 1.x wrote it.

The directory holds saved_model.pb (or .pbtxt): a SavedModel message, one MetaGraphDef per
add_meta_graph* call with its tags and SignatureDefs; and variables/variables.{index,data-*},
written by a sharded tf.train.Saver over all saveables, as TensorFlow's builder does, so its
SaverDef (save/restore_all ...) travels in every meta graph and loader.load restores with it.
"""

import os

from google.protobuf import text_format

from engine.lib_io import file_io
from engine.framework.graph import GraphKeys, get_default_graph
from engine.framework.operation import Operation
from engine.ops.control_flow.ops import group, no_op
from engine.ops.saver import Saver
from engine.ops.variables import global_variables_initializer, local_variables_initializer
from engine.proto import saved_model_pb2, saver_pb2, types_pb2
from engine.savedmodel import constants
from engine.savedmodel.signatures import predict_signature_def
from engine.framework.tensor import Tensor


def _write(path, data):
    """Write to a temporary file and rename it into place (no half-written saved_model.pb)."""
    file_io.write_atomically(path, data)


def _validate_tensor_info(tensor_info):
    if tensor_info is None:
        raise AssertionError("All TensorInfo protos used in the SignatureDefs must have the name "
                             "and dtype fields set.")
    encoding = tensor_info.WhichOneof("encoding")
    if encoding is None:
        raise AssertionError(
            f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the SignatureDefs "
            "must have one of the 'encoding' fields (e.g., name or coo_sparse) set.")
    if encoding == "composite_tensor":
        for component in tensor_info.composite_tensor.components:
            _validate_tensor_info(component)
    elif tensor_info.dtype == types_pb2.DT_INVALID:
        raise AssertionError(
            f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the SignatureDefs "
            "must have the dtype field set.")


def _validate_signature_def_map(signature_def_map):
    for signature in signature_def_map.values():
        for info in list(signature.inputs.values()) + list(signature.outputs.values()):
            _validate_tensor_info(info)
    for reserved, what in ((constants.INIT_OP_SIGNATURE_KEY, "initialization"),
                           (constants.TRAIN_OP_SIGNATURE_KEY, "the train op")):
        if reserved in signature_def_map:
            raise KeyError(f'SignatureDef map key "{reserved}" is reserved for {what}. '
                           "Please use a different key.")


class SavedModelBuilder:
    """Builds a SavedModel: variables once (add_meta_graph_and_variables), then more meta graphs."""

    def __init__(self, export_dir):
        self._saved_model = saved_model_pb2.SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._export_dir = os.fspath(export_dir)
        if os.path.exists(self._export_dir):
            if file_io.list_directory(self._export_dir):
                raise AssertionError(
                    f"Export directory {self._export_dir} already exists, and isn't empty. Please "
                    "choose a different export directory, or delete all the contents of the "
                    "specified directory.")
        else:
            file_io.recursively_create_dir(self._export_dir)
        self._has_saved_variables = False

    def _add_collections(self, assets_collection, main_op, train_op):
        if assets_collection:
            raise NotImplementedError("SavedModel assets (assets_collection) are not supported by "
                                      "the engine yet")
        graph = get_default_graph()
        if main_op is not None:
            if not isinstance(main_op, Operation):
                raise TypeError(f"Expected {main_op} to be an Operation but got type "
                                f"{type(main_op)} instead.")
            for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
                if graph.get_collection(key):
                    raise ValueError("Graph already contains one or more main ops under the "
                                     f"collection {key}.")
            # A graph collection, as TensorFlow keeps it: later meta graphs of the graph carry it too.
            graph.add_to_collection(constants.MAIN_OP_KEY, main_op)
        if train_op is not None:
            if not isinstance(train_op, (Tensor, Operation)):
                raise TypeError(f"`train_op` {train_op} needs to be a Tensor or Op.")
            graph.add_to_collection(constants.TRAIN_OP_KEY, train_op)

    @staticmethod
    def _maybe_create_saver(saver=None):
        if saver:
            return saver
        graph = get_default_graph()
        saveables = graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + \
            graph.get_collection(GraphKeys.SAVEABLE_OBJECTS)
        return Saver(saveables, sharded=True, write_version=saver_pb2.SaverDef.V2, allow_empty=True)

    def _tag_and_add_meta_graph(self, meta_graph_def, tags, signature_def_map):
        meta_graph_def.meta_info_def.tags.extend(tags)
        for key in signature_def_map:
            meta_graph_def.signature_def[key].CopyFrom(signature_def_map[key])
        self._saved_model.meta_graphs.add().CopyFrom(meta_graph_def)

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                       legacy_init_op=None, clear_devices=False, main_op=None,
                       strip_default_attrs=False, saver=None):
        """Add a meta graph of the current graph; its variables are the ones already saved."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved "
                                 "yet. Please invoke `add_meta_graph_and_variables()` first.")
        signature_def_map = signature_def_map or {}
        _validate_signature_def_map(signature_def_map)
        self._add_collections(assets_collection, main_op if main_op is not None else legacy_init_op, None)
        saver = self._maybe_create_saver(saver)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices,
                                                 strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Save the session's variables under variables/ and add the first meta graph."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been "
                                 "saved. Please invoke `add_meta_graph()` instead.")
        signature_def_map = signature_def_map or {}
        _validate_signature_def_map(signature_def_map)
        self._add_collections(assets_collection, main_op or legacy_init_op, None)
        variables_dir = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
        os.makedirs(variables_dir, exist_ok=True)
        saver = self._maybe_create_saver(saver)
        # No `checkpoint` state file: a SavedModel may be moved, and the loader does not read it.
        saver.save(sess, os.path.join(variables_dir, constants.VARIABLES_FILENAME),
                   write_meta_graph=False, write_state=False)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices,
                                                 strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._has_saved_variables = True

    def save(self, as_text=False):
        """Write saved_model.pb (saved_model.pbtxt with as_text); returns its path as bytes."""
        os.makedirs(self._export_dir, exist_ok=True)
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            _write(path, text_format.MessageToString(self._saved_model))
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            _write(path, self._saved_model.SerializeToString(deterministic=True))
        return path.encode()


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """One `serve` meta graph with a predict signature `serving_default`, devices cleared."""
    signature_def_map = {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                         predict_signature_def(inputs, outputs)}
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(session, tags=[constants.SERVING],
                                         signature_def_map=signature_def_map,
                                         assets_collection=get_default_graph().get_collection(
                                             GraphKeys.ASSET_FILEPATHS) or None,
                                         main_op=legacy_init_op, clear_devices=True)
    builder.save()


def main_op():
    """tf.saved_model.main_op.main_op: global, local variables' and tables' initializers as one op.

    Run by loader.load after the restore, it sets the global variables back to their initial
    values, as it does in TensorFlow."""
    # The engine has no lookup tables: their initializer is TensorFlow's empty one, a NoOp.
    return group(global_variables_initializer(), local_variables_initializer(),
                 no_op(name="init_all_tables"))


def main_op_with_restore(restore_op_name):
    with get_default_graph().control_dependencies([main_op()]):
        return group(get_default_graph().as_graph_element(restore_op_name), name="main_op_with_restore")
