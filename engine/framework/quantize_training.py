"""tf.train.do_quantize_training_on_graphdef: TensorFlow's GraphDef rewriter for quantized
training (core/common_runtime/quantize_training.cc), node for node. Every data input of a
MatMul or Conv2D (outside "gradients") goes through a QuantizeAndDequantizeV2 of num_bits:
its range the activation's (Relu6 [0, 6], Sigmoid [0, 1], Tanh [-1, 1]) or else moving
averages of the input's min and max kept in new VariableV2s (initialised from the first
run's min and max through IsVariableInitialized, Switch and Merge, decay 0.999). When the
graph has a SaveV2 and save/restore_all, the new variables are saved and restored too.
As TensorFlow's, a quantized input reads its source node's first output, and more than two
inputs of unknown kind (treated as the model's inputs) are refused."""

import numpy as np

from engine.framework import errors, op_registry
from engine.framework.tensor_util import make_tensor_proto
from engine.proto import attr_value_pb2, graph_pb2, types_pb2

_REWRITTEN = ("MatMul", "Conv2D")
_ALLOWED_UNKNOWN_INPUTS = 2
_EMA_DECAY = np.float32(0.999)
_FLOAT = types_pb2.DT_FLOAT


def _node_name(input_name):
    return input_name.lstrip("^").split(":")[0]


