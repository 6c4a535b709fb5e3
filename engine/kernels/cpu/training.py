"""NumPy CPU kernels of the optimizers' apply ops: ApplyGradientDescent, ApplyMomentum,
ApplyAdam, ApplyRMSProp, ApplyAdagrad and their ResourceApply* forms.

Each update is one function from the current values to the new ones, in the variable's
dtype with TensorFlow's operation order. A ref form (input `Ref`s) writes the new values into
the buffers in place and returns the variable's Ref; a resource form replaces the buffers
behind its handles (reads are snapshots) and returns nothing. The updates take the array
module `xp` (NumPy here, CuPy for engine/kernels/cuda/training.py, which reuses the kernels).
"""

import numpy as np

from engine.framework.errors import FailedPreconditionError, InvalidArgumentError
from engine.kernels import register
from engine.kernels.common import resource_handle, shape_str
from engine.kernels.cpu import compiled_forms
from engine.kernels.cpu.state import uninitialized
from engine.runtime.resources import locked


def _gradient_descent(xp, attrs, var, alpha, delta):
    return (var - delta * alpha,)


def _momentum(xp, attrs, var, accum, lr, grad, momentum):
    accum = accum * momentum + grad
    if attrs.get("use_nesterov", False):
        return var - (grad * lr + accum * momentum * lr), accum
    return var - accum * lr, accum


