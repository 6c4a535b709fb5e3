"""What running one node needs, in every loop that runs nodes (the executor's fast path,
engine/runtime/frames.py, engine/runtime/frame_compiler.py): a ref input read, a kernel's outputs as
a list, which inputs a kernel may write its output into, and the one writer of a node's error as TensorFlow words it from Session.run.

An error from a node carries what the CLI and the debugger show as fields, so nobody parses
its text: `node_name`, `op_type` and `kernel_message` (the kernel's own words).
"""

import sys

import numpy as np

from engine.framework import errors
from engine.runtime.resources import Ref


def check_output(node, value, dtype):
    """InternalError when a kernel's output is not of the dtype the graph promised."""
    if isinstance(value, Ref) or dtype.base_dtype.as_numpy_dtype is np.object_:
        return
    got = getattr(value, "dtype", None)
    if got is None or np.dtype(got) != np.dtype(dtype.base_dtype.as_numpy_dtype):
        raise errors.InternalError(
            None, None, f"kernel for {node.op_type} produced {got} where the graph has "
                        f"{dtype.base_dtype.name}")


def read_ref(value, node):
    """The value behind a ref input, read by a non-ref consumer (TensorFlow 1.x aliasing)."""
    if isinstance(value, Ref):
        if value.value is None:
            raise errors.FailedPreconditionError(
                None, None, f"Attempting to use uninitialized value {value.name}")
        return value.value
    return value


def outputs_list(node, result):
    if not node.output_slots:
        return []
    if len(node.output_slots) == 1:
        return [result]
    return checked_outputs(node, result)


def checked_outputs(node, result):
    result = list(result)
    if len(result) != len(node.output_slots):
        raise errors.InternalError(
            None, None, f"kernel for {node.op_type} returned {len(result)} outputs, "
                        f"expected {len(node.output_slots)}")
    return result


def node_error(node, error):
    """`error` from running `node`, as TensorFlow 2.x raises it from Session.run.

    Keeps an OpError's class, maps Python errors from a kernel to InvalidArgumentError (bad
    values) or InternalError (a bug), and words the message as TensorFlow does: where the
    node was defined, the node, the kernel's message, and `[[{{node name}}]]`.
    """
    if isinstance(error, errors.OpError):
        cls, text = type(error), error.message
    elif isinstance(error, (ValueError, TypeError, IndexError, ArithmeticError)):
        cls, text = errors.InvalidArgumentError, f"{type(error).__name__}: {error}"
    elif isinstance(error, MemoryError):  # a tensor bigger than memory: TensorFlow's OOM
        cls, text = errors.ResourceExhaustedError, str(error) if str(error).startswith("OOM") \
            else f"OOM: {error or 'out of memory'}"
    else:
        cls, text = errors.InternalError, f"{type(error).__name__}: {error}"
    op = node.op
    node_def = node.node_def
    message = "Graph execution error:\n\n"
    frames = user_frames(op)
    if frames:
        message += f"Detected at node '{node.name}' defined at (most recent call last):\n"
        message += "".join(f'    File "{f[0]}", line {f[1]}, in {f[2]}\n' for f in frames)
        message += f"Node: '{node.name}'\n"
        # TensorFlow's message starts the kernel's words on that line, leading blanks dropped
        message += text.lstrip()
    else:
        message += text
    if "[[{{node " not in text:
        message += f"\n\t [[{_node_tags(node)}]]"
    wrapped = cls(node_def, op, message)
    wrapped.node_name, wrapped.op_type = node.name, node.op_type
    # A node inlined from a function: the function it came from (TensorFlow's error carries
    # it as a {{function_node ...}} tag, which its Python layer strips from the message).
    wrapped.function_name = _original(node, "original_func_names")
    # A function body's node failing inside this one has already said what the kernel said.
    inner = error.kernel_message if isinstance(error, errors.OpError) else None
    wrapped.kernel_message = inner or text
    return wrapped


def _original(node, field):
    node_def = node.node_def
    if node_def is None or not node_def.HasField("experimental_debug_info"):
        return None
    names = getattr(node_def.experimental_debug_info, field)
    return names[0] if names else None


