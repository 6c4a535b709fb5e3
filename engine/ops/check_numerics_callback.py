"""tf.debugging.enable_check_numerics and disable_check_numerics in graph mode, as TensorFlow's
debug/lib/check_numerics_callback.py instruments a TF1 graph: every floating-point output of
an op made afterwards (on this thread) goes through a CheckNumericsV2 whose message names the
op, its output, dtype, static shape, inputs and where the program made it; the code that made
the op gets the checked tensor instead (a Placeholder keeps its own, and its check runs
before each op that reads it). Also CheckNumericsV2's gradient.

The creation stack in the message lists the program's frames (" -> ", as TensorFlow marks
what it infers is user code); TensorFlow's also lists its own library's frames, which the
engine's differ from."""

import threading
import weakref

from engine.framework import op_callbacks
from engine.framework.errors import is_engine_file
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op

# TensorFlow's IGNORE_OP_OUTPUTS: outputs whose NaNs are benign.
IGNORE_OP_OUTPUTS = frozenset(
    [(op, slot) for op in ("FusedBatchNorm", "FusedBatchNormV2") for slot in (1, 2, 3, 4)]
    + [("FusedBatchNormV3", slot) for slot in (1, 2, 3, 4, 5)])
# TensorFlow's SAFE_OPS and op_callbacks_common.OP_CALLBACK_SKIP_OPS: not instrumented.
SKIPPED_OPS = frozenset({
    "Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum", "Minimum", "Reshape",
    "Slice", "Squeeze", "Stack", "StridedSlice", "StridedSliceGrad", "TensorListConcatV2",
    "TensorListGather", "TensorListGetItem", "TensorListPopBack", "TensorListStack",
    "Transpose", "Unpack",
    "Enter", "Exit", "Identity", "If", "LoopCond", "Merge", "NextIteration", "StatelessIf",
    "StatefulPartitionedCall", "Switch", "While", "RemoteCall", "TPUReplicatedInput",
    "TPUReplicateMetadata", "TPUCompilationResult", "TPUReplicatedOutput",
    "ConfigureDistributedTPU", "DestroyResourceOp"})

_state = threading.local()


def _limit(text, max_len):
    if max_len is None or len(text) <= max_len:
        return text
    return "..." + text[len(text) - max_len:]


def error_message(slot, num_outputs, op_type, tensor, inputs, traceback,
                  stack_height_limit=30, path_length_limit=50):
    """TensorFlow's get_check_numerics_error_message for a graph op."""
    message = "\n"
    message += (f"\n!!! Detected Infinity or NaN in output {slot} of graph op \"{op_type}\" "
                f"(# of outputs: {num_outputs}) !!!\n")
    message += f"  dtype: {tensor.dtype}\n"
    message += f"  shape: {tensor.shape}\n"
    if len(inputs) > 1:
        message += f"\n  Input tensors ({len(inputs)}):\n"
        for i, input_tensor in enumerate(inputs):
            message += f"         {i}: {_original(input_tensor)}\n"
    elif len(inputs) == 1:
        message += f"\n  Input tensor: {_original(inputs[0])}\n"
    frames = [frame for frame in traceback or () if not is_engine_file(frame.filename)]
    if frames:
        message += "\n  Stack trace of op's creation (\"->\": inferred user code):\n"
        if stack_height_limit is not None and len(frames) > stack_height_limit:
            message += f"    + ... (Omitted {len(frames) - stack_height_limit} frames)\n"
        for frame in frames[-stack_height_limit:]:
            message += (f"    + {_limit(frame.filename, path_length_limit)} (L{frame.lineno}) "
                        f"{frame.name}\n")
            # TensorFlow 2.21's creation stacks carry no source text: an empty line
            message += " -> |   \n"
    return message + "\n"


def _original(tensor):
    """The tensor a check stands for, in an input list (TensorFlow's input lookup)."""
    return _CHECKED.get(tensor, tensor)


# {check's output: the output it checks}, to name the op's real inputs in messages
_CHECKED = weakref.WeakKeyDictionary()


class CheckNumericsCallback:
    """The op callback: a CheckNumericsV2 per float output."""

    def __init__(self, stack_height_limit, path_length_limit):
        self.stack_height_limit = stack_height_limit
        self.path_length_limit = path_length_limit
        self.placeholder_checks = {}

    def callback(self, op_type, inputs, attrs, outputs, op_name=None, graph=None):
        if op_type in SKIPPED_OPS:
            return None
        for input_tensor in inputs:
            check = self.placeholder_checks.get(input_tensor)
            if check is not None and outputs:
                outputs[0].op._add_control_input(check.op)
        instrumented = []
        for slot, output in enumerate(outputs):
            if output.dtype.is_floating and (op_type, slot) not in IGNORE_OP_OUTPUTS:
                checked = apply_op("CheckNumericsV2", tensor=output, message=error_message(
                    slot, len(outputs), op_type, output, inputs, output.op.traceback,
                    self.stack_height_limit, self.path_length_limit))
                _CHECKED[checked] = output
                if op_type == "Placeholder":
                    self.placeholder_checks[output] = checked
                    instrumented.append(output)
                else:
                    instrumented.append(checked)
            else:
                instrumented.append(output)
        return instrumented


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """tf.debugging.enable_check_numerics: instruments the ops made from now on, on this
    thread."""
    if not hasattr(_state, "callback"):
        _state.callback = CheckNumericsCallback(stack_height_limit, path_length_limit)
    op_callbacks.add_op_callback(_state.callback.callback)


def disable_check_numerics():
    """tf.debugging.disable_check_numerics: ops made from now on are not instrumented."""
    if not hasattr(_state, "callback"):
        return
    try:
        op_callbacks.remove_op_callback(_state.callback.callback)
        del _state.callback
    except KeyError:
        pass


@RegisterGradient("CheckNumericsV2")
def _check_numerics_v2_grad(op, grad):
    message = op.get_attr("message")
    message = message.decode() if isinstance(message, bytes) else message
    return apply_op("CheckNumericsV2", tensor=grad,
                    message="Not a number (NaN) or infinity (Inf) values detected in "
                            f"gradient. {message}")



def check_pinned(tensor, name=None):
    """tf.check_pinned: `tensor`, once checked to be in host memory pinned for a GPU."""
    return apply_op("CheckPinned", tensor=tensor, name=name)
