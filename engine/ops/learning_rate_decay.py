"""tf.train's TF1 learning-rate schedules (exponential_decay, ...), built as TensorFlow builds them.

Each takes the global step (a tensor) and returns the decayed rate as a tensor, under a name
scope named after the schedule ("ExponentialDecay", ...), the final op named as the scope.
"""

import math

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.case import case
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor


def _progress(learning_rate, global_step, decay_steps, decay_rate, staircase):
    """(the initial rate, the decay rate in its dtype, global_step / decay_steps, floored if
    staircase): the ops that exponential and inverse-time decay start with, in their order."""
    initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = initial.dtype
    decay_steps = math_ops.cast(decay_steps, dtype)
    decay_rate = math_ops.cast(decay_rate, dtype)
    p = math_ops.cast(global_step, dtype) / decay_steps
    if staircase:
        p = math_ops.floor(p)
    return initial, decay_rate, p


def _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name):
    with name_scope(name or None, "ExponentialDecay") as name:
        initial, decay_rate, p = _progress(learning_rate, global_step, decay_steps, decay_rate,
                                           staircase)
        return math_ops.multiply(initial, math_ops.pow(decay_rate, p), name=name)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps), floored if staircase."""
    if global_step is None:
        raise ValueError("global_step is required for exponential_decay.")
    return _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps)."""
    if global_step is None:
        raise ValueError("global_step is required for natural_exp_decay.")
    natural_exp_rate = math_ops.exp(math_ops.negative(decay_rate))
    return _exponential(learning_rate, global_step, decay_steps, natural_exp_rate, staircase,
                        name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps)."""
    if global_step is None:
        raise ValueError("global_step is required for inverse_time_decay.")
    with name_scope(name or None, "InverseTimeDecay") as name:
        initial, decay_rate, p = _progress(learning_rate, global_step, decay_steps, decay_rate,
                                           staircase)
        const = math_ops.cast(constant(1), initial.dtype)
        denom = math_ops.add(const, math_ops.multiply(decay_rate, p))
        return math_ops.divide(initial, denom, name=name)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """From learning_rate to end_learning_rate along (1 - step / decay_steps) ^ power."""
    if global_step is None:
        raise ValueError("global_step is required for polynomial_decay.")
    with name_scope(name or None, "PolynomialDecay") as name:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype
        end_learning_rate = math_ops.cast(end_learning_rate, dtype)
        power = math_ops.cast(power, dtype)
        step = math_ops.cast(global_step, dtype)
        decay_steps_recomp = math_ops.cast(decay_steps, dtype)
        if cycle:
            multiplier = array_ops.where_v2(math_ops.equal(step, 0), 1.0,
                                            math_ops.ceil(step / decay_steps))
            decay_steps_recomp = math_ops.multiply(decay_steps_recomp, multiplier)
        else:
            step = math_ops.minimum(step, decay_steps_recomp)
        p = math_ops.divide(step, decay_steps_recomp)
        return math_ops.add(math_ops.multiply(initial - end_learning_rate,
                                              math_ops.pow(1 - p, power)),
                            end_learning_rate, name=name)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha)."""
    if global_step is None:
        raise ValueError("cosine decay requires global_step")
    with name_scope(name or None, "CosineDecay"):
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        completed_fraction = step / decay_steps
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(initial, decayed)


