"""Special math as TF 1.x builds it: tf.lgamma, tf.digamma, tf.igamma, tf.igammac, tf.betainc,
tf.math.polygamma, tf.math.zeta, tf.math.bessel_i0e/i1e, tf.math.xlogy/xdivy/xlog1py,
tf.math.multiply_no_nan, tf.log_sigmoid and tf.nn.swish (the same nodes, named as
TensorFlow 2.21's tf.compat.v1 names them)."""

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.cast import cast
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


def lgamma(x, name=None):
    return apply_op("Lgamma", x=x, name=name)


def digamma(x, name=None):
    return apply_op("Digamma", x=x, name=name)


def igamma(a, x, name=None):
    return apply_op("Igamma", a=a, x=x, name=name)


def igammac(a, x, name=None):
    return apply_op("Igammac", a=a, x=x, name=name)


def betainc(a, b, x, name=None):
    return apply_op("Betainc", a=a, b=b, x=x, name=name)


def polygamma(a, x, name=None):
    return apply_op("Polygamma", a=a, x=x, name=name)


def zeta(x, q, name=None):
    return apply_op("Zeta", x=x, q=q, name=name)


def xlogy(x, y, name=None):
    return apply_op("Xlogy", x=x, y=y, name=name)


def xdivy(x, y, name=None):
    with name_scope(name, "xdivy", [x]):
        return apply_op("Xdivy", x=x, y=y)


def xlog1py(x, y, name=None):
    with name_scope(name, "xlog1py", [x]):
        return apply_op("Xlog1py", x=x, y=y)


def multiply_no_nan(x, y, name=None):
    with name_scope(name, "multiply_no_nan", [x, y]) as name:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.base_dtype != y.dtype.base_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} and "
                            f"{y.dtype!r}.")
        return apply_op("MulNoNan", x=x, y=y, name=name)


def erfinv(x, name=None):
    """tf.math.erfinv: erf's inverse."""
    with name_scope(name, "erfinv", [x]):
        return apply_op("Erfinv", x=x)


def ndtri(x, name=None):
    """tf.math.ndtri: the standard normal distribution's quantile function."""
    with name_scope(name, "ndtri", [x]):
        return apply_op("Ndtri", x=x)


def bessel_i0e(x, name=None):
    with name_scope(name, "bessel_i0e", [x]):
        return apply_op("BesselI0e", x=x)


def bessel_i1e(x, name=None):
    with name_scope(name, "bessel_i1e", [x]):
        return apply_op("BesselI1e", x=x)


def log_sigmoid(x, name=None):
    """-softplus(-x), as TensorFlow builds it."""
    with name_scope(name, "LogSigmoid", [x]) as name:
        x = convert_to_tensor(x, name="x")
        return apply_op("Neg", x=apply_op("Softplus", features=-x), name=name)


# The gradient tf.custom_gradient gives swish's IdentityN (TensorFlow names one per call,
# CustomGradient-<uid>; one function serves every call here).
SWISH_GRADIENT = "CustomGradient-swish"


@RegisterGradient(SWISH_GRADIENT)
def _swish_grad(op, dy, *unused):
    x, b = op.inputs[1], op.inputs[2]
    with get_default_graph().control_dependencies([dy]):
        sigmoid_features = math_ops.sigmoid(b * x)
    activation_grad = sigmoid_features * (1.0 + (b * x) * (1.0 - sigmoid_features))
    beta_grad = math_ops.reduce_sum(
        dy * math_ops.square(x) * sigmoid_features * (1.0 - sigmoid_features))
    return [None, dy * activation_grad, beta_grad]


def swish(features, beta=1.0):
    """features * sigmoid(beta * features) with TensorFlow's custom gradient (an IdentityN
    whose gradient recomputes the sigmoid), as tf.custom_gradient builds it in a graph."""
    features = convert_to_tensor(features, name="features")
    beta = cast(convert_to_tensor(beta, name="beta"), features.dtype)
    result = features * math_ops.sigmoid(beta * features)
    array_ops.identity(result)  # tf.custom_gradient's record of the result (unused)
    with get_default_graph().gradient_override_map({"IdentityN": SWISH_GRADIENT}):
        return array_ops.identity_n([result, features, beta])[0]


def lbeta(x, name=None):
    """tf.math.lbeta: log |Beta(x)| over the last axis, as special_math_ops.py builds it."""
    with name_scope(name, "lbeta", [x]):
        x = convert_to_tensor(x, name="x")
        log_prod_gamma_x = math_ops.reduce_sum(lgamma(x), axis=[-1])
        sum_x = math_ops.reduce_sum(x, axis=[-1])
        return log_prod_gamma_x - lgamma(sum_x)
