"""The gradient registry: op type -> gradient function, or None for a not-differentiable op.

Gradient functions register with `@RegisterGradient("Op")` (engine/ops/*_grad.py, and user
code through tf.RegisterGradient); `NotDifferentiable("Op")` records that an op has none.
tf.gradients (engine/ops/gradients.py) asks `get_gradient_function`; engine.api.registry asks
`gradient_status` what an op has. What gradient functions and the algorithm share lives here
too: which tensors are built zeros (is_zeros_tensor) and which dtypes carry a gradient.
"""

import weakref

from engine.framework import dtypes

NOT_DIFFERENTIABLE = "not differentiable"
REGISTERED = "registered"
MISSING = "missing"

_GRADIENTS = {}


class RegisterGradient:
    """Decorator: `@tf.RegisterGradient("Op")` registers `fn(op, *out_grads)` for "Op"."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        if self._op_type in _GRADIENTS:
            raise KeyError(f"Registering two gradient with name '{self._op_type}'! "
                           f"(Previous registration was in {_where(_GRADIENTS[self._op_type])})")
        _GRADIENTS[self._op_type] = fn
        return fn


def _where(fn):
    code = getattr(fn, "__code__", None)
    return f"{code.co_name} {code.co_filename}:{code.co_firstlineno}" if code else "<none>"


def no_gradient(op_type):
    """Marks `op_type` as not differentiable: its inputs get None, no error."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _GRADIENTS[op_type] = None


NoGradient = NotDifferentiable = no_gradient


def get_gradient_function(op):
    """The gradient function of `op` (its `_gradient_op_type` override first), None for an op
    without inputs or one marked not differentiable; LookupError when none is registered."""
    if not op.inputs:
        return None
    attr = op._node_def.attr.get("_gradient_op_type")
    op_type = attr.s.decode() if attr is not None else op.type
    try:
        return _GRADIENTS[op_type]
    except KeyError:
        raise LookupError(f"gradient registry has no entry for: {op_type}") from None


def gradient_status(op_type):
    """REGISTERED, NOT_DIFFERENTIABLE, or MISSING (tf.gradients through it raises)."""
    if op_type not in _GRADIENTS:
        return MISSING
    return NOT_DIFFERENTIABLE if _GRADIENTS[op_type] is None else REGISTERED


def gradient_function(op_type):
    """The registered gradient function of `op_type`, None when it has none."""
    return _GRADIENTS.get(op_type)


def registered_gradients():
    """Every op type the registry has an entry for, with a gradient or marked without."""
    return sorted(_GRADIENTS)


# Tensors built as zeros for an output nobody differentiated (TF's `_is_zeros_tensor`).
_ZEROS = weakref.WeakSet()


def mark_zeros_tensor(tensor):
    _ZEROS.add(tensor)


def is_zeros_tensor(tensor):
    return tensor in _ZEROS


_TRAINABLE = frozenset([dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
                        dtypes.complex128, dtypes.resource, dtypes.variant, dtypes.bfloat16])


def is_trainable(tensor):
    return tensor.dtype.base_dtype in _TRAINABLE
