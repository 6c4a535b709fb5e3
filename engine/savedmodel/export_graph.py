"""The graph a TF2 SavedModel's meta graph holds, as TensorFlow's save builds it: a VarHandleOp
per variable (named after it, and `<name>/Read/ReadVariableOp`), per signature a Placeholder per
input (`<key>_<input>`) and a StatefulPartitionedCall of its wrapper, `NoOp` (the init op),
`Const` (the object graph), `saver_filename` and the calls of the save and restore functions
its SaverDef names (a TF1 loader, saved_model_cli and the engine's `run --signature` restore
through them; TensorFlow's TF2 loader through the object graph); the library holds the kept
functions and every function they call.
"""

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.framework import dtypes
from engine.framework.graph import Graph, get_default_graph
from engine.framework.type_spec import TensorSpec
from engine.framework.function_graph import called_functions
from engine.ops.array_ops import identity
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import no_op
from engine.ops.def_function import Function
from engine.ops.op_def_library import apply_op
from engine.proto import meta_graph_pb2, saver_pb2
from engine.savedmodel import constants
from engine.savedmodel.saved_objects import CapturedConstant
from engine.savedmodel.signatures import build_tensor_info
from engine.training.object_saver import save_ops, serialized_handle_value


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
    """The meta graph's GraphDef pieces: the tensors standing for the captured variables and
    constants by node id, signature defs, SaverDef."""

    def __init__(self, source, saved, bound_inputs, object_graph):
        self.graph = graph = Graph()
        self.signature_defs = {}
        kept = [c.name.decode() for c in saved.concrete_functions()]
        with graph.as_default():
            for name in _function_closure(source, kept):
                graph._add_function(source._get_function(name))
            # The captured constants first (TensorFlow maps them into the graph first).
            self.handles, self.constant_operations = {}, {}
            for node_id, obj in enumerate(saved.objects):
                if isinstance(obj, CapturedConstant):
                    tensor = constant(obj.value, dtype=obj.tensor.dtype, name="Const")
                    self.handles[node_id] = tensor
                    self.constant_operations[id(obj)] = tensor.op.name
            variables = saved.variables()
            # TensorFlow makes the handles in the reverse of the objects' order.
            for node_id, _, variable in reversed(variables):
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
        stateful = wrapper.function_def.signature.is_stateful
        call = apply_op("StatefulPartitionedCall" if stateful else "PartitionedCall",
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
        """saver_filename, the calls of `__inference__traced_save_N` (a sharded SaveV2 of
        every variable and the object graph, merged) and `__inference__traced_restore_N` (a
        RestoreV2 and its assignments), and the SaverDef naming them, as TensorFlow builds
        them."""
        graph = self.graph
        keys = [key for _, key, _ in variables]
        types = [variable.dtype.base_dtype for _, _, variable in variables]
        handles = [self.handles[node_id] for node_id, _, _ in variables]
        prefix_spec = [TensorSpec([], dtypes.string, name="file_prefix")]

        def _traced_save(file_prefix):
            inner = get_default_graph()
            return save_ops(inner, file_prefix, keys + [OBJECT_GRAPH_KEY],
                            [""] * (len(keys) + 1), lambda: [
                                serialized_handle_value(inner, h, t)
                                for h, t in zip(handles, types)] + [graph_tensor])

        def _traced_restore(file_prefix):
            inner = get_default_graph()
            assigns = []
            if keys:
                with inner.device("/device:CPU:0"):
                    restored = apply_op("RestoreV2", prefix=file_prefix, tensor_names=keys,
                                        shape_and_slices=[""] * len(keys), dtypes=types)
                    restored = restored if isinstance(restored, list) else [restored]
                    for handle, value in zip(handles, restored):
                        assigns.append(apply_op("AssignVariableOp", resource=handle,
                                                value=identity(value)))
            with inner.device("/device:CPU:0"), inner.control_dependencies(assigns):
                return identity(file_prefix)

        filename = apply_op("Placeholder", name="saver_filename", dtype=dtypes.string, shape=[])
        save = Function(_traced_save, "_traced_save", input_signature=prefix_spec)
        restore = Function(_traced_restore, "_traced_restore", input_signature=prefix_spec)
        save_path = save(filename)
        restore = restore.get_concrete_function()
        # Stateful without variables too: TensorFlow's body then holds a RestoreV2 of no
        # tensors, which the engine's op checks refuse (its OpDef asks for one dtype at least).
        restore.function_def.signature.is_stateful = True
        restored = restore(filename)
        return saver_pb2.SaverDef(filename_tensor_name=filename.name,
                                  save_tensor_name=save_path.name, restore_op_name=restored.op.name,
                                  version=saver_pb2.SaverDef.V2)
