"""NumPy CPU kernels of TF 1.x's other optimizers' apply ops: ApplyAdadelta,
ApplyProximalGradientDescent, ApplyFtrl, ApplyFtrlV2 and their ResourceApply* forms, built
with kernels/cpu/training.py's ref and resource kernel factories (TensorFlow's
training_ops.cc order of operations)."""

from engine.kernels import register
from engine.kernels.cpu.training import ref_kernel, resource_kernel


def _adadelta(xp, attrs, var, accum, accum_update, lr, rho, epsilon, grad):
    one = var.dtype.type(1)
    accum = accum * rho + xp.square(grad) * (one - rho)
    update = xp.sqrt(accum_update + epsilon) / xp.sqrt(accum + epsilon) * grad
    accum_update = accum_update * rho + xp.square(update) * (one - rho)
    return var - update * lr, accum, accum_update


def _proximal_gradient_descent(xp, attrs, var, alpha, l1, l2, delta):
    one = var.dtype.type(1)
    prox_var = var - delta * alpha
    if l1 > 0:
        return (xp.sign(prox_var) * xp.maximum(xp.abs(prox_var) - alpha * l1, 0)
                / (one + alpha * l2),)
    return (prox_var / (one + alpha * l2),)


def _ftrl_update(xp, var, accum, linear, grad, shrunk_grad, lr, l1, l2, lr_power):
    new_accum = accum + xp.square(grad)
    if lr_power == -0.5:
        linear = linear + shrunk_grad - (xp.sqrt(new_accum) - xp.sqrt(accum)) / lr * var
        y = xp.sqrt(new_accum) / lr + 2 * l2
    else:
        linear = linear + shrunk_grad - (new_accum ** -lr_power - accum ** -lr_power) / lr * var
        y = new_accum ** -lr_power / lr + 2 * l2
    x = xp.clip(linear, -l1, l1) - linear
    return x / y, new_accum, linear


def _ftrl(xp, attrs, var, accum, linear, grad, lr, l1, l2, lr_power):
    return _ftrl_update(xp, var, accum, linear, grad, grad, lr, l1, l2, lr_power)


def _ftrl_v2(xp, attrs, var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    shrunk = grad + 2 * l2_shrinkage * var
    return _ftrl_update(xp, var, accum, linear, grad, shrunk, lr, l1, l2, lr_power)


def _proximal_adagrad(xp, attrs, var, accum, lr, l1, l2, grad):
    one = var.dtype.type(1)
    accum = accum + xp.square(grad)
    learning_rate = lr * (one / xp.sqrt(accum))
    prox_var = var - grad * learning_rate
    if l1 > 0:
        var = (xp.sign(prox_var) * xp.maximum(xp.abs(prox_var) - learning_rate * l1, 0)
               / (one + l2 * learning_rate))
    else:
        var = prox_var / (one + l2 * learning_rate)
    return var, accum


def _adagrad_da(xp, attrs, var, gradient_accum, gradient_squared_accum, grad, lr, l1, l2,
                global_step):
    """w = -sign(g) lr max(|g| - l1 T, 0) / (l2 T lr + sqrt(gg)), g and gg the gradients'
    sum and sum of squares, T the global step."""
    gradient_accum = gradient_accum + grad
    gradient_squared_accum = gradient_squared_accum + xp.square(grad)
    step = var.dtype.type(global_step)
    denominator = l2 * step * lr + xp.sqrt(gradient_squared_accum)
    if l1 > 0:
        var = (lr * xp.sign(-gradient_accum)
               * xp.maximum(xp.abs(gradient_accum) - step * l1, 0) / denominator)
    else:
        var = lr * gradient_accum * var.dtype.type(-1) / denominator
    return var, gradient_accum, gradient_squared_accum


# op name: (update function, how many leading inputs are variables, where grad is)
UPDATES = {
    "Adadelta": (_adadelta, 3, -1),
    "ProximalGradientDescent": (_proximal_gradient_descent, 1, -1),
    "Ftrl": (_ftrl, 3, 3),
    "FtrlV2": (_ftrl_v2, 3, 3),
    "ProximalAdagrad": (_proximal_adagrad, 2, -1),
    "AdagradDA": (_adagrad_da, 3, 3),
}

for _name, (_update, _count, _grad) in UPDATES.items():
    register(f"Apply{_name}")(ref_kernel(_update, _count, _grad))
    register(f"ResourceApply{_name}")(resource_kernel(_update, _count, _grad))
