"""Shape functions of the elementwise ops: unary ops keep their input's shape, binary ones
broadcast, AddN and Select merge; scalar-valued ops."""

from engine.shape_inference.dims import _dims, broadcast, merge


def unchanged(attrs, inputs):
    return _dims(inputs[0])


def binary(attrs, inputs):
    return broadcast(_dims(inputs[0]), _dims(inputs[1]))


def add_n(attrs, inputs):
    result = None
    for info in inputs:
        result = merge(result, _dims(info))
    return result


def select(attrs, inputs):
    return merge(_dims(inputs[1]), _dims(inputs[2]))


def select_v2(attrs, inputs):
    return broadcast(broadcast(_dims(inputs[0]), _dims(inputs[1])), _dims(inputs[2]))


def scalar(attrs, inputs):
    return []


UNARY = ("Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin",
         "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Erf", "Erfc",
         "Sigmoid", "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "Sign", "Round",
         "Floor", "Ceil", "Reciprocal", "Inv", "IsNan", "IsInf", "IsFinite", "LogicalNot",
         "LeakyRelu", "Cast", "Identity", "StopGradient", "PreventGradient", "Snapshot",
         "CheckNumerics", "ZerosLike", "OnesLike", "Softmax", "LogSoftmax", "BiasAdd",
         "BiasAddV1", "ReverseV2", "Cumsum", "Cumprod", "ClipByValue", "Assign", "AssignAdd",
         "AssignSub", "InvertPermutation", "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad",
         "TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
         "SoftplusGrad", "SoftsignGrad", "LeakyReluGrad", "RandomShuffle")


BINARY = ("Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Mod",
          "TruncateDiv", "TruncateMod", "DivNoNan", "Maximum", "Minimum", "Pow",
          "SquaredDifference", "Atan2", "Less", "LessEqual", "Greater", "GreaterEqual",
          "Equal", "NotEqual", "LogicalAnd", "LogicalOr")


SCALARS = ("Size", "Rank", "L2Loss", "IsVariableInitialized", "VarIsInitializedOp",
           "VarHandleOp")