def _adam(xp, attrs, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    one = var.dtype.type(1)
    alpha = lr * xp.sqrt(one - beta2_power) / (one - beta1_power)
    m = m + (grad - m) * (one - beta1)
    v = v + (xp.square(grad) - v) * (one - beta2)
    if attrs.get("use_nesterov", False):
        var = var - ((grad * (one - beta1) + beta1 * m) * alpha) / (xp.sqrt(v) + epsilon)
    else:
        var = var - (m * alpha) / (xp.sqrt(v) + epsilon)
    return var, m, v


def _adam_in_place(attrs, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                   grad):
    """_adam's update written into var, m and v by the compiled kernel, the same bits; False
    (nothing done) where it does not serve them."""
    arrays = (var, m, v, grad)
    if any(not isinstance(a, np.ndarray) or a.dtype != var.dtype or a.shape != var.shape
           or not a.flags.c_contiguous for a in arrays) or any(
            np.shares_memory(grad, a) for a in arrays[:3]):
        return False
    fast = compiled_forms.module("training", var.dtype, var.size)
    if fast is None:
        return False
    one = var.dtype.type(1)
    alpha = lr * np.sqrt(one - beta2_power) / (one - beta1_power)
    fast.adam_in_place(var, m, v, grad, var.dtype.type(alpha), var.dtype.type(one - beta1),
                       var.dtype.type(one - beta2), var.dtype.type(beta1),
                       var.dtype.type(epsilon), bool(attrs.get("use_nesterov", False)))
    return True


def _rms_prop(xp, attrs, var, ms, mom, lr, rho, momentum, epsilon, grad):
    one = var.dtype.type(1)
    ms = ms + (xp.square(grad) - ms) * (one - rho)
    mom = mom * momentum + (grad * lr) / xp.sqrt(ms + epsilon)
    return var - mom, ms, mom


def _centered_rms_prop(xp, attrs, var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    one = var.dtype.type(1)
    ms = ms + (xp.square(grad) - ms) * (one - rho)
    mg = mg + (grad - mg) * (one - rho)
    denom = (ms - xp.square(mg)) + epsilon
    mom = mom * momentum + (grad * lr) / xp.sqrt(denom)
    return var - mom, mg, ms, mom


def _adagrad(xp, attrs, var, accum, lr, grad):
    if attrs.get("update_slots", True):
        accum = accum + xp.square(grad)
    return var - grad * lr / xp.sqrt(accum), accum


# Updates a ref variable's kernel may do in place, compiled: fn(attrs, *values) -> done.
IN_PLACE = {"Adam": _adam_in_place}
# op name: (update function, how many leading inputs are variables, where grad is)
UPDATES = {
    "GradientDescent": (_gradient_descent, 1, -1),
    "Momentum": (_momentum, 2, -2),
    "Adam": (_adam, 3, -1),
    "RMSProp": (_rms_prop, 3, -1),
    "CenteredRMSProp": (_centered_rms_prop, 4, -1),
    "Adagrad": (_adagrad, 2, -1),
}
_SLOT_NAMES = ["var", "accum", "m", "v"]


def _check(ctx, values, names, count, grad_index):
    first = values[0]
    for name, value in zip(names[1:count], values[1:count]):
        if value.shape != first.shape:
            raise InvalidArgumentError(ctx.node_def, None,
                                       f"{name} and var do not have the same shape"
                                       f"{shape_str(value.shape)} {shape_str(first.shape)}")
    grad_shape = getattr(values[grad_index], "shape", ())
    if grad_shape != first.shape:
        raise InvalidArgumentError(ctx.node_def, None,
                                   f"var and grad do not have the same shape"
                                   f"{shape_str(first.shape)} {shape_str(grad_shape)}")


def _scalars(values, dtype):
    return [np.asarray(v, dtype) if np.ndim(v) else dtype.type(v) for v in values]


def _copy_into(ref, new):
    np.copyto(ref.value, new, casting="unsafe")


def check_initialized(ctx, refs):
    """An update of ref variables refuses one that was never assigned."""
    for ref in refs:
        if ref.value is None:
            raise uninitialized(ctx, ref)


def variable_buffer(ctx, handle):
    """The buffer behind a resource variable's handle, refused (with TensorFlow's words for a
    resource update) when it does not exist or was never assigned."""
    handle = resource_handle(handle)
    buffer = ctx.resources.variables.get((handle.container, handle.name))
    if buffer is None or buffer.value is None:
        raise FailedPreconditionError(
            ctx.node_def, None,
            f"Could not find variable {handle.name}. This could mean that the variable has "
            f"been deleted. In TF1, it can also mean the variable is uninitialized. Debug "
            f"info: container={handle.container}, status error message=Resource "
            f"{handle.container}/{handle.name}/N10tensorflow3VarE does not exist.")
    return buffer


def ref_kernel(update, count, grad_index, xp=np, operands=_scalars, store=_copy_into,
               in_place=None):
    """The Apply* kernel: `operands(values, dtype)` converts the non-variable inputs,
    `store(ref, new)` writes a new value into a variable's buffer; `in_place(attrs, *values)`,
    where given, may do the whole update in the buffers instead (returning True)."""
    def kernel(ctx, *inputs):
        refs, rest = inputs[:count], inputs[count:]
        check_initialized(ctx, refs)
        with locked(refs, ctx.attrs.get("use_locking", False)):
            current = [ref.value for ref in refs]
            dtype = current[0].dtype
            values = current + operands(rest, dtype)
            _check(ctx, values, _SLOT_NAMES[:count], count, grad_index)
            if in_place is not None and in_place(ctx.attrs, *values):
                return refs[0]
            for ref, new in zip(refs, update(xp, ctx.attrs, *values)):
                store(ref, new)
        return refs[0]
    return kernel


def resource_kernel(update, count, grad_index, xp=np, operands=_scalars):
    """The ResourceApply* kernel; `operands` as for ref_kernel."""
    def kernel(ctx, *inputs):
        buffers = [variable_buffer(ctx, handle) for handle in inputs[:count]]
        rest = inputs[count:]
        with locked(buffers, ctx.attrs.get("use_locking", False)):
            current = [b.value for b in buffers]
            dtype = current[0].dtype
            values = current + operands(rest, dtype)
            _check(ctx, values, _SLOT_NAMES[:count], count, grad_index)
            for buffer, new in zip(buffers, update(xp, ctx.attrs, *values)):
                buffer.value = xp.asarray(new, dtype)
        return None
    return kernel


for _name, (_update, _count, _grad) in UPDATES.items():
    register(f"Apply{_name}")(ref_kernel(_update, _count, _grad, in_place=IN_PLACE.get(_name)))
    register(f"ResourceApply{_name}")(resource_kernel(_update, _count, _grad))
