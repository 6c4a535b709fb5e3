"""tf.train's queue-based input pipelines (TF 1.0-1.3; TensorFlow's training/input.py):
limit_epochs, input_producer, range_input_producer, slice_input_producer,
string_input_producer, batch and shuffle_batch with their _join forms (one enqueue op per
list of tensors) and maybe_ forms (keep_input: a scalar choosing whether to enqueue, through
a cond unless it is constant, or a vector choosing the rows of enqueue_many), each a queue fed
by a QueueRunner, with the "fraction_of_N_full" summaries TensorFlow adds."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import GraphKeys, get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import no_op
from engine.ops.io_ops import matching_files
from engine.ops.convert import convert_n_to_tensor, convert_to_tensor
from engine.ops.logging_ops import Assert
from engine.ops.op_def_library import apply_op
from engine.ops.queue_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from engine.ops.shuffle_ops import random_shuffle
from engine.ops.variables import Variable
from engine.summary import ops as summary
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.framework.tensor_util import constant_value
from engine.training.queue_runner import QueueRunner, add_queue_runner


def match_filenames_once(pattern, name=None):
    """A local variable holding the files `pattern` matches when it is initialized."""
    with name_scope(name, "matching_filenames", [pattern]) as name:
        return Variable(name=name, initial_value=matching_files(pattern), trainable=False,
                        validate_shape=False, collections=[GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, which raises OutOfRangeError after it was read num_epochs times."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs") as scope:
        zero64 = constant(0, dtype=dtypes.int64)
        epochs = Variable(zero64, name="epochs", trainable=False,
                          collections=[GraphKeys.LOCAL_VARIABLES])
        counter = apply_op("CountUpTo", ref=epochs, limit=num_epochs)
        with get_default_graph().control_dependencies([counter]):
            return array_ops.identity(tensor, name=scope)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None,
                   cancel_op=None):
    """A FIFOQueue fed, by a QueueRunner, with the rows of `input_tensor` (shuffled)."""
    with name_scope(name, "input_producer") as scope:
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(TensorShape(element_shape))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                      shapes=[element_shape], shared_name=shared_name, name=scope)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            summary.scalar(summary_name, math_ops.cast(q.size(), dtypes.float32)
                           * (1. / capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None,
                          capacity=32, shared_name=None, name=None, cancel_op=None):
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not hasattr(string_tensor, "op") and not string_tensor:
        raise ValueError(not_null_err)
    with name_scope(name, "input_producer") as scope:
        string_tensor = convert_to_tensor(string_tensor, dtype=dtypes.string)
        with get_default_graph().control_dependencies([
                Assert(math_ops.greater(array_ops.size(string_tensor), 0), [not_null_err])]):
            string_tensor = array_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, element_shape=[],
                              num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                              capacity=capacity, shared_name=shared_name, name=scope,
                              summary_name="fraction_of_%d_full" % capacity,
                              cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    with name_scope(name, "input_producer") as scope:
        range_tensor = math_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, "fraction_of_%d_full" % capacity, scope)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of each tensor of `tensor_list` per dequeue, the rows in step."""
    with name_scope(name, "input_producer"):
        tensor_list = convert_n_to_tensor(tensor_list)
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    return tensors


def _as_original_type(original_tensors, tensor_list):
    if isinstance(original_tensors, dict):
        if len(original_tensors) == 1:
            tensor_list = [tensor_list]
        return {k: tensor_list[i] for i, k in enumerate(sorted(original_tensors, key=str))}
    return tensor_list


def _validate(tensor_list):
    tensor_list = convert_n_to_tensor(list(tensor_list))
    if not tensor_list:
        raise ValueError("Expected at least one tensor in batch().")
    return tensor_list


