"""NumPy CPU kernels of TF 1.x's input-pipeline queues (FIFOQueueV2, RandomShuffleQueueV2,
PaddingFIFOQueueV2 (dequeue_many pads to the batch's largest shape), PriorityQueueV2 (lowest
int64 priority first; equal priorities first in, first out, where TensorFlow's heap leaves
their order unspecified) and
their Enqueue/EnqueueMany/Dequeue/DequeueMany/DequeueUpTo/Close/Size/IsClosed ops) and of
CountUpTo, the epoch counter of tf.train's input producers.

A queue lives in the session's resources, created by the first run of its node and named
as TensorFlow names an unshared one ("_<id>_<node name>", ids counted per session). Enqueue
blocks while the queue is full and Dequeue while it has too few elements, each waking when
another run (a QueueRunner's thread) changes the queue, when it is closed (then
OutOfRangeError / CancelledError with TensorFlow's texts) or when the session closes.

The shuffle queue is TensorFlow's (random_shuffle_queue_op.cc), draw for draw: each draw is
the next uint32 of Philox(seed, seed2) read one at a time (SingleSampleAdapter) modulo the
queue's size, and the drawn slot is refilled with the last element. A dequeue is an attempt
that takes an element whenever the queue holds more than min_after_dequeue, also while its
batch is incomplete, and it is served by whoever changes the queue (the enqueue that made
the queue big enough), as QueueBase::FlushUnlocked serves it; so the elements a batch is
drawn from are those TensorFlow's would be drawn from.
"""

import heapq
import itertools
import os
import threading

import numpy as np

from engine.framework import dtypes as dtypes_lib
from engine.framework import errors
from engine.runtime.deadline import check as check_deadline
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle, shape_str
from engine.kernels.cpu.state import uninitialized
from engine.runtime.random_philox import PhiloxRandom
from engine.runtime.resources import ResourceHandle

_POLL_SECONDS = 0.05  # how often a blocked op looks at its run's deadline


class _Queue:
    """One queue: its elements (tuples of component arrays) and the condition its ops wait on."""

    def __init__(self, kind, name, capacity, component_types, shapes, min_after_dequeue=0,
                 seed=None):
        self.kind, self.name, self.capacity = kind, name, capacity
        self.component_types, self.shapes = component_types, shapes
        self.min_after_dequeue = min_after_dequeue
        self.draws = _Draws(*seed) if kind == "RandomShuffleQueue" else None
        self.items, self.closed, self.cancelled = [], False, False
        self.order = itertools.count()  # the priority queue's tie-break: first in, first out
        self.attempts = []  # the shuffle queue's waiting dequeues, served in order
        self.dequeuers = []  # the FIFO queue's waiting dequeues, in the order they came
        self.condition = threading.Condition()

    def describe(self):
        # PaddingFIFOQueue's texts are its base FIFOQueue's (padding_fifo_queue.cc), but
        # for its own TryDequeueMany's.
        kind = "FIFOQueue" if self.kind == "PaddingFIFOQueue" else self.kind
        return f"{kind} '{self.name}'"

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

    def put(self, element):
        if self.kind == "PriorityQueue":
            heapq.heappush(self.items, (int(element[0]), next(self.order), element))
        else:
            self.items.append(element)

    def take(self):
        if self.kind == "PriorityQueue":
            return heapq.heappop(self.items)[2]
        if self.draws is None:
            return self.items.pop(0)
        index = self.draws.next() % len(self.items)
        element = self.items[index]
        self.items[index] = self.items[-1]
        self.items.pop()
        return element


class _Draws:
    """RandomShuffleQueue's generator: Philox(seed, seed2) one uint32 at a time; both seeds 0
    mean seeds from the OS, as random::New64 gives them."""

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self.philox, self.words = PhiloxRandom(seed, seed2), []

    def next(self):
        if not self.words:
            self.words = [int(w) for w in self.philox.next_blocks(1)[0]]
        return self.words.pop(0)


