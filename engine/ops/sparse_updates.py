"""The optimizers' updates from IndexedSlices gradients (embedding_lookup's), as TensorFlow
1.x's optimizer.py applies them: duplicate indices summed first (Unique and
UnsortedSegmentSum), then the sparse apply ops (SparseApplyMomentum, SparseApplyRMSProp,
SparseApplyAdagrad and their ResourceSparseApply* twins) touching only the rows named;
GradientDescent scatters the rows; Adam decays its whole slots and scatters the new
rows in (its _apply_sparse_shared). Each function is the method of the optimizer named in
its name, bound in engine.ops.optimizers.
"""

from engine.framework.default_graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.ops import group
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.ops.state_ops import assign, assign_sub
from engine.ops.variables import ResourceVariable


def _is_resource(v):
    return isinstance(v, ResourceVariable)


def deduplicate_indexed_slices(values, indices):
    """(values summed per distinct index, the distinct indices in order of appearance)."""
    unique_indices, new_index_positions = apply_op("Unique", x=indices)
    summed_values = apply_op("UnsortedSegmentSum", data=values, segment_ids=new_index_positions,
                             num_segments=array_ops.shape(unique_indices)[0])
    return summed_values, unique_indices


def apply_sparse_duplicate_indices(self, grad, var):
    """Optimizer._apply_sparse_duplicate_indices: sums duplicates, then _apply_sparse."""
    summed_values, unique_indices = deduplicate_indexed_slices(grad.values, grad.indices)
    return self._apply_sparse(IndexedSlices(summed_values, unique_indices, grad.dense_shape),
                              var)


def resource_apply_sparse_duplicate_indices(self, grad, var, indices):
    summed_grad, unique_indices = deduplicate_indexed_slices(grad, indices)
    return self._resource_apply_sparse(summed_grad, var, unique_indices)


# -- GradientDescent: the rows scattered, duplicates included --

def gradient_descent_apply_sparse_duplicate_indices(self, grad, var):
    values = grad.values * self._cast(self._learning_rate_tensor, var)
    return apply_op("ScatterSub", ref=var._ref(), indices=grad.indices, updates=values,
                    use_locking=self._use_locking)


def gradient_descent_resource_apply_sparse_duplicate_indices(self, grad, var, indices):
    lr = math_ops.cast(self._learning_rate_tensor, grad.dtype.base_dtype)
    return apply_op("ResourceScatterAdd", resource=var.handle, indices=indices,
                    updates=-grad * lr)


# -- the sparse apply ops --

def _sparse_apply(self, op_type, var, slots, scalars, grad, indices, **attrs):
    """SparseApply<op_type> on a ref variable, ResourceSparseApply<op_type> on a resource
    one; `scalars` are (name, tensor) pairs in the op's order, around grad and indices as
    `op_type`'s signature has them."""
    names = _SLOT_ARGS[op_type]
    before, after = _SCALARS[op_type]
    keywords = dict(zip(before, scalars[:len(before)]))
    keywords.update(zip(after, scalars[len(before):]))
    keywords.update(grad=grad, indices=indices, use_locking=self._use_locking, **attrs)
    if _is_resource(var):
        keywords.update(zip(names, [s.handle for s in [var] + slots]))
        return apply_op("ResourceSparseApply" + op_type, **keywords)
    keywords.update(zip(names, [s._ref() for s in [var] + slots]))
    return apply_op("SparseApply" + op_type, **keywords).op


_SLOT_ARGS = {"Momentum": ["var", "accum"], "RMSProp": ["var", "ms", "mom"],
              "CenteredRMSProp": ["var", "mg", "ms", "mom"], "Adagrad": ["var", "accum"]}
# scalar inputs before grad and after indices
_SCALARS = {"Momentum": (["lr"], ["momentum"]),
            "RMSProp": (["lr", "rho", "momentum", "epsilon"], []),
            "CenteredRMSProp": (["lr", "rho", "momentum", "epsilon"], []),
            "Adagrad": (["lr"], [])}


