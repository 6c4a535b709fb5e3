"""Helpers over ops and the control flow v1 contexts they are built in (TensorFlow's
control_flow_util): loop Enter/Exit tests, the context an op's outputs live in, nesting."""


def is_loop_exit(op):
    return op.type in ("Exit", "RefExit")


def is_loop_enter(op):
    return op.type in ("Enter", "RefEnter")


def is_loop_constant_enter(op):
    return is_loop_enter(op) and op.get_attr("is_constant")


def output_context(op):
    """The context `op`'s outputs live in (an Exit's is its loop's outer context)."""
    ctxt = op._get_control_flow_context()
    if ctxt is not None and is_loop_exit(op):
        ctxt = ctxt.outer_context
    return ctxt


def op_in_context(op, ctxt):
    return is_context_in(op._get_control_flow_context(), ctxt)


def is_context_in(ctxt, outer):
    while ctxt is not None:
        if ctxt is outer:
            return True
        ctxt = ctxt.outer_context
    return outer is None


def while_context_of(op):
    ctxt = op._get_control_flow_context()
    return ctxt.GetWhileContext() if ctxt is not None else None