class _Attempt:
    """A waiting dequeue of the shuffle queue: what it has taken, how many it still wants."""

    def __init__(self, count, up_to):
        self.wanted, self.up_to, self.taken = count, up_to, []
        self.done, self.error = False, None


def _advance(queue, attempt):
    """One attempt's progress, as RandomShuffleQueue::TryDequeueMany's callback makes it."""
    size = len(queue.items)
    if queue.closed and size < attempt.wanted:
        # Too few for the rest of the batch: what it took goes back, last taken first.
        queue.items.extend(reversed(attempt.taken))
        attempt.taken = []
        if attempt.up_to and queue.items:
            attempt.wanted = size = len(queue.items)
        else:
            attempt.error = (f"{queue.describe()} is closed and has insufficient elements "
                             f"(requested {attempt.wanted}, current size {size})")
            attempt.done = True
            return
    available = size if queue.closed else size - queue.min_after_dequeue
    while available > 0:
        attempt.taken.append(queue.take())
        attempt.wanted -= 1
        available -= 1
        if attempt.wanted == 0:
            attempt.done = True
            return


def _serve(queue):
    """Serves the shuffle queue's waiting dequeues in order; the first unfinished one blocks
    those behind it. Called, holding the queue's lock, by every change to the queue."""
    if queue.draws is None:
        return
    while queue.attempts:
        attempt = queue.attempts[0]
        _advance(queue, attempt)
        if not attempt.done:
            break
        queue.attempts.pop(0)
        queue.condition.notify_all()


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
            hooks = getattr(resources, "clear_hooks", None)
            if hooks is not None:
                hooks.append(lambda: [queue.cancel() for queue in list(queues.values())])
            resources.queues_by_name = {}  # last: its presence says the rest is set
    return queues


def _partial_shape_text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _create(ctx, kind, **extra):
    queues = _queues(ctx.resources)
    queue = queues.get(ctx.name)
    if queue is None:
        with _CREATE_LOCK:
            queue = queues.get(ctx.name)
            if queue is None:
                types = list(ctx.attr("component_types"))
                shapes = [s.as_list() if s is not None and s.ndims is not None else None
                          for s in (ctx.attr("shapes") or [])]
                if kind == "PriorityQueue":  # the int64 priority comes first
                    types = [dtypes_lib.int64] + types
                    shapes = [[]] + shapes
                shared = ctx.attr("shared_name", b"")
                shared = shared.decode() if isinstance(shared, bytes) else shared
                name = ctx.resources.resource_name(ctx.name, shared)
                queue = _Queue(kind, name, int(ctx.attr("capacity", -1)), types,
                               shapes if ctx.attr("shapes") else [], **extra)
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


def lookup(ctx, handle):
    """The queue a handle names (for the readers, which dequeue file names themselves)."""
    return _lookup(ctx, handle)


def dequeue(ctx, queue, count):
    """`count` elements, blocking as a QueueDequeue op blocks."""
    return _dequeue(ctx, queue, count)


@register("FIFOQueueV2")
def fifo_queue_v2(ctx):
    return _create(ctx, "FIFOQueue")


@register("RandomShuffleQueueV2")
def random_shuffle_queue_v2(ctx):
    seed, seed2 = int(ctx.attr("seed", 0)), int(ctx.attr("seed2", 0))
    return _create(ctx, "RandomShuffleQueue", min_after_dequeue=int(ctx.attr(
        "min_after_dequeue", 0)), seed=(seed, seed2))


