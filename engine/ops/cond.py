"""tf.cond and tf.case (v1): Switch/Merge graphs with TensorFlow 1.x's node names.

`cond(pred, true_fn, false_fn)` under the scope "cond" builds cond/Switch (pred, pred),
cond/switch_t, cond/switch_f, cond/pred_id, each branch in its CondContext (outer tensors
read through `<consumer scope>/Switch`), and one cond/Merge per output (false input first).
"""

import functools

from engine import dtypes
from engine.graph import get_default_graph
from engine.ops import control_flow_v1 as cf
from engine.ops.array_ops import identity
from engine.ops.convert import convert_to_tensor
from engine.tensor import Tensor


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


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first callable whose predicate is true (nested tf.cond), else default.

    As TensorFlow 1.x (control_flow_case._case_helper): without `default` the last pair's
    callable becomes the default, run under control dependencies on two run-time checks
    (no other predicate is true; its own predicate is true). With `exclusive=True` the
    nested conds run under a check that at most one of the remaining predicates is true.
    """
    predicates, actions = _case_args(pred_fn_pairs)
    with get_default_graph().name_scope(name or "case"):
        if default is None:
            default, predicates, actions = _case_create_default_action(predicates, actions)
        fn = default
        for predicate, action in reversed(list(zip(predicates, actions))):
            fn = functools.partial(cond, predicate, true_fn=action, false_fn=fn, strict=strict)
        if exclusive:
            check = _assert_at_most_n_true(predicates, n=1, msg="Input error: exclusive=True")
            with get_default_graph().control_dependencies([check]):
                return fn()
        return fn()


def _assert_at_most_n_true(predicates, n, msg):
    """An Assert op (TF's) checking that at most `n` of the bool scalar `predicates` hold."""
    from engine.ops.array_ops import stack
    from engine.ops.constant_op import constant
    from engine.ops.logging_ops import Assert
    from engine.ops.math_ops import cast, less_equal, reduce_sum
    preds_c = stack(predicates, name="preds_c")
    num_true_conditions = reduce_sum(cast(preds_c, dtypes.int32), name="num_true_conds")
    condition = less_equal(num_true_conditions, constant(n, name="n_true_conds"))
    preds_names = ", ".join(getattr(p, "name", "?") for p in predicates)
    error_msg = [f"{msg}: more than {n} conditions ({preds_names}) evaluated as True:", preds_c]
    return Assert(condition, data=error_msg, summarize=len(predicates))


def _case_create_default_action(predicates, actions):
    """The last pair's callable as default, guarded by TF's two run-time Assert checks."""
    from engine.ops.array_ops import stack
    from engine.ops.logging_ops import Assert
    k = len(predicates) - 1
    predicate, action = predicates[k], actions[k]
    other_predicates, other_actions = predicates[:k], actions[:k]

    def default_action():
        others_msg = ("Implementation error: selected default action #%d was called, but "
                      "some of other predicates are True: " % k)
        default_msg = ("Input error: None of conditions evaluated as True:",
                       stack(predicates, name="preds_c"))
        with get_default_graph().control_dependencies([
                _assert_at_most_n_true(other_predicates, n=0, msg=others_msg),
                Assert(predicate, data=default_msg)]):
            return action()

    return default_action, other_predicates, other_actions


def _case_args(pred_fn_pairs):
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(f"'pred_fn_pairs' must be a list, tuple, or dict. Received: "
                        f"{type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not isinstance(pred, Tensor):
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if pred.dtype != dtypes.bool:
            raise TypeError(f"pred must be Tensor of type bool: {pred.name}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred.name} must be callable.")
    predicates, actions = zip(*pred_fn_pairs)
    return list(predicates), list(actions)


__all__ = ["cond", "case", "convert_to_tensor"]
