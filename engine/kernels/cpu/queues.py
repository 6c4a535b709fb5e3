"""NumPy CPU kernels of TF 1.x's input-pipeline queues (FIFOQueueV2, RandomShuffleQueueV2 and
their Enqueue/EnqueueMany/Dequeue/DequeueMany/DequeueUpTo/Close/Size/IsClosed ops) and of
CountUpTo, the epoch counter of tf.train's input producers.

A queue lives in the session's resources, created by the first run of its node and named
as TensorFlow names an unshared one ("_<id>_<node name>", ids counted per session). Enqueue
blocks while the queue is full and Dequeue while it has too few elements, each waking when
another run (a QueueRunner's thread) changes the queue, when it is closed (then
OutOfRangeError / CancelledError with TensorFlow's texts) or when the session closes. The
shuffle queue draws with NumPy's generator seeded from its seeds, not TensorFlow's Philox
stream: its order differs from TensorFlow's.
"""

import itertools
import threading

import numpy as np

from engine import errors
from engine.deadline import check as check_deadline
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle, shape_str
from engine.kernels.cpu.state import uninitialized
from engine.resources import ResourceHandle

_POLL_SECONDS = 0.05  # how often a blocked op looks at its run's deadline


class _Queue:
    """One queue: its elements (tuples of component arrays) and the condition its ops wait on."""

    def __init__(self, kind, name, capacity, component_types, shapes, min_after_dequeue=0,
                 seed=None):
        self.kind, self.name, self.capacity = kind, name, capacity
        self.component_types, self.shapes = component_types, shapes
        self.min_after_dequeue = min_after_dequeue
        self.rng = np.random.default_rng(seed) if kind == "RandomShuffleQueue" else None
        self.items, self.closed, self.cancelled = [], False, False
        self.condition = threading.Condition()

    def describe(self):
        return f"{self.kind} '{self.name}'"

    def wait(self):
        """Waits for a change; CancelledError once the session that owns the queue closed."""
        check_deadline()
        self.condition.wait(_POLL_SECONDS)
        if self.cancelled:
            raise errors.CancelledError(None, None, "Session has been closed.")

    def cancel(self):
        with self.condition:
            self.cancelled = True
            self.condition.notify_all()

    def take(self):
        if self.rng is None:
            return self.items.pop(0)
        return self.items.pop(int(self.rng.integers(len(self.items))))


# Creating a queue is check-then-store: two runs reaching the queue's node at once (the
# main thread's dequeue and a QueueRunner's first enqueue) would otherwise make one queue
# each, the enqueues going to one while the dequeue waits on the other for ever.
_CREATE_LOCK = threading.Lock()


def _queues(resources):
    """The session's queues by node name; `resources.queues_by_name` has them by queue name."""
    queues = resources.table("queues")
    if getattr(resources, "queues_by_name", None) is not None:
        return queues
    with _CREATE_LOCK:
        if getattr(resources, "queues_by_name", None) is None:
            resources.queue_ids = itertools.count()
            hooks = getattr(resources, "clear_hooks", None)
            if hooks is not None:
                hooks.append(lambda: [queue.cancel() for queue in list(queues.values())])
            resources.queues_by_name = {}  # last: its presence says the rest is set
    return queues


def _create(ctx, kind, **extra):
    queues = _queues(ctx.resources)
    queue = queues.get(ctx.name)
    if queue is None:
        with _CREATE_LOCK:
            queue = queues.get(ctx.name)
            if queue is None:
                shared = ctx.attr("shared_name", b"")
                shared = shared.decode() if isinstance(shared, bytes) else shared
                name = shared or f"_{next(ctx.resources.queue_ids)}_{ctx.name}"
                queue = _Queue(
                    kind, name, int(ctx.attr("capacity", -1)),
                    list(ctx.attr("component_types")),
                    [s.as_list() if s is not None and s.ndims is not None else None
                     for s in (ctx.attr("shapes") or [])], **extra)
                ctx.resources.queues_by_name[name] = queues[ctx.name] = queue
    return ResourceHandle("", queue.name, ctx.device, None, ())


def _lookup(ctx, handle):
    handle = resource_handle(handle)
    _queues(ctx.resources)
    queue = ctx.resources.queues_by_name.get(handle.name)
    if queue is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource localhost/{handle.name} does not exist.")
    return queue


@register("FIFOQueueV2")
def fifo_queue_v2(ctx):
    return _create(ctx, "FIFOQueue")


@register("RandomShuffleQueueV2")
def random_shuffle_queue_v2(ctx):
    seed, seed2 = int(ctx.attr("seed", 0)), int(ctx.attr("seed2", 0))
    return _create(ctx, "RandomShuffleQueue", min_after_dequeue=int(ctx.attr(
        "min_after_dequeue", 0)), seed=None if seed == seed2 == 0 else (seed, seed2))