def momentum_apply_sparse(self, grad, var):
    return momentum_resource_apply_sparse(self, grad.values, var, grad.indices)


def momentum_resource_apply_sparse(self, grad, var, indices):
    scalars = [self._cast(self._learning_rate_tensor, var),
               self._cast(self._momentum_tensor, var)]
    return _sparse_apply(self, "Momentum", var, [self.get_slot(var, "momentum")], scalars,
                         grad, indices, use_nesterov=self._use_nesterov)


def rms_prop_apply_sparse(self, grad, var):
    return rms_prop_resource_apply_sparse(self, grad.values, var, grad.indices)


def rms_prop_resource_apply_sparse(self, grad, var, indices):
    rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
    scalars = [self._cast(t, var) for t in (self._learning_rate_tensor, self._decay_tensor,
                                            self._momentum_tensor, self._epsilon_tensor)]
    if self._centered:
        return _sparse_apply(self, "CenteredRMSProp", var, [self.get_slot(var, "mg"), rms, mom],
                             scalars, grad, indices)
    return _sparse_apply(self, "RMSProp", var, [rms, mom], scalars, grad, indices)


def adagrad_apply_sparse(self, grad, var):
    return adagrad_resource_apply_sparse(self, grad.values, var, grad.indices)


def adagrad_resource_apply_sparse(self, grad, var, indices):
    return _sparse_apply(self, "Adagrad", var, [self.get_slot(var, "accumulator")],
                         [self._cast(self._learning_rate_tensor, var)], grad, indices)


# -- Adam: whole slots decayed, new rows scattered in --

def _adam_apply_sparse_shared(self, grad, var, indices, scatter_add):
    graph = get_default_graph()
    beta1_power, beta2_power = self._get_beta_accumulators()
    dtype = var.dtype.base_dtype
    beta1_power = math_ops.cast(beta1_power, dtype)
    beta2_power = math_ops.cast(beta2_power, dtype)
    lr_t, beta1_t, beta2_t, epsilon_t = (math_ops.cast(t, dtype) for t in (
        self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t))
    lr = lr_t * math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
    m = self.get_slot(var, "m")
    m_scaled_g_values = grad * (1 - beta1_t)
    m_t = _assign(m, m * beta1_t, self._use_locking)
    with graph.control_dependencies([m_t]):
        m_t = scatter_add(m, indices, m_scaled_g_values)
    v = self.get_slot(var, "v")
    v_scaled_g_values = (grad * grad) * (1 - beta2_t)
    v_t = _assign(v, v * beta2_t, self._use_locking)
    with graph.control_dependencies([v_t]):
        v_t = scatter_add(v, indices, v_scaled_g_values)
    v_sqrt = math_ops.sqrt(v_t)
    step = lr * m_t / (v_sqrt + epsilon_t)
    if _is_resource(var):
        var_update = var.assign_sub(step, use_locking=self._use_locking)
    else:
        var_update = assign_sub(var._ref(), step, use_locking=self._use_locking)
    return group(*[var_update, m_t, v_t])


def _assign(slot, value, use_locking):
    if _is_resource(slot):
        return slot.assign(value, use_locking=use_locking)
    return assign(slot._ref(), value, use_locking=use_locking)


def adam_apply_sparse(self, grad, var):
    def scatter_add(x, i, v):
        return apply_op("ScatterAdd", ref=x._ref(), indices=i, updates=v,
                        use_locking=self._use_locking)
    return _adam_apply_sparse_shared(self, grad.values, var, grad.indices, scatter_add)


def adam_resource_apply_sparse(self, grad, var, indices):
    def scatter_add(x, i, v):
        with get_default_graph().control_dependencies([apply_op(
                "ResourceScatterAdd", resource=x.handle, indices=i, updates=v)]):
            return x.value()
    return _adam_apply_sparse_shared(self, grad, var, indices, scatter_add)