def _validate_keep_input(keep_input, enqueue_many):
    keep_input = convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _shapes(tensor_list, shapes, enqueue_many):
    if shapes is not None:
        return shapes
    result = []
    for t in tensor_list:
        if t.shape.ndims is None:
            raise ValueError("Cannot infer Tensor's rank: %s" % t)
        shape = as_shape(t.shape.as_list())
        if enqueue_many:
            shape = shape.with_rank_at_least(1)[1:]
        result.append(shape.as_list())
    return result


def _select_which_to_enqueue(tensor_list, keep_input):
    select = math_ops.cast(keep_input, dtypes.int32)
    return [apply_op("DynamicPartition", data=x, partitions=select, num_partitions=2)[1]
            for x in tensor_list]


def _enqueue_op(queue, tensor_list, enqueue_many, keep_input):
    enqueue_fn = queue.enqueue_many if enqueue_many else queue.enqueue
    if keep_input.shape.ndims == 1:
        return enqueue_fn(_select_which_to_enqueue(tensor_list, keep_input))
    keep = constant_value(keep_input)   # smart_cond: a constant decides now
    if keep is not None:
        return enqueue_fn(tensor_list) if bool(keep) else no_op()
    return cond(keep_input, lambda: enqueue_fn(tensor_list), no_op)


def _enqueue(queue, tensor_list, threads, enqueue_many, keep_input):
    enqueue_ops = [_enqueue_op(queue, tensor_list, enqueue_many, keep_input)] * threads
    add_queue_runner(QueueRunner(queue, enqueue_ops))


def _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input):
    enqueue_ops = [_enqueue_op(queue, tl, enqueue_many, keep_input) for tl in tensor_list_list]
    add_queue_runner(QueueRunner(queue, enqueue_ops))


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `tensors` from a FIFOQueue that `num_threads` QueueRunner threads fill."""
    return _batch(tensors, batch_size, True, num_threads, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32,
                enqueue_many=False, shapes=None, dynamic_pad=False,
                allow_smaller_final_batch=False, shared_name=None, name=None):
    """batch, enqueueing only where keep_input says."""
    return _batch(tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes,
                  dynamic_pad, allow_smaller_final_batch, shared_name, name)


def _which_queue(dynamic_pad):
    return PaddingFIFOQueue if dynamic_pad else FIFOQueue


def _batch(tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes,
           dynamic_pad, allow_smaller_final_batch, shared_name, name):
    tensor_list = _as_tensor_list(tensors)
    with name_scope(name, "batch") as scope:
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = [t.dtype for t in tensor_list]
        shapes = _shapes(tensor_list, shapes, enqueue_many)
        queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes,
                                          shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(queue.size(), dtypes.float32) * (1. / capacity))
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=scope)
        else:
            dequeued = queue.dequeue_many(batch_size, name=scope)
        return _as_original_type(tensors, dequeued)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
    """Batches drawn at random from a RandomShuffleQueue (NumPy's stream, not TensorFlow's)."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, True, num_threads,
                          seed, enqueue_many, shapes, allow_smaller_final_batch, shared_name,
                          name)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    """shuffle_batch, enqueueing only where keep_input says."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                          num_threads, seed, enqueue_many, shapes, allow_smaller_final_batch,
                          shared_name, name)


def _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads,
                   seed, enqueue_many, shapes, allow_smaller_final_batch, shared_name, name):
    tensor_list = _as_tensor_list(tensors)
    with name_scope(name, "shuffle_batch") as scope:
        if capacity <= min_after_dequeue:
            raise ValueError("capacity %d must be bigger than min_after_dequeue %d."
                             % (capacity, min_after_dequeue))
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = [t.dtype for t in tensor_list]
        shapes = _shapes(tensor_list, shapes, enqueue_many)
        queue = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue,
                                   seed=seed, dtypes=types, shapes=shapes,
                                   shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        full = (math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue),
                              dtypes.float32) * (1. / (capacity - min_after_dequeue)))
        summary.scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue,
                                                        capacity - min_after_dequeue), full)
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=scope)
        else:
            dequeued = queue.dequeue_many(batch_size, name=scope)
        return _as_original_type(tensors, dequeued)


# -- the _join forms: one enqueue op per list of tensors --------------------------------------

def _as_tensor_list_list(tensors_list):
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected_keys = set(tensors_list[0].keys())
        result = []
        for tensors in tensors_list:
            if set(tensors.keys()) != expected_keys:
                raise ValueError("All dictionaries in tensors_list must have the same keys")
            result.append(_as_tensor_list(tensors))
        return result
    return tensors_list


def _validate_join(tensor_list_list):
    tensor_list_list = [convert_n_to_tensor(list(tl)) for tl in tensor_list_list]
    if not tensor_list_list:
        raise ValueError("Expected at least one input in batch_join().")
    return tensor_list_list


def _join_dtypes(tensor_list_list):
    all_types = [[t.dtype for t in tl] for tl in tensor_list_list]
    types = all_types[0]
    for other_types in all_types[1:]:
        if other_types != types:
            raise TypeError("Expected types to be consistent: %s vs. %s."
                            % (", ".join(x.name for x in types),
                               ", ".join(x.name for x in other_types)))
    return types


def _join_shapes(tensor_list_list, shapes, enqueue_many):
    """Each position's shapes merged over the lists (less the batch dim of enqueue_many)."""
    if shapes is not None:
        return shapes
    merged = []
    for i in range(len(tensor_list_list[0])):
        shape = TensorShape(None)
        for tl in tensor_list_list:
            if tl[i].shape.ndims is None:
                raise ValueError("Cannot infer Tensor's rank: %s" % tl[i])
            shape = shape.merge_with(as_shape(_shapes([tl[i]], None, enqueue_many)[0]))
        merged.append(shape.as_list())
    return merged


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
               name=None):
    """Batches from one FIFOQueue that each list of tensors enqueues into (a thread each)."""
    return _batch_join(tensors_list, batch_size, True, capacity, enqueue_many, shapes,
                       dynamic_pad, allow_smaller_final_batch, shared_name, name)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
    return _batch_join(tensors_list, batch_size, keep_input, capacity, enqueue_many, shapes,
                       dynamic_pad, allow_smaller_final_batch, shared_name, name)


