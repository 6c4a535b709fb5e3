"""CPU kernels of the functional ops: function calls, If, While and Case (and stateless forms).

Each runs library functions (engine/runtime/function_library.py) through the session's
FunctionLibrary, which the Executor puts in the kernel context's session_state; a body is
instantiated and planned once per (function, attrs) and then run on its own bound executor.
An error from a body node leaves with `function_calls`: (function, calling node) pairs, the
innermost call first, so a report can say which function the failed node ran in (TensorFlow's
`{{function_node f}}`).
"""

import numpy as np

from engine.framework import errors
from engine.runtime.frames import max_loop_iterations
from engine.runtime.function_library import LIBRARY_KEY
from engine.kernels import register_table


def _library(ctx):
    library = (ctx.session_state or {}).get(LIBRARY_KEY)
    if library is None:
        raise errors.InternalError(ctx.node_def, None,
                                   f"No function library for {ctx.op_type} node {ctx.name}")
    return library


def _func(ctx, attr):
    func = ctx.node_def.attr[attr].func
    return func.name, func.attr


def _result(ctx, outputs):
    count = len(ctx.output_dtypes)
    if count == 0:
        return None
    return outputs[0] if count == 1 else outputs


def to_bool(value):
    """TensorFlow's ToBool for If/While predicates: a scalar's truth, else non-emptiness."""
    array = np.asarray(value)
    if array.ndim == 0:
        item = array.item()
        return bool(item) if not isinstance(item, bytes) else item != b""
    return array.size > 0


def _calling(ctx, name, run):
    """run() (a call of function `name`), its error marked with the call."""
    try:
        return run()
    except errors.OpError as error:
        calls = getattr(error, "function_calls", None)
        if calls is None:
            calls = error.function_calls = []
        calls.append((name, ctx.name))
        raise


def _call(ctx, name, attrs, args):
    return _calling(ctx, name, lambda: _library(ctx).call(name, attrs, list(args), ctx.step_id))


def partitioned_call(ctx, *args):
    name, attrs = _func(ctx, "f")
    return _result(ctx, _call(ctx, name, attrs, args))


def function_call(ctx, *args):
    """A node whose op type names a library function; its attrs are the call's."""
    return _result(ctx, _call(ctx, ctx.op_type, ctx.node_def.attr, args))


def if_(ctx, cond, *args):
    name, attrs = _func(ctx, "then_branch" if to_bool(cond) else "else_branch")
    return _result(ctx, _call(ctx, name, attrs, args))


def case(ctx, branch_index, *args):
    branches = ctx.node_def.attr["branches"].list.func
    index = int(np.asarray(branch_index))
    branch = branches[index] if 0 <= index < len(branches) else branches[-1]
    return _result(ctx, _call(ctx, branch.name, branch.attr, args))


def while_(ctx, *args):
    library = _library(ctx)
    cond_name, cond_attrs = _func(ctx, "cond")
    body_name, body_attrs = _func(ctx, "body")
    cond = library.instantiate(cond_name, cond_attrs)
    body = library.instantiate(body_name, body_attrs)
    limit = max_loop_iterations(library.max_loop_iterations)
    values, iterations = list(args), 0
    while to_bool(_calling(ctx, cond_name, lambda: cond.call(values, ctx.step_id))[0]):
        iterations += 1
        if iterations > limit:
            raise errors.ResourceExhaustedError(
                ctx.node_def, None,
                f"Loop frame '{ctx.name}' ran more than {limit} iterations (the engine's "
                f"runaway-loop limit; raise it with the GI_MAX_LOOP_ITERATIONS environment "
                f"variable)")
        values = _calling(ctx, body_name, lambda: body.call(values, ctx.step_id))
    return _result(ctx, values)


register_table({
    "PartitionedCall": partitioned_call, "StatefulPartitionedCall": partitioned_call,
    "If": if_, "StatelessIf": if_, "While": while_, "StatelessWhile": while_,
    "Case": case, "StatelessCase": case,
})
