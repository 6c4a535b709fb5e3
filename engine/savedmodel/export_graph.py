"""The graph a TF2 SavedModel's meta graph holds, as TensorFlow's save builds it: a VarHandleOp
per variable (named after it, and `<name>/Read/ReadVariableOp`), per signature a Placeholder per
input (`<key>_<input>`) and a StatefulPartitionedCall of its wrapper, `NoOp` (the init op),
`Const` (the object graph), `saver_filename` and the ops its SaverDef names; the library holds
the kept functions and every function they call.

TensorFlow builds the save and restore ops as functions (`__inference__traced_save_N`); here
they are plain ops: a TF1 loader (tf.compat.v1.saved_model.load, saved_model_cli, the engine's
`run --signature`) uses them through the SaverDef alike, and TensorFlow's TF2 loader restores
through the object graph instead.
"""

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.framework import dtypes
from engine.framework.graph import Graph
from engine.framework.function_graph import called_functions
from engine.ops.array_ops import identity
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import group, no_op
from engine.ops.op_def_library import apply_op
from engine.proto import meta_graph_pb2, saver_pb2
from engine.savedmodel import constants
from engine.savedmodel.signatures import build_tensor_info


def _function_closure(source, names):
    """`names` and every function they call (nested ones too), callers first."""
    order, queue = [], list(names)
    while queue:
        name = queue.pop(0)
        if name in order:
            continue
        order.append(name)
        for node in source._get_function(name).node_def:
            queue.extend(f for f in called_functions(node, source._functions)
                         if source._is_function(f))
    return order


class ExportGraph:
    """The meta graph's GraphDef pieces: handles by variable node id, signature defs, SaverDef."""

    def __init__(self, source, saved, bound_inputs, object_graph):
        self.graph = graph = Graph()
        self.signature_defs = {}
        kept = [c.name.decode() for c in saved.concrete_functions()]
        with graph.as_default():
            for name in _function_closure(source, kept):
                graph._add_function(source._get_function(name))
            self.handles = {}
            variables = saved.variables()
            for node_id, _, variable in variables:
                name, dtype = variable.op.name, variable.dtype.base_dtype
                handle = apply_op("VarHandleOp", name=name, shared_name=name, dtype=dtype,
                                  shape=variable.shape)
                with graph.name_scope(f"{handle.op.name}/Read"):
                    apply_op("ReadVariableOp", resource=handle, dtype=dtype, name="ReadVariableOp")
                self.handles[node_id] = handle
            for key in sorted(saved.signatures):  # TensorFlow builds them by key
                wrapper = saved.signatures[key]
                self._add_signature(key, wrapper, bound_inputs[wrapper.name.decode()])
            init = no_op(name="NoOp")
            info = self.signature_defs[constants.INIT_OP_SIGNATURE_KEY] = meta_graph_pb2.SignatureDef()
            init_info = info.outputs[constants.INIT_OP_SIGNATURE_KEY]
            init_info.name = init.name
            init_info.tensor_shape.unknown_rank = True
            self.init_op = init
            with graph.device("/device:CPU:0"):
                graph_tensor = constant(object_graph.SerializeToString(), name="Const")
            self.saver_def = self._saver(variables, graph_tensor)

    def _add_signature(self, key, wrapper, bound):
        specs = list(wrapper.structured_input_signature[0])
        placeholders = [apply_op("Placeholder", name=f"{key}_{spec.name}", dtype=spec.dtype,
                                 shape=spec.shape) for spec in specs]
        call = apply_op("StatefulPartitionedCall",
                        args=placeholders + [self.handles[node_id] for node_id in bound],
                        Tout=[t.dtype for t in wrapper.outputs], f=wrapper.name.decode())
        signature = self.signature_defs[key] = meta_graph_pb2.SignatureDef(
            method_name=constants.PREDICT_METHOD_NAME)
        for spec, placeholder in zip(specs, placeholders):
            signature.inputs[spec.name].CopyFrom(build_tensor_info(placeholder))
        # The wrapper returns a dict: its outputs are its values in sorted key order.
        for out_key, output, result in zip(sorted(wrapper.structured_outputs), wrapper.outputs, call):
            result.set_shape(output.shape)
            signature.outputs[out_key].CopyFrom(build_tensor_info(result))

    def _saver(self, variables, graph_tensor):
        """saver_filename, a SaveV2 of every variable and the object graph, a RestoreV2 and
        its assignments; the SaverDef naming them."""
        graph = self.graph
        with graph.device("/device:CPU:0"):
            filename = apply_op("Placeholder", name="saver_filename", dtype=dtypes.string, shape=[])
            keys = [key for _, key, _ in variables]
            types = [variable.dtype.base_dtype for _, _, variable in variables]
            handles = [self.handles[node_id] for node_id, _, _ in variables]
            with graph.name_scope("save"):
                reads = [apply_op("ReadVariableOp", resource=h, dtype=t) for h, t in zip(handles, types)]
                save = apply_op("SaveV2", prefix=filename,
                                tensor_names=constant(keys + [OBJECT_GRAPH_KEY], dtype=dtypes.string),
                                shape_and_slices=constant([""] * (len(keys) + 1), dtype=dtypes.string),
                                tensors=reads + [graph_tensor])
                with graph.control_dependencies([save]):
                    save_path = identity(filename)
            with graph.name_scope("restore"):
                if keys:
                    restored = apply_op("RestoreV2", prefix=filename,
                                        tensor_names=constant(keys, dtype=dtypes.string),
                                        shape_and_slices=constant([""] * len(keys), dtype=dtypes.string),
                                        dtypes=types)
                    restored = restored if isinstance(restored, list) else [restored]
                    assigns = [apply_op("AssignVariableOp", resource=h, value=identity(value))
                               for h, value in zip(handles, restored)]
                    restore = group(*assigns, name="restore_all")
                else:
                    restore = no_op(name="restore_all")
        return saver_pb2.SaverDef(filename_tensor_name=filename.name,
                                  save_tensor_name=save_path.name, restore_op_name=restore.name,
                                  version=saver_pb2.SaverDef.V2)