def piecewise_constant(x, boundaries, values, name=None):
    """values[i] where boundaries[i-1] < x <= boundaries[i] (values[0] up to the first)."""
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    boundaries = [convert_to_tensor(b) for b in boundaries]
    values = [convert_to_tensor(v) for v in values]
    x_recomp = convert_to_tensor(x)
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype != x_recomp.dtype.base_dtype:
            if b.dtype.base_dtype == dtypes.int32 and x_recomp.dtype.base_dtype == dtypes.int64:
                boundaries[i] = math_ops.cast(b, x_recomp.dtype.base_dtype)
            else:
                raise ValueError(f"Boundaries ({b.dtype.base_dtype}) must have the same dtype "
                                 f"as x ({x_recomp.dtype.base_dtype}).")
    for v in values[1:]:
        if v.dtype.base_dtype != values[0].dtype.base_dtype:
            raise ValueError(f"Values must have elements all with the same dtype "
                             f"({values[0].dtype.base_dtype} vs {v.dtype.base_dtype}).")
    with name_scope(name or None, "PiecewiseConstant"):
        boundaries = [convert_to_tensor(b) for b in boundaries]
        values = [convert_to_tensor(v) for v in values]
        x_recomp = convert_to_tensor(x)
        pred_fn_pairs = [(x_recomp <= boundaries[0], lambda: values[0]),
                         (x_recomp > boundaries[-1], lambda: values[-1])]
        for low, high, v in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            pred = (x_recomp > low) & (x_recomp <= high)
            pred_fn_pairs.append((pred, lambda v=v: v))
        return case(pred_fn_pairs, lambda: values[0], exclusive=True)


piecewise_constant_decay = piecewise_constant


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """tf.train.linear_cosine_decay: (alpha + linear) * cosine + beta, as Keras'
    LinearCosineDecay schedule builds it (name scope LinearCosineDecay)."""
    if global_step is None:
        raise ValueError("linear cosine decay requires global_step")
    with name_scope(name or None, "LinearCosineDecay") as name:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        linear_cosine_decayed = (alpha + linear_decayed) * cosine_decayed + beta
        return math_ops.multiply(initial, linear_cosine_decayed, name=name)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """tf.train.noisy_linear_cosine_decay: linear_cosine_decay with Gaussian noise of variance
    initial_variance / (1 + step) ** variance_decay added to its linear part (a
    RandomStandardNormal of the graph's seed), as Keras' NoisyLinearCosineDecay builds it."""
    from engine.ops.random_ops import random_normal
    if global_step is None:
        raise ValueError("noisy linear cosine decay requires global_step")
    with name_scope(name or None, "NoisyLinearCosineDecay") as name:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        initial_variance = math_ops.cast(initial_variance, dtype)
        variance_decay = math_ops.cast(variance_decay, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        variance = initial_variance / math_ops.pow(1.0 + step, variance_decay)
        std = math_ops.sqrt(variance)
        noisy_linear_decayed = linear_decayed + random_normal(linear_decayed.shape, stddev=std)
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant(math.pi) * fraction))
        noisy_linear_cosine_decayed = (alpha + noisy_linear_decayed) * cosine_decayed + beta
        return math_ops.multiply(initial, noisy_linear_cosine_decayed, name=name)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
    """tf.train.cosine_decay_restarts (SGDR): cosine cycles, each t_mul times longer and m_mul
    times lower, as Keras' CosineDecayRestarts builds it (a tf.cond on t_mul == 1)."""
    from engine.ops.control_flow import cond as _cond
    if global_step is None:
        raise ValueError("cosine decay restarts requires global_step")
    with name_scope(name or None, "SGDRDecay") as name:
        initial = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = initial.dtype
        first_decay_steps = math_ops.cast(first_decay_steps, dtype)
        alpha = math_ops.cast(alpha, dtype)
        t_mul = math_ops.cast(t_mul, dtype)
        m_mul = math_ops.cast(m_mul, dtype)
        completed_fraction = math_ops.cast(global_step, dtype) / first_decay_steps

        def compute_step(completed_fraction, geometric=False):
            if geometric:
                i_restart = math_ops.floor(
                    math_ops.log(1.0 - completed_fraction * (1.0 - t_mul)) / math_ops.log(t_mul))
                sum_r = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
                completed_fraction = (completed_fraction - sum_r) / t_mul ** i_restart
            else:
                i_restart = math_ops.floor(completed_fraction)
                completed_fraction -= i_restart
            return i_restart, completed_fraction

        i_restart, completed_fraction = _cond.cond(
            math_ops.equal(t_mul, 1.0),
            lambda: compute_step(completed_fraction, geometric=False),
            lambda: compute_step(completed_fraction, geometric=True))
        m_fac = m_mul ** i_restart
        cosine_decayed = 0.5 * m_fac * (1.0 + math_ops.cos(constant(math.pi) *
                                                          completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(initial, decayed, name=name)
