"""Op families, each named once: the sets of op types every layer reads (data only).

Kernels, shape inference, planning, placement, frames, partitioning and the views ask these
sets whether an op belongs to a family; nothing else lists op names by family. This module
imports nothing, so any module of any package may read it. FAMILIES names them all, for
engine.api.registry (what is op X) and `graph-inspector info --ops`.

>>> "Relu" in UNARY, "AddV2" in BINARY, "RefEnter" in CONTROL_FLOW
(True, True, True)
>>> sorted(SEND_RECV)
['_HostRecv', '_HostSend', '_Recv', '_Send']
"""

# Elementwise ops of one input: the CPU kernel table of engine/kernels/cpu/math.py (and the
# GPU's built from it); shape inference gives them their input's shape.
UNARY = frozenset({
    "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos",
    "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Erf", "Erfc", "Sigmoid", "Relu",
    "Relu6", "Elu", "Selu", "Softplus", "Softsign", "Sign", "Round", "Floor", "Ceil",
    "Reciprocal", "Inv", "IsNan", "IsInf", "IsFinite", "LogicalNot",
    # math, complex numbers' parts, bits
    "Acosh", "Asinh", "Atanh", "Rint", "Real", "Imag", "Conj", "Angle", "ComplexAbs", "Invert",
})

# Elementwise ops of two inputs that broadcast (TensorFlow's BinaryOpShared).
BINARY = frozenset({
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Mod",
    "TruncateDiv", "TruncateMod", "DivNoNan", "Maximum", "Minimum", "Pow",
    "SquaredDifference", "Atan2", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
    "NotEqual", "LogicalAnd", "LogicalOr",
    "NextAfter", "Complex", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift",
})

# The gradients of elementwise activations: (gradients, features or outputs) -> backprops,
# all of one shape.
ACTIVATION_GRADS = frozenset({
    "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "TanhGrad", "SigmoidGrad", "SqrtGrad",
    "RsqrtGrad", "ReciprocalGrad", "InvGrad", "SoftplusGrad", "SoftsignGrad", "LeakyReluGrad",
})

# Reductions over reduction_indices with keep_dims.
REDUCTIONS = frozenset({"Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm"})

# Send/Recv: the transfers partitioning inserts between devices.
SEND = frozenset({"_Send", "_HostSend"})
RECV = frozenset({"_Recv", "_HostRecv"})
SEND_RECV = SEND | RECV

# Control flow v1: the ops that make values dead or move them between frames and iterations
# (plans holding any run on the frame-aware loop, engine/runtime/frames.py).
SWITCH = frozenset({"Switch", "RefSwitch"})
MERGE = frozenset({"Merge", "RefMerge"})
ENTER = frozenset({"Enter", "RefEnter"})
EXIT = frozenset({"Exit", "RefExit"})
NEXT_ITERATION = frozenset({"NextIteration", "RefNextIteration"})
CONTROL_FLOW = SWITCH | MERGE | ENTER | EXIT | NEXT_ITERATION | {"LoopCond", "ControlTrigger"}

# Functional control flow and function calls: kernels that run a function of the library.
FUNCTIONAL = frozenset({
    "If", "StatelessIf", "While", "StatelessWhile", "Case", "StatelessCase",
    "PartitionedCall", "StatefulPartitionedCall",
})

IDENTITY = frozenset({"Identity", "RefIdentity"})
# Ops that read only their input's metadata; the placer keeps them with their input.
METADATA = frozenset({"Shape", "ShapeN", "Size", "Rank"})

# Kernels TensorFlow marks inexpensive (OpKernel::IsExpensive() false): its executor runs
# them inline before the expensive ones that became ready at the same time.
INEXPENSIVE = frozenset({
    "_Arg", "_Retval", "_SOURCE", "Const", "HostConst", "NoOp", "IdentityN", "StopGradient",
    "PreventGradient", "Snapshot", "Reshape", "ExpandDims", "Squeeze",
}) | IDENTITY | METADATA | CONTROL_FLOW

# Ops whose outputs are reference-typed (Ref(T) in their OpDefs), TensorFlow's included.
REF_PRODUCERS = frozenset({
    "Variable", "VariableV2", "TemporaryVariable", "Assign", "AssignAdd", "AssignSub",
    "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterNdUpdate",
    "ScatterNdAdd", "ScatterNdSub", "ScatterMin", "ScatterMax", "RefIdentity", "RefEnter", "RefExit", "RefMerge",
    "RefNextIteration", "RefSwitch", "RefSelect",
})
# Ops whose first output is a resource handle although their dtype attr names the value type.
RESOURCE_PRODUCERS = frozenset({
    "VarHandleOp", "_VarHandlesOp", "HashTableV2", "MutableHashTableV2",
    "MutableHashTableOfTensorsV2", "MutableDenseHashTableV2", "IteratorV2", "Iterator",
    "AnonymousIteratorV2", "MultiDeviceIterator", "StackV2", "TensorArrayV3",
    "FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2",
    "TFRecordReaderV2", "TextLineReaderV2",
    "FixedLengthRecordReaderV2", "WholeFileReaderV2", "ResourceConditionalAccumulator",
    "MutexV2",
})

# Ops the executor runs itself, without a kernel: a plan's feeds and fetches.
EXECUTOR_BUILTIN = frozenset({"_Arg", "_Retval"})

# Ops with an OpDef and no kernel yet: graphs holding them import, show and partition, and a
# run reaching one fails with TensorFlow's no-kernel error. An op leaves this set when it
# gets a kernel (tests/engine/test_op_registry.py fails until it does).
GRAPH_ONLY = frozenset({
    "Abort", "DestroyTemporaryVariable",
    "Reverse", "SymbolicGradient", "_ArrayToList", "_ListToArray",
    # engine/ops/program_op_defs.pbtxt: the real programs' ops, kernels to come.
    "InTopK",
})

FAMILIES = {
    "unary": UNARY, "binary": BINARY, "activation_grad": ACTIVATION_GRADS,
    "reduction": REDUCTIONS, "send_recv": SEND_RECV, "control_flow": CONTROL_FLOW,
    "functional": FUNCTIONAL, "identity": IDENTITY, "metadata": METADATA,
    "inexpensive": INEXPENSIVE, "ref_producer": REF_PRODUCERS,
    "resource_producer": RESOURCE_PRODUCERS, "executor_builtin": EXECUTOR_BUILTIN,
    "graph_only": GRAPH_ONLY,
}


def families_of(op_type):
    """The names of the families `op_type` belongs to, in FAMILIES order.

    >>> families_of("Merge"), families_of("Relu")
    (('control_flow', 'inexpensive'), ('unary',))
    """
    return tuple(name for name, ops in FAMILIES.items() if op_type in ops)