def _batch_join(tensors_list, batch_size, keep_input, capacity, enqueue_many, shapes,
                dynamic_pad, allow_smaller_final_batch, shared_name, name):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with name_scope(name, "batch_join") as scope:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _join_dtypes(tensor_list_list)
        shapes = _join_shapes(tensor_list_list, shapes, enqueue_many)
        queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes,
                                          shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(queue.size(), dtypes.float32) * (1. / capacity))
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=scope)
        else:
            dequeued = queue.dequeue_many(batch_size, name=scope)
        return _as_original_type(tensors_list[0], dequeued)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
    """Shuffled batches from one RandomShuffleQueue that each list of tensors enqueues into."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, True,
                               seed, enqueue_many, shapes, allow_smaller_final_batch,
                               shared_name, name)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                             seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue,
                               keep_input, seed, enqueue_many, shapes,
                               allow_smaller_final_batch, shared_name, name)


def _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed,
                        enqueue_many, shapes, allow_smaller_final_batch, shared_name, name):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with name_scope(name, "shuffle_batch_join") as scope:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _join_dtypes(tensor_list_list)
        shapes = _join_shapes(tensor_list_list, shapes, enqueue_many)
        queue = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue,
                                   seed=seed, dtypes=types, shapes=shapes,
                                   shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        full = (math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue),
                              dtypes.float32) * (1. / (capacity - min_after_dequeue)))
        summary.scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue,
                                                        capacity - min_after_dequeue), full)
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=scope)
        else:
            dequeued = queue.dequeue_many(batch_size, name=scope)
        return _as_original_type(tensors_list[0], dequeued)
