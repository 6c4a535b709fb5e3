"""Bessel functions of tf.math and tf.math.special (bessel_i0, bessel_i1, bessel_k0,
bessel_k0e, bessel_k1, bessel_k1e, bessel_j0, bessel_j1, bessel_y0, bessel_y1) and its other
functions (dawsn, expint, fresnel_cos, fresnel_sin, spence), each under its name scope as TensorFlow's wrapper."""

from engine.framework.default_graph import name_scope
from engine.ops.op_def_library import apply_op


def _special(op_type, scope):
    def fn(x, name=None):
        with name_scope(name, scope, [x]):
            return apply_op(op_type, x=x)
    fn.__name__ = scope
    return fn


bessel_i0 = _special("BesselI0", "bessel_i0")
bessel_i1 = _special("BesselI1", "bessel_i1")
bessel_k0 = _special("BesselK0", "bessel_k0")
bessel_k0e = _special("BesselK0e", "bessel_k0e")
bessel_k1 = _special("BesselK1", "bessel_k1")
bessel_k1e = _special("BesselK1e", "bessel_k1e")
bessel_j0 = _special("BesselJ0", "bessel_j0")
bessel_j1 = _special("BesselJ1", "bessel_j1")
bessel_y0 = _special("BesselY0", "bessel_y0")
bessel_y1 = _special("BesselY1", "bessel_y1")
dawsn = _special("Dawsn", "dawsn")
expint = _special("Expint", "expint")
fresnel_cos = _special("FresnelCos", "fresnel_cos")
fresnel_sin = _special("FresnelSin", "fresnel_sin")
spence = _special("Spence", "spence")
