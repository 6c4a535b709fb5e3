"""Bessel functions of tf.math and tf.math.special (bessel_i0, bessel_i1, bessel_k0,
bessel_k0e, bessel_k1, bessel_k1e, bessel_j0, bessel_j1, bessel_y0, bessel_y1), each under its name scope as TensorFlow's wrapper."""

from engine.framework.default_graph import name_scope
from engine.ops.op_def_library import apply_op


def _bessel(op_type, scope):
    def fn(x, name=None):
        with name_scope(name, scope, [x]):
            return apply_op(op_type, x=x)
    fn.__name__ = scope
    return fn


bessel_i0 = _bessel("BesselI0", "bessel_i0")
bessel_i1 = _bessel("BesselI1", "bessel_i1")
bessel_k0 = _bessel("BesselK0", "bessel_k0")
bessel_k0e = _bessel("BesselK0e", "bessel_k0e")
bessel_k1 = _bessel("BesselK1", "bessel_k1")
bessel_k1e = _bessel("BesselK1e", "bessel_k1e")
bessel_j0 = _bessel("BesselJ0", "bessel_j0")
bessel_j1 = _bessel("BesselJ1", "bessel_j1")
bessel_y0 = _bessel("BesselY0", "bessel_y0")
bessel_y1 = _bessel("BesselY1", "bessel_y1")
