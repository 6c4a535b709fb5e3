"""The stack ops a while loop's gradient keeps its forward values on (TensorFlow's
gen_data_flow_ops.stack_v2 / stack_push_v2 / stack_pop_v2), and tf.dynamic_partition and
tf.dynamic_stitch."""

from engine.ops.op_def_library import apply_op


def stack_v2(max_size, elem_type, stack_name="", name=None):
    """A stack resource of `elem_type` elements (max_size -1: unbounded)."""
    return apply_op("StackV2", name=name, max_size=max_size, elem_type=elem_type,
                    stack_name=stack_name)


def stack_push_v2(handle, elem, swap_memory=False, name=None):
    """Pushes `elem` on the stack `handle`; returns `elem`."""
    return apply_op("StackPushV2", name=name, handle=handle, elem=elem,
                    swap_memory=swap_memory)


def stack_pop_v2(handle, elem_type, name=None):
    """The top element of the stack `handle`, removed."""
    return apply_op("StackPopV2", name=name, handle=handle, elem_type=elem_type)


def stack_close_v2(handle, name=None):
    return apply_op("StackCloseV2", name=name, handle=handle)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """tf.dynamic_partition: `data`'s rows split by `partitions` into num_partitions tensors."""
    return list(apply_op("DynamicPartition", data=data, partitions=partitions,
                         num_partitions=num_partitions, name=name))


def dynamic_stitch(indices, data, name=None):
    """tf.dynamic_stitch: the `data` tensors' rows placed at `indices` in one tensor."""
    return apply_op("DynamicStitch", indices=list(indices), data=list(data), name=name)
