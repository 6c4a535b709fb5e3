"""CPU kernels of the control-flow v1 ops.

The frame loop (engine/frames.py) routes Switch, Merge, Enter, Exit and NextIteration itself
(it owns deadness, frames and iterations); these kernels are what those ops compute on their
own, for a kernel lookup and for callers outside the frame loop. LoopCond forwards its
input; ControlTrigger does nothing.
"""

import numpy as np

from engine.kernels import register_table


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


register_table({
    "Enter": _forward, "RefEnter": _forward, "Exit": _forward, "RefExit": _forward,
    "NextIteration": _forward, "RefNextIteration": _forward, "LoopCond": _forward,
    "Switch": _switch, "RefSwitch": _switch, "Merge": _merge, "RefMerge": _merge,
    "ControlTrigger": lambda ctx: None,
})
