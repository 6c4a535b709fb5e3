"""Op callbacks (TensorFlow's framework/op_callbacks.py): functions called, on the thread
that added them, with each op made through apply_op or tf.constant; one that returns
tensors replaces the op's outputs for the code that made it. Ops the callbacks make
themselves call none (TensorFlow's invoking_op_callbacks guard).
tf.debugging.enable_check_numerics adds one (engine/ops/check_numerics_callback.py)."""

import threading

_local = threading.local()
# How many threads have a callback: apply_op's fast path looks at this number only.
active = 0
_active_lock = threading.Lock()


def _callbacks():
    callbacks = getattr(_local, "callbacks", None)
    if callbacks is None:
        callbacks = _local.callbacks = []
    return callbacks


def add_op_callback(callback):
    global active
    if not callable(callback):
        raise ValueError(f"Callback function {callback} is not callable.")
    callbacks = _callbacks()
    if callback not in callbacks:
        callbacks.append(callback)
        if len(callbacks) == 1:
            with _active_lock:
                active += 1


def remove_op_callback(callback):
    global active
    callbacks = _callbacks()
    if callback not in callbacks:
        raise KeyError("The specified op callback has not been registered, and hence "
                       "cannot be removed.")
    callbacks.remove(callback)
    if not callbacks:
        with _active_lock:
            active -= 1


def should_invoke_op_callbacks():
    return bool(active) and bool(_callbacks()) and not getattr(_local, "invoking", False)


def invoke_op_callbacks(op_type, inputs, attrs, outputs, op_name=None, graph=None):
    """The outputs the callbacks leave (None where none replaced them)."""
    _local.invoking = True
    try:
        new_outputs = None
        for callback in list(_callbacks()):
            result = callback(op_type, inputs, attrs,
                              outputs if new_outputs is None else new_outputs,
                              op_name=op_name, graph=graph)
            if result is not None:
                new_outputs = list(result)
        return new_outputs
    finally:
        _local.invoking = False