def _check_components(ctx, queue, components, many):
    if len(components) != len(queue.component_types):
        raise invalid(ctx, f"Expected {len(queue.component_types)} components but got "
                           f"{len(components)}")
    arrays = [np.asarray(c) for c in components]
    for i, (array, shape) in enumerate(zip(arrays, queue.shapes or [None] * len(arrays))):
        element = array.shape[1:] if many else array.shape
        if shape is not None and (len(element) != len(shape) or any(
                d is not None and d != e for d, e in zip(shape, element))):
            what = "Shape of a slice of component" if many else "Shape mismatch in tuple component"
            raise invalid(ctx, f"{what} {i}. Expected {_partial_shape_text(shape)}, got "
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
            queue.put(element)
            _serve(queue)
            queue.condition.notify_all()


@register("PaddingFIFOQueueV2")
def padding_fifo_queue_v2(ctx):
    return _create(ctx, "PaddingFIFOQueue")


@register("PriorityQueueV2")
def priority_queue_v2(ctx):
    return _create(ctx, "PriorityQueue")


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
    if queue.draws is not None:
        return _dequeue_shuffled(ctx, queue, count, up_to) if count else []
    with queue.condition:
        # Served in the order they came, as QueueBase::FlushUnlocked serves its dequeue
        # attempts: a dequeue that finds elements does not pass one that waited for them
        # while its thread had not woken yet (SyncReplicasOptimizer's tokens would go to
        # the faster worker twice).
        turn = object()
        queue.dequeuers.append(turn)
        try:
            while True:
                if queue.dequeuers[0] is turn:
                    available = len(queue.items) - (0 if queue.closed else
                                                    queue.min_after_dequeue)
                    if available >= count:
                        break
                    if queue.closed:
                        if up_to and queue.kind == "PriorityQueue" and queue.items:
                            # TensorFlow's PriorityQueue::TryDequeueMany takes what the
                            # closed queue holds, then finds it too small for the rest of
                            # the batch and fails; what it took is lost.
                            count -= len(queue.items)
                            queue.items.clear()
                        elif up_to and queue.items:
                            count = len(queue.items)
                            break
                        # PaddingFIFOQueue's own TryDequeueMany names its own kind.
                        what = (f"{queue.kind} '{queue.name}'" if many else
                                queue.describe())
                        raise errors.OutOfRangeError(
                            ctx.node_def, None,
                            f"{what} is closed and has insufficient elements "
                            f"(requested {count}, current size {len(queue.items)})")
                queue.wait()
            taken = [queue.take() for _ in range(count)]
        finally:
            queue.dequeuers.remove(turn)
            queue.condition.notify_all()
    return taken


def _dequeue_shuffled(ctx, queue, count, up_to):
    with queue.condition:
        attempt = _Attempt(count, up_to)
        queue.attempts.append(attempt)
        _serve(queue)
        try:
            while not attempt.done:
                queue.wait()
        finally:
            if not attempt.done:
                queue.attempts.remove(attempt)
        queue.condition.notify_all()
    if attempt.error:
        raise errors.OutOfRangeError(ctx.node_def, None, attempt.error)
    return attempt.taken


def _outputs(values):
    return values[0] if len(values) == 1 else tuple(values)


@register("QueueDequeueV2")
def queue_dequeue_v2(ctx, handle):
    queue = _lookup(ctx, handle)
    (element,) = _dequeue(ctx, queue, 1)
    return _outputs(list(element))


def _padded(queue, i, parts):
    """PaddingFIFOQueue's batch of component i: each element padded to the batch's largest
    shape with zeros (empty strings)."""
    shape = [max([p.shape[d] for p in parts] + [0]) for d in range(len(queue.shapes[i]))]
    dtype = queue.component_types[i].as_numpy_dtype
    batch = np.zeros([len(parts)] + shape, dtype=dtype)
    if batch.dtype.kind == "O":
        batch.fill(b"")
    for k, part in enumerate(parts):
        # (a 0-d object array stored whole would be an element of the batch)
        batch[(k,) + tuple(slice(0, n) for n in part.shape)] = part if part.ndim else part[()]
    return batch


def _stacked(queue, elements):
    if queue.kind == "PaddingFIFOQueue":
        return _outputs([_padded(queue, i, [np.asarray(e[i]) for e in elements])
                         for i in range(len(queue.component_types))])
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
        _serve(queue)
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