def _node_tags(node):
    """`{{node name}}`, or for a node inlined from a function its original names as
    TensorFlow's FormatNodeDefForError gives them (`{{node Reshape}}` for
    `StatefulPartitionedCall/StatefulPartitionedCall/Reshape`)."""
    node_def = node.node_def
    names = (list(node_def.experimental_debug_info.original_node_names)
             if node_def is not None and node_def.HasField("experimental_debug_info") else [])
    return ", ".join(f"{{{{node {name}}}}}" for name in names or [node.name])


def user_frames(op):
    traceback = getattr(op, "traceback", None) if op is not None else None
    if not traceback:
        return []
    frames = [tuple(frame) for frame in traceback]
    user = [f for f in frames if not errors.is_engine_file(str(f[0]))]
    return user or frames[-1:]


def no_kernel_error(node, device_type):
    attrs = ", ".join(f"{key}={_attr_text(value)}" for key, value in
                      sorted(node.node_def.attr.items()) if not key.startswith("_"))
    return node_error(node, errors.NotFoundError(
        None, None,
        f"No OpKernel was registered to support Op '{node.op_type}' used by "
        f"{{{{node {node.name}}}}} with these attrs: [{attrs}]\n"
        f"Registered devices: [{device_type}]\nRegistered kernels:\n  <no registered kernels>"
        f"\n\n\t [[{{{{node {node.name}}}}}]]"))


def unheld_dtype_error(node):
    """UnimplementedError for a node whose output has a dtype NumPy lacks (bfloat16), else
    None: refused when the plan is made, naming the node, instead of whatever its kernel
    would trip over (a `KeyError: 14` out of a Cast)."""
    unheld = next((dtype for dtype in node.output_dtypes
                   if not dtype.base_dtype.is_numpy_compatible), None)
    if unheld is None:
        return None
    return node_error(node, errors.UnimplementedError(
        None, None, f"{node.op_type} makes a {unheld.base_dtype.name} tensor, a dtype the "
                    f"engine does not hold (NumPy has none): cast to float32 or float16 "
                    f"before it"))


def _attr_text(value):
    which = value.WhichOneof("value")
    return str(getattr(value, which)).strip() if which else ""


def raise_node_error(node, error):
    """Raise `error` as the failure of `node`; an error already naming its node as it is
    (chaining it to itself would make its __cause__ a cycle)."""
    if isinstance(error, errors.OpError) and error.node_name:
        raise error
    raise node_error(node, error) from error


def kernel_summary(error):
    """The first line of what the kernel said (an error's own first line when it comes from
    no node): what one-line reports print."""
    text = getattr(error, "kernel_message", None) or getattr(error, "message", None) \
        or str(error)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else text.strip()


# Inputs smaller than this are never offered to a kernel to write over: malloc serves them
# from memory it keeps, and a small graph's op pays for every check (a scalar op runs in
# about 0.35 us).
FORWARD_MIN_BYTES = 1 << 16


def _references(inputs, k):
    """sys.getrefcount of inputs[k], asked always from here: what the count includes besides
    the holders (this frame's own reference, the call's argument) depends on the interpreter
    (CPython 3.14 may borrow references earlier versions took), so the count of an array only the
    list holds is measured once, below, the same way."""
    x = inputs[k]
    return sys.getrefcount(x)


# An input's reference count, as _references asks it, where only the caller's list holds it
# (3 on CPython 3.11: the list, the local `x`, getrefcount's argument).
_ONLY_IN_LIST = _references([np.empty(1)], 0)


def exclusive_inputs(inputs, positions):
    """The positions among `positions` whose input a kernel may write over: a NumPy array of
    FORWARD_MIN_BYTES or more, owning its memory, writeable, that only the list `inputs` holds
    (the caller has taken it out of every other place it held it)."""
    donated = ()
    for k in positions:
        x = inputs[k]
        if (type(x) is np.ndarray and x.base is None and x.flags.writeable
                and x.nbytes >= FORWARD_MIN_BYTES):
            del x  # (counted by _references alone, as _ONLY_IN_LIST was)
            if _references(inputs, k) == _ONLY_IN_LIST:
                donated += (k,)
    return donated
