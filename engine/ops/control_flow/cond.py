"""tf.cond and tf.case (v1): Switch/Merge graphs with TensorFlow 1.x's node names.

`cond(pred, true_fn, false_fn)` under the scope "cond" builds cond/Switch (pred, pred),
cond/switch_t, cond/switch_f, cond/pred_id, each branch in its CondContext (outer tensors
read through `<consumer scope>/Switch`), and one cond/Merge per output (false input first).
"""

from engine.framework.graph import get_default_graph
from engine.ops.control_flow import v1 as cf
from engine.ops.array_ops import identity
from engine.ops.convert import convert_to_tensor


def _unpack_if_singleton(result):
    if isinstance(result, (list, tuple)) and len(result) == 1:
        return result[0]
    return result


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """The outputs of `true_fn()` where `pred` is true, of `false_fn()` where it is not."""
    true_fn = true_fn if true_fn is not None else fn1
    false_fn = false_fn if false_fn is not None else fn2
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    graph = get_default_graph()
    with graph.name_scope(name or "cond"):
        if isinstance(pred, bool):
            raise TypeError("'pred' must not be a Python bool.")
        p_2, p_1 = cf.switch(pred, pred)
        pivot_1 = identity(p_1, name="switch_t")
        pivot_2 = identity(p_2, name="switch_f")
        pred = identity(pred, name="pred_id")
        results = []
        for pivot, branch, fn, which in ((pivot_1, 1, true_fn, "true_fn"),
                                         (pivot_2, 0, false_fn, "false_fn")):
            context = cf.CondContext(pred, pivot, branch=branch)
            with context.entered():
                original, result = context.BuildCondBranch(fn)
                if original is None:
                    raise ValueError(f"'{which}' must have a return value.")
                context.ExitResult(result)
            results.append((context, original, result))
        (context_t, orig_t, res_t), (context_f, orig_f, res_f) = results
        if not strict:
            orig_t, orig_f = _unpack_if_singleton(orig_t), _unpack_if_singleton(orig_f)
        _assert_same_structure(orig_t, orig_f)
        if not res_t:
            raise ValueError("'true_fn' and 'false_fn' must return at least one result.")
        flat_t, flat_f = cf.flatten(res_t), cf.flatten(res_f)
        for x, y in zip(flat_t, flat_f):
            if x.dtype.base_dtype != y.dtype.base_dtype:
                raise ValueError(
                    "Outputs of 'true_fn' and 'false_fn' must have the same type(s). Received "
                    f"{x.dtype.name} from 'true_fn' and {y.dtype.name} from 'false_fn'.")
        merges = [cf.merge([f, t])[0] for f, t in zip(flat_f, flat_t)]
        if context_t.outer_context is None:
            graph.add_to_collection("cond_context", context_t)
            graph.add_to_collection("cond_context", context_f)
        merges = cf.pack_sequence_as(orig_t, merges)
        return _unpack_if_singleton(merges) if not strict else merges


def _assert_same_structure(a, b):
    def shape(s):
        if isinstance(s, dict):
            return {k: shape(v) for k, v in s.items()}
        if isinstance(s, (list, tuple)):
            return [shape(v) for v in s]
        return None
    if shape(a) != shape(b):
        raise ValueError(f"Incompatible return values of 'true_fn' and 'false_fn': The two "
                         f"structures don't have the same nested structure.\n\nFirst "
                         f"structure: {a}\n\nSecond structure: {b}")


__all__ = ["cond", "convert_to_tensor"]
