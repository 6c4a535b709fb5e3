"""CPU kernels of tf.CriticalSection's ops: MutexV2, MutexLock, ConsumeMutexLock
(TensorFlow's core/kernels/mutex_ops.cc; the mutex itself is engine/runtime/mutexes.py)."""

from engine.framework.errors import InternalError
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle
from engine.runtime.mutexes import HeldLock, Mutex
from engine.runtime.resources import ResourceHandle


def _text(value):
    return value.decode() if isinstance(value, bytes) else (value or "")


@register("MutexV2")
def mutex_v2(ctx):
    # TensorFlow's ResourceHandleOp: the handle names shared_name as given (an empty one
    # too: every MutexV2 without a shared_name of a container is the same mutex).
    return ResourceHandle(_text(ctx.attr("container")), _text(ctx.attr("shared_name")),
                          ctx.device, None, ())


@register("MutexLock")
def mutex_lock(ctx, handle):
    handle = resource_handle(handle)
    if not isinstance(handle, ResourceHandle):
        raise invalid(ctx, f"Expected input to be a resource handle, saw: {handle!r}")
    mutexes = ctx.resources.table("mutexes")
    key = (handle.container, handle.name)
    mutex = mutexes.get(key)
    if mutex is None:
        mutex = mutexes.setdefault(key, Mutex(handle.name))
    if mutex.held_by_this_thread():
        # TensorFlow's MutexLock would wait for ever: its step holds the lock and cannot
        # consume it while this node waits (the plan orders a step's sections so that this
        # only happens where no order can: a section inside a loop's parallel iterations).
        raise InternalError(ctx.node_def, None,
                            f"{mutex.label()} is already held by this step, which would wait "
                            f"for it for ever (a deadlock)")
    return mutex.acquire(ctx.resources.held_mutex_locks)


@register("ConsumeMutexLock")
def consume_mutex_lock(ctx, lock):
    if not isinstance(lock, HeldLock):
        raise invalid(ctx, "Expected input to contain a SharedLockReleaser object, but saw "
                           f"variant: '{lock!r}'")
    # TensorFlow frees the mutex when the lock's tensor is destroyed, right after its last
    # reader, this node; the engine frees it here.
    lock.release()
