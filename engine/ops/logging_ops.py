"""tf.Assert as TF 1.x builds it (tensorflow/python/ops/control_flow_assert.py).

When every data tensor is a string or int32 the Assert node is built directly
(`<scope>/Assert`); otherwise it is wrapped in `cond(condition, no_op, true_assert,
name="AssertGuard")` and the guard cond's Merge op is returned. As in TensorFlow, `data` is
converted once up front (`<scope>/Const`, ... for Python values, used only to pick the path)
and the raw `data` is handed to the Assert op, which converts Python values again
(`<scope>/Assert/data_0`, ...).
"""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import no_op
from engine.ops.convert import convert_n_to_tensor, convert_to_tensor
from engine.ops.op_def_library import apply_op


def _assert(condition, data, summarize, name):
    kwargs = {} if summarize is None else {"summarize": summarize}
    return apply_op("Assert", condition=condition, data=list(data), name=name, **kwargs)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TensorFlow's name)
    """An Operation that raises InvalidArgumentError when run with `condition` false."""
    with get_default_graph().name_scope(name or "Assert"):
        xs = convert_n_to_tensor(data)
        if all(x.dtype in (dtypes.string, dtypes.int32) for x in xs):
            return _assert(condition, data, summarize, name="Assert")
        condition = convert_to_tensor(condition, name="Condition")

        def true_assert():
            return _assert(condition, data, summarize, name="Assert")
        guarded_assert = cond(condition, no_op, true_assert, name="AssertGuard")
        return guarded_assert.op


__all__ = ["Assert"]