def _check_components(ctx, queue, components, many):
    if len(components) != len(queue.component_types):
        raise invalid(ctx, f"Expected {len(queue.component_types)} components but got "
                           f"{len(components)}")
    arrays = [np.asarray(c) for c in components]
    for i, (array, shape) in enumerate(zip(arrays, queue.shapes or [None] * len(arrays))):
        element = array.shape[1:] if many else array.shape
        if shape is not None and list(element) != shape:
            what = "Shape of a slice of component" if many else "Shape mismatch in tuple component"
            raise invalid(ctx, f"{what} {i}. Expected {shape_str(shape)}, got "
                               f"{shape_str(element)}")
    return arrays


def _enqueue(ctx, queue, elements):
    with queue.condition:
        for element in elements:
            while True:
                if queue.closed:
                    raise errors.CancelledError(ctx.node_def, None,
                                                f"{queue.describe()} is closed.")
                if queue.capacity < 0 or len(queue.items) < queue.capacity:
                    break
                queue.wait()
            queue.items.append(element)
            queue.condition.notify_all()


@register("QueueEnqueueV2")
def queue_enqueue_v2(ctx, handle, *components):
    queue = _lookup(ctx, handle)
    _enqueue(ctx, queue, [tuple(_check_components(ctx, queue, components, False))])


@register("QueueEnqueueManyV2")
def queue_enqueue_many_v2(ctx, handle, *components):
    queue = _lookup(ctx, handle)
    arrays = _check_components(ctx, queue, components, True)
    sizes = {a.shape[0] if a.ndim else None for a in arrays}
    if None in sizes or len(sizes) != 1:
        raise invalid(ctx, "Expected all components to have the same first dimension")
    count = sizes.pop()
    _enqueue(ctx, queue, [tuple(a[i] for a in arrays) for i in range(count)])


def _dequeue(ctx, queue, count, up_to=False, many=False):
    if many and not queue.shapes:
        raise invalid(ctx, f"{queue.kind}'s DequeueMany and DequeueUpTo require the "
                           "components to have specified shapes.")
    with queue.condition:
        while True:
            available = len(queue.items) - (0 if queue.closed else queue.min_after_dequeue)
            if available >= count:
                break
            if queue.closed:
                if up_to and queue.items:
                    count = len(queue.items)
                    break
                raise errors.OutOfRangeError(
                    ctx.node_def, None,
                    f"{queue.describe()} is closed and has insufficient elements (requested "
                    f"{count}, current size {len(queue.items)})")
            queue.wait()
        taken = [queue.take() for _ in range(count)]
        queue.condition.notify_all()
    return taken


def _outputs(values):
    return values[0] if len(values) == 1 else tuple(values)


@register("QueueDequeueV2")
def queue_dequeue_v2(ctx, handle):
    queue = _lookup(ctx, handle)
    (element,) = _dequeue(ctx, queue, 1)
    return _outputs(list(element))


def _stacked(queue, elements):
    return _outputs([np.stack([e[i] for e in elements]) if elements else
                     np.zeros([0] + (queue.shapes[i] if queue.shapes else []),
                              queue.component_types[i].as_numpy_dtype)
                     for i in range(len(queue.component_types))])


@register("QueueDequeueManyV2")
def queue_dequeue_many_v2(ctx, handle, n):
    queue = _lookup(ctx, handle)
    count = int(n)
    if count < 0:
        raise invalid(ctx, f"DequeueManyOp requested {count} < 0 elements")
    return _stacked(queue, _dequeue(ctx, queue, count, many=True))


@register("QueueDequeueUpToV2")
def queue_dequeue_up_to_v2(ctx, handle, n):
    queue = _lookup(ctx, handle)
    return _stacked(queue, _dequeue(ctx, queue, int(n), up_to=True, many=True))


@register("QueueCloseV2")
def queue_close_v2(ctx, handle):
    queue = _lookup(ctx, handle)
    with queue.condition:
        queue.closed = True
        if ctx.attr("cancel_pending_enqueues", False):
            queue.cancelled_enqueues = True
        queue.condition.notify_all()


@register("QueueSizeV2")
def queue_size_v2(ctx, handle):
    queue = _lookup(ctx, handle)
    with queue.condition:
        return np.array(len(queue.items), np.int32)


@register("QueueIsClosedV2")
def queue_is_closed_v2(ctx, handle):
    return np.array(_lookup(ctx, handle).closed)


@register("CountUpTo")
def count_up_to(ctx, ref):
    """The variable's value before adding one; OutOfRangeError once it reached `limit`."""
    limit = int(ctx.attr("limit"))
    with ref.lock:
        value = ref.value
        if value is None:
            raise uninitialized(ctx, ref)
        if int(value) >= limit:
            raise errors.OutOfRangeError(ctx.node_def, None, f"Reached limit of {limit}")
        before = np.array(value)
        ref.value = np.array(value + 1, dtype=np.asarray(value).dtype)
    return before
