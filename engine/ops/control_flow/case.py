"""tf.case: the first callable whose predicate holds, as nested tf.conds (TF 1.x's
control_flow_case), with its run-time Assert checks."""

import functools

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops.array_ops import stack
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.logging_ops import Assert
from engine.ops.math_ops import cast, less_equal, reduce_sum
from engine.framework.tensor import Tensor


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
    preds_c = stack(predicates, name="preds_c")
    num_true_conditions = reduce_sum(cast(preds_c, dtypes.int32), name="num_true_conds")
    condition = less_equal(num_true_conditions, constant(n, name="n_true_conds"))
    preds_names = ", ".join(getattr(p, "name", "?") for p in predicates)
    error_msg = [f"{msg}: more than {n} conditions ({preds_names}) evaluated as True:", preds_c]
    return Assert(condition, data=error_msg, summarize=len(predicates))


def _case_create_default_action(predicates, actions):
    """The last pair's callable as default, guarded by TF's two run-time Assert checks."""
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
