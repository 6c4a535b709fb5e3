"""tf.FIFOQueue, tf.RandomShuffleQueue, tf.PaddingFIFOQueue and tf.PriorityQueue as TF 1.x
builds them (data_flow_ops.QueueBase): the queue op and its enqueue/enqueue_many/dequeue/
dequeue_many/dequeue_up_to/close/size ops, named as TensorFlow names them
("fifo_queue_enqueue", "fifo_queue_Dequeue", ...)."""

import hashlib

from engine.framework import dtypes as dtypes_lib
from engine.framework.default_graph import name_scope
from engine.framework.default_graph import init_scope
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed
from engine.framework.tensor_shape import Dimension, TensorShape, unknown_shape
from engine.framework.tensor_util import constant_value


def _as_type_list(dtypes):
    if not isinstance(dtypes, (list, tuple)):
        return [dtypes_lib.as_dtype(dtypes)]
    return [dtypes_lib.as_dtype(t) for t in dtypes]


def _as_shape_list(shapes, dtypes, unknown_dim_allowed=False):
    if unknown_dim_allowed:
        if (not isinstance(shapes, (list, tuple)) or not shapes or
                any(shape is None or isinstance(shape, int) for shape in shapes)):
            raise ValueError("When providing partial shapes, a list of shapes must be provided.")
    if shapes is None:
        return None
    if isinstance(shapes, TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError("Shapes must be a TensorShape or a list or tuple of TensorShapes, "
                        f"got {type(shapes)} instead.")
    if all(s is None or isinstance(s, int) for s in shapes):
        shapes = [shapes]
    shapes = [TensorShape(s) for s in shapes]
    if not unknown_dim_allowed and any(not shape.is_fully_defined() for shape in shapes):
        raise ValueError("All shapes must be fully defined: %s" % shapes)
    if any(shape.dims is None for shape in shapes):
        raise ValueError("All shapes must have a defined rank: %s" % shapes)
    return shapes


def _as_name_list(names, dtypes):
    if names is None:
        return None
    if not isinstance(names, (list, tuple)):
        names = [names]
    if len(names) != len(dtypes):
        raise ValueError("List of names must have the same length as the list of dtypes, "
                         f"received len(names)={len(names)},len(dtypes)={len(dtypes)}")
    return list(names)


class QueueBase:
    """A queue in the graph: its handle tensor, component dtypes, shapes and names."""

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes, received "
                                 f"len(shapes)={len(shapes)}, len(dtypes)={len(dtypes)}")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [unknown_shape() for _ in self._dtypes]
        self._names = names
        self._queue_ref = queue_ref
        self._name = self._queue_ref.op.name.split("/")[-1]

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        return self._dtypes

    @property
    def shapes(self):
        return self._shapes

    @property
    def names(self):
        return self._names

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  "
                                 f"Dictionary: {sorted(vals.keys())},Queue: "
                                 f"{sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        return [convert_to_tensor(val, dtype=dtype, name="component_%d" % i)
                for i, (val, dtype) in enumerate(zip(vals, self._dtypes))]

    def enqueue(self, vals, name=None):
        with name_scope(name, "%s_enqueue" % self._name) as scope:
            vals = self._check_enqueue_dtypes(vals)
            for val, shape in zip(vals, self._shapes):
                val.get_shape().assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueV2", handle=self._queue_ref, components=vals,
                            name=scope)

    def enqueue_many(self, vals, name=None):
        with name_scope(name, "%s_EnqueueMany" % self._name) as scope:
            vals = self._check_enqueue_dtypes(vals)
            batch_dim = Dimension(vals[0].get_shape().with_rank_at_least(1)[0].value)
            for val, shape in zip(vals, self._shapes):
                batch_dim = batch_dim.merge_with(
                    Dimension(val.get_shape().with_rank_at_least(1)[0].value))
                val.get_shape()[1:].assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueManyV2", handle=self._queue_ref, components=vals,
                            name=scope)

    def _dequeue_return_value(self, tensors):
        if self._names:
            return {n: tensors[i] for i, n in enumerate(self._names)}
        if len(tensors) == 1:
            return tensors[0]
        return tensors

    def _outputs(self, op_type, name, **inputs):
        result = apply_op(op_type, handle=self._queue_ref, component_types=self._dtypes,
                          name=name, **inputs)
        return [result] if not isinstance(result, (list, tuple)) else list(result)

    def dequeue(self, name=None):
        ret = self._outputs("QueueDequeueV2", name or "%s_Dequeue" % self._name)
        for output, shape in zip(ret, self._shapes):
            output.set_shape(shape)
        return self._dequeue_return_value(ret)

    def dequeue_many(self, n, name=None):
        ret = self._outputs("QueueDequeueManyV2", name or "%s_DequeueMany" % self._name, n=n)
        value = constant_value(ret[0].op.inputs[1])
        batch_dim = Dimension(None if value is None else int(value))
        for output, shape in zip(ret, self._shapes):
            output.set_shape(TensorShape([batch_dim]).concatenate(shape))
        return self._dequeue_return_value(ret)

    def dequeue_up_to(self, n, name=None):
        ret = self._outputs("QueueDequeueUpToV2", name or "%s_DequeueUpTo" % self._name, n=n)
        for output, shape in zip(ret, self._shapes):
            output.set_shape(TensorShape([None]).concatenate(shape))
        return self._dequeue_return_value(ret)

    def close(self, cancel_pending_enqueues=False, name=None):
        return apply_op("QueueCloseV2", handle=self._queue_ref,
                        cancel_pending_enqueues=cancel_pending_enqueues,
                        name=name or "%s_Close" % self._name)

    def is_closed(self, name=None):
        return apply_op("QueueIsClosedV2", handle=self._queue_ref,
                        name=name or "%s_Is_Closed" % self._name)

    def size(self, name=None):
        return apply_op("QueueSizeV2", handle=self._queue_ref,
                        name=name or "%s_Size" % self._name)