class _Rewriter:
    def __init__(self, graph_def):
        self.graph = graph_pb2.GraphDef()
        self.graph.CopyFrom(graph_def)
        self.nodes = {node.name: node for node in self.graph.node}
        self.name_counter = 0

    def add(self, name, op, inputs=(), **attrs):
        node = self.graph.node.add(name=name, op=op, input=list(inputs))
        for key, value in attrs.items():
            node.attr[key].CopyFrom(value)
        op_def = op_registry.lookup(op)
        for attr in op_def.attr:
            if attr.name not in node.attr and attr.HasField("default_value"):
                node.attr[attr.name].CopyFrom(attr.default_value)
        self.nodes[name] = node
        return node

    def const(self, name, value, dtype):
        tensor = make_tensor_proto(np.asarray(value, dtype))
        return self.add(name, "Const", dtype=_type(tensor.dtype),
                        value=attr_value_pb2.AttrValue(tensor=tensor))

    def find_type(self, node):
        """(known, signed_input, range_given, min, max) of a quantized input's source."""
        op = node.op
        if op in ("Const", "Variable", "VariableV2"):
            return True, True, False, 0.0, 0.0
        if op == "Relu":
            return True, False, False, 0.0, 0.0
        if op == "Relu6":
            return True, False, True, 0.0, 6.0
        if op == "Sigmoid":
            return True, False, True, 0.0, 1.0
        if op == "Tanh":
            return True, True, True, -1.0, 1.0
        if op in ("Reshape", "ConcatV2", "Identity", "MaxPool", "AvgPool", "MaxPool3D",
                  "AvgPool3D"):
            found = (False, False, 0.0, 0.0)
            data = [i for i in node.input if not i.startswith("^")]
            for index, source in enumerate(data):
                if op in ("Reshape", "ConcatV2") and index != 0:
                    continue
                found = self.find_type(self.nodes[_node_name(source)])[1:]
            return (True, *found)
        return False, True, False, 0.0, 0.0

    def new_name(self, prefix):
        name = f"{prefix}/_{self.name_counter}"
        self.name_counter += 1
        return name

    def reduction_axes(self, prefix, source):
        prefix = f"{prefix}/ReductionAxes"
        start = self.const(f"{prefix}/RangeStart", 0, np.int32)
        delta = self.const(f"{prefix}/RangeDelta", 1, np.int32)
        rank = self.add(f"{prefix}/InputRank", "Rank", [source], T=_type(_FLOAT))
        return self.add(f"{prefix}/ReductionAxes", "Range", [start.name, rank.name, delta.name],
                        Tidx=_type(types_pb2.DT_INT32))

    def moving_average(self, prefix, value, decay, variables):
        variable = self.add(f"{prefix}/Variable", "VariableV2", dtype=_type(_FLOAT),
                            shape=attr_value_pb2.AttrValue(shape={}))
        variables.append(variable)
        is_initialized = self.add(f"{prefix}/IsInitialized", "IsVariableInitialized",
                                  [variable.name], dtype=_type(_FLOAT))
        switch = self.add(f"{prefix}/Switch", "Switch", [value, is_initialized.name],
                          T=_type(_FLOAT))
        one = self.const(f"{prefix}/EMA/OneConst", 1.0, np.float32)
        complement = self.add(f"{prefix}/EMA/DecayComplement", "Sub", [one.name, decay],
                              T=_type(_FLOAT))
        diff = self.add(f"{prefix}/EMA/ValueDiff", "Sub", [variable.name, f"{switch.name}:1"],
                        T=_type(_FLOAT))
        update = self.add(f"{prefix}/EMA/UpdateValue", "Mul", [diff.name, complement.name],
                          T=_type(_FLOAT))
        ema = self.add(f"{prefix}/EMA/EMAValue", "Sub", [variable.name, update.name],
                       T=_type(_FLOAT))
        merge = self.add(f"{prefix}/Merge", "Merge", [switch.name, ema.name], T=_type(_FLOAT),
                         N=attr_value_pb2.AttrValue(i=2))
        return self.add(f"{prefix}/AssignValue", "Assign", [variable.name, merge.name],
                        T=_type(_FLOAT))

    def quantize_op(self, prefix, source, edge, num_bits, variables):
        _, signed_input, range_given, input_min, input_max = edge
        if range_given:
            low = self.const(f"{prefix}/InputMin", input_min, np.float32).name
            high = self.const(f"{prefix}/InputMax", input_max, np.float32).name
        else:
            decay = self.const(f"{prefix}/Decay", _EMA_DECAY, np.float32)
            axes = self.reduction_axes(prefix, source)
            reduced = {}
            for kind in ("Min", "Max"):
                reduced[kind] = self.add(f"{prefix}/{kind}", kind, [source, axes.name],
                                         T=_type(_FLOAT), Tidx=_type(types_pb2.DT_INT32))
            low = self.moving_average(reduced["Min"].name, reduced["Min"].name, decay.name,
                                      variables).name
            high = self.moving_average(reduced["Max"].name, reduced["Max"].name, decay.name,
                                       variables).name
        return self.add(f"{prefix}/QuantizeAndDequantizeV2", "QuantizeAndDequantizeV2",
                        [source, low, high], T=_type(_FLOAT),
                        signed_input=attr_value_pb2.AttrValue(b=signed_input),
                        num_bits=attr_value_pb2.AttrValue(i=num_bits),
                        range_given=attr_value_pb2.AttrValue(b=True))

    def rewrite(self, num_bits):
        targets, unknown = [], 0
        for node in list(self.graph.node):
            if node.op not in _REWRITTEN or node.name.startswith("gradients"):
                continue
            for index, source in enumerate(node.input):
                if source.startswith("^"):
                    continue
                source_node = self.nodes[_node_name(source)]
                kind = self.find_type(source_node)
                if not kind[0]:
                    unknown += 1
                    if unknown > _ALLOWED_UNKNOWN_INPUTS:
                        # TensorFlow's Unimplemented status reaches Python as this class
                        raise NotImplementedError(
                            f"Found an unknown op: {source_node.name} with type: "
                            f"{source_node.op}; Unknown ops are considered as model input for "
                            f"now and only {_ALLOWED_UNKNOWN_INPUTS} inputs are supported "
                            "currently.")
                targets.append((node, index, source_node.name, kind))
        converted, variables = {}, []
        for node, index, source, kind in targets:
            if source not in converted:
                converted[source] = self.quantize_op(source, source, kind, num_bits, variables)
            node.input[index] = converted[source].name
        self.save_and_restore(variables)
        return self.graph

    def save_and_restore(self, variables):
        saves = [node for node in self.graph.node if node.op == "SaveV2"]
        if len(saves) > 1:
            raise errors.InvalidArgumentError(None, None, "Input graph has multiple SaveV2 ops.")
        if not saves:
            return
        save = saves[0]
        prefix = save.name.rsplit("/", 1)[0] if "/" in save.name else ""
        restore_all = self.nodes.get(f"{prefix}/restore_all")
        if restore_all is None:
            return
        save_inputs = [i for i in save.input if not i.startswith("^")]
        for variable in variables:
            restore_name = self.new_name(f"{prefix}/RestoreV2") + "_qt"
            assign_name = self.new_name(f"{prefix}/Assign") + "_qt"
            names = self.const(f"{restore_name}/tensor_names", [variable.name.encode()],
                               object)
            slices = self.const(f"{restore_name}/shape_and_slices", [b""], object)
            restore = self.add(restore_name, "RestoreV2",
                               [_node_name(save_inputs[0]), names.name, slices.name],
                               dtypes=attr_value_pb2.AttrValue(
                                   list=attr_value_pb2.AttrValue.ListValue(type=[_FLOAT])))
            assign = self.add(assign_name, "Assign", [variable.name, restore.name],
                              T=_type(_FLOAT))
            restore_all.input.append(f"^{assign.name}")
        self.connect_to_save(save, save_inputs, variables)

    def connect_to_save(self, save, save_inputs, variables):
        names_node = self.nodes[_node_name(save_inputs[1])]
        slices_node = self.nodes[_node_name(save_inputs[2])]
        from engine.framework.tensor_util import MakeNdarray
        names = list(MakeNdarray(names_node.attr["value"].tensor).reshape(-1))
        slices = list(MakeNdarray(slices_node.attr["value"].tensor).reshape(-1))
        names += [v.name.encode() for v in variables]
        slices += [b""] * len(variables)
        names_node.attr["value"].tensor.CopyFrom(_string_tensor(names))
        slices_node.attr["value"].tensor.CopyFrom(_string_tensor(slices))
        tensors = [_node_name(i) for i in save_inputs[3:]] + [v.name for v in variables]
        dtypes = list(save.attr["dtypes"].list.type) + [_FLOAT] * len(variables)
        name = save.name
        index = list(self.graph.node).index(save)
        del self.graph.node[index]
        self.add(name, "SaveV2", [_node_name(i) for i in save_inputs[:3]] + tensors,
                 dtypes=attr_value_pb2.AttrValue(
                     list=attr_value_pb2.AttrValue.ListValue(type=dtypes)))


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string_tensor(values):
    """A string vector as TensorFlow's SetAttrValue(Tensor) writes one of several elements:
    tensor_content, the lengths as varints and then the bytes (AsProtoTensorContent)."""
    if len(values) <= 1:
        return make_tensor_proto(np.array(values, object))
    tensor = make_tensor_proto(np.array(values, object))
    del tensor.string_val[:]
    tensor.tensor_content = (b"".join(_varint(len(v)) for v in values) + b"".join(values))
    return tensor


def _type(dtype):
    return attr_value_pb2.AttrValue(type=dtype)


def do_quantize_training_on_graphdef(input_graph, num_bits):
    """The GraphDef with quantized training's nodes added (TensorFlow's rewrite)."""
    if num_bits < 1 or num_bits > 63:
        # TensorFlow's OutOfRange status, as its pybind wrapper raises it
        raise IndexError(f"num_bits should be in range [1, 63] but is: {num_bits}")
    return _Rewriter(input_graph).rewrite(num_bits)
