"""CPU kernels of the control-flow v1 ops.

The frame loop (engine/runtime/frames.py) routes Switch, Merge, Enter, Exit and NextIteration itself
(it owns deadness, frames and iterations); these kernels are what those ops compute on their
own, for a kernel lookup and for callers outside the frame loop. LoopCond forwards its
input; ControlTrigger does nothing. _SwitchN (a lowered Case's switch) runs as a kernel in the
frame loop: its data goes out on output `output_index` (the last one when out of range, as
TensorFlow's SwitchNOp), every other output without a value. They only move values, never look inside them (a
predicate is read with bool(), which a GPU array answers too), so the GPU registers this
same table (engine/kernels/cuda/state.py); Merge's value_index is a host scalar, as
TensorFlow's GPU Merge keeps it in host memory.
"""

import numpy as np

from engine.kernels import register_table
from engine.runtime.frames import NO_VALUE


def _forward(ctx, data):
    return data


def _switch(ctx, data, pred):
    """(output_false, output_true): the untaken output is None (TensorFlow: no value)."""
    return (None, data) if bool(pred) else (data, None)


def _merge(ctx, *inputs):
    for index, value in enumerate(inputs):
        if value is not None:
            return value, np.int32(index)
    return None, None


def _switch_n(ctx, data, output_index):
    count = len(ctx.output_dtypes)
    index = int(output_index)
    if not 0 <= index < count:
        index = count - 1
    return tuple(data if i == index else NO_VALUE for i in range(count))


CONTROL_FLOW_KERNELS = {
    "Enter": _forward, "RefEnter": _forward, "Exit": _forward, "RefExit": _forward,
    "NextIteration": _forward, "RefNextIteration": _forward, "LoopCond": _forward,
    "Switch": _switch, "RefSwitch": _switch, "Merge": _merge, "RefMerge": _merge,
    "ControlTrigger": lambda ctx: None, "_SwitchN": _switch_n,
}

register_table(CONTROL_FLOW_KERNELS)
