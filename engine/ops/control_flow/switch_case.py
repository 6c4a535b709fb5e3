"""tf.switch_case as TensorFlow 2.21 builds it in a graph (cond_v2.indexed_case): each branch
traced into a function, one StatelessCase (Case where a branch holds a stateful op) over the
union of what the branches capture, marked to be lowered to _SwitchN and Merge before it runs,
and an Identity per output."""

import itertools

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.nest import flatten, pack_sequence_as
from engine.ops.op_def_library import apply_op
from engine.proto import attr_value_pb2

_UIDS = itertools.count(1)


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """The outputs of branch_fns[branch_index]() (of `default`, or of the last branch, when
    the index is out of range): every branch has the same structure of outputs."""
    branch_fns = _verify_and_canonicalize(branch_fns, default, branch_index)
    with name_scope(name, "case", [branch_index]):
        return _indexed_case(branch_index, branch_fns)


def _verify_and_canonicalize(branch_fns, default, branch_index):
    """control_flow_switch_case._indexed_case_verify_and_canonicalize_args."""
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = branch_fns.items()
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for key_fn_pair in branch_fns:
        if not isinstance(key_fn_pair, tuple) or len(key_fn_pair) != 2:
            raise TypeError("Each entry in 'branch_fns' must be a 2-tuple. "
                            f"Received {key_fn_pair}.")
        key, branch_fn = key_fn_pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(branch_fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError("branch indices (keys) must form contiguous range of [0 to "
                         f"{len(keys)}) but found {{{','.join(map(str, sorted(keys)))}}}")
    actions = [p[1] for p in sorted(branch_fns, key=lambda pair: pair[0])]
    if default is not None:
        actions.append(default)
    return actions


class _Branch:
    """One branch traced: its graph, flat outputs (Identity nodes) and output structure."""

    def __init__(self, name, fn, outer):
        from engine.data.tracing import FunctionGraph
        self.name = name
        self.graph = FunctionGraph(outer)
        with self.graph.as_default():
            self.structure = fn()
            flat = [convert_to_tensor(value) for value in flatten(self.structure)]
            self.outputs = [apply_op("Identity", name="Identity", input=t) for t in flat]

    def function_def(self, inputs):
        """The FunctionDef whose arguments are `inputs` (outer tensors, each this branch's
        capture of it or an argument it leaves unused)."""
        from engine.data.tracing import function_def_from_ops
        captured = {id(outer): placeholder for outer, placeholder in self.graph.captures}
        arguments = []
        with self.graph.as_default(), self.graph.name_scope(None):
            for index, tensor in enumerate(inputs):
                placeholder = captured.get(id(tensor))
                if placeholder is None:
                    placeholder = apply_op("Placeholder", name=f"unused_input_{index}",
                                           dtype=tensor.dtype, shape=tensor.shape)
                arguments.append((placeholder.op, placeholder.op.name))
        out_names = ["identity" if i == 0 else f"identity_{i}"
                     for i in range(len(self.outputs))]
        return function_def_from_ops(self.name, self.graph.get_operations(), arguments,
                                     list(zip(self.outputs, out_names)))

    def is_stateful(self):
        return any(_op_is_stateful(op) for op in self.graph.get_operations())


# auto_control_deps.op_is_stateful's exceptions: stateful ops that do not make a Case.
_NOT_ORDERED = frozenset({
    "CollectiveGather", "CollectiveReduce", "CollectiveBcastSend", "CollectiveBcastSendV2",
    "CollectiveBcastRecv", "CollectiveBcastRecvV2", "NcclAllReduce", "Send", "Recv",
    "CollectiveInitializeCommunicator", "CollectiveAssignGroupV2",
    "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "ParameterizedTruncatedNormal",
    "TruncatedNormal", "RandomShuffle", "Multinomial", "RandomGamma", "RandomGammaGrad",
    "RandomPoisson", "RandomPoissonV2",
    "CudnnRNN", "CudnnRNNBackprop", "CudnnRNNV2", "CudnnRNNV3", "CudnnRNNBackpropV2",
    "CudnnRNNBackpropV3", "RestoreV2", "SaveV2"})


def _op_is_stateful(op):
    return op.op_def.is_stateful and op.type not in _NOT_ORDERED


def _indexed_case(branch_index, branch_fns):
    graph = get_default_graph()
    with name_scope("indexed_case") as scope:
        names = [f"{scope}branch{b}_{next(_UIDS)}".replace("/", "_")
                 for b in range(len(branch_fns))]
        branch_index = convert_to_tensor(branch_index, name="branch_index")
        branches = [_Branch(name, fn, graph) for name, fn in zip(names, branch_fns)]
        _check_same_outputs(branches)
        inputs = []
        for branch in branches:
            for outer, _ in branch.graph.captures:
                if not any(outer is seen for seen in inputs):
                    inputs.append(outer)
        for branch in branches:
            graph._add_function(branch.function_def(inputs))
        op_type = "Case" if any(b.is_stateful() for b in branches) else "StatelessCase"
        tensors = apply_op(op_type, branch_index=branch_index, input=inputs,
                           Tout=[t.dtype for t in branches[0].outputs],
                           branches=[attr_value_pb2.NameAttrList(name=b.name)
                                     for b in branches],
                           output_shapes=_output_shapes(branches), name=scope)
        if isinstance(tensors, Tensor):
            tensors = [tensors]
        elif not isinstance(tensors, list):
            tensors = []  # no outputs: the op itself
        if tensors:
            case_op = tensors[0].op
            case_op._set_attr("_lower_using_switch_merge", attr_value_pb2.AttrValue(b=True))
            read_only = attr_value_pb2.AttrValue()
            read_only.list.SetInParent()
            case_op._set_attr("_read_only_resource_inputs", read_only)
        tensors = [array_ops.identity(t) for t in tensors]
    return pack_sequence_as(branches[0].structure, tensors)


def _check_same_outputs(branches):
    first = branches[0]
    for index, branch in enumerate(branches[1:], 1):
        detail = None
        if len(branch.outputs) != len(first.outputs):
            detail = (f"branch0 has {len(first.outputs)} outputs, branch{index} has "
                      f"{len(branch.outputs)}")
        else:
            for a, b in zip(first.outputs, branch.outputs):
                if a.dtype != b.dtype:
                    detail = f"{a.dtype.name} and {b.dtype.name} differ"
                    break
        if detail is not None:
            raise TypeError(f"branch0 and branch{index} arguments to Case must have the same "
                            f"number, type, and overall structure of return values.\n\n"
                            f"Error details:\n{detail}")


def _output_shapes(branches):
    """Per output, the most specific shape every branch's output is compatible with."""
    shapes = []
    for outputs in zip(*(b.outputs for b in branches)):
        dims = outputs[0].shape.as_list() if outputs[0].shape.ndims is not None else None
        for other in outputs[1:]:
            other_dims = other.shape.as_list() if other.shape.ndims is not None else None
            if dims is None or other_dims is None or len(dims) != len(other_dims):
                dims = None
            else:
                dims = [d if d == e else None for d, e in zip(dims, other_dims)]
        shapes.append(TensorShape(dims))
    return shapes