class FIFOQueue(QueueBase):
    """A queue that dequeues elements in the order they were enqueued."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        with init_scope(), get_default_graph().device("CPU"):
            queue_ref = apply_op("FIFOQueueV2", component_types=dtypes, shapes=shapes or [],
                                 capacity=capacity, shared_name=shared_name or "", name=name)
        super().__init__(dtypes, shapes, names, queue_ref)


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues elements in a random order (NumPy's generator, seeded from the
    graph and op seeds: not TensorFlow's stream)."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None,
                 seed=None, shared_name=None, name="random_shuffle_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            string = (str(seed1) + shared_name).encode("utf-8")
            seed2 = int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF
        queue_ref = apply_op("RandomShuffleQueueV2", component_types=dtypes,
                             shapes=shapes or [], capacity=capacity,
                             min_after_dequeue=min_after_dequeue, seed=seed1, seed2=seed2,
                             shared_name=shared_name or "", name=name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose components may vary in the dimensions their shapes leave None;
    dequeue_many pads each to the largest shape of its batch (zeros, empty strings)."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError("Shapes must be provided for all components, "
                             f"but received {len(dtypes)} dtypes and {len(shapes)} shapes.")
        queue_ref = apply_op("PaddingFIFOQueueV2", component_types=dtypes, shapes=shapes,
                             capacity=capacity, shared_name=shared_name or "", name=name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PriorityQueue(QueueBase):
    """A queue that dequeues the element of lowest priority first: every element starts with
    its int64 scalar priority, which `types` and `shapes` leave out."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        types = _as_type_list(types)
        shapes = _as_shape_list(shapes, types)
        if shapes is None:
            raise TypeError("Expected list for 'shapes' argument to 'priority_queue_v2' Op, "
                            "not None.")
        queue_ref = apply_op("PriorityQueueV2", component_types=types, shapes=shapes,
                             capacity=capacity, shared_name=shared_name or "", name=name)
        priority_dtypes = [dtypes_lib.int64] + types
        priority_shapes = [TensorShape([])] + shapes if shapes else shapes
        super().__init__(priority_dtypes, priority_shapes, names, queue_ref)
