"""TensorList graphs (TF2's TensorArray) built the same way by real TensorFlow and by the engine,
through tf.raw_ops: values and gradients in CASES (run by layers_cases.run_case), programs
that must fail in ERRORS (each returns the tensor whose run raises; the kernel's message is
compared). Fixtures in tests/fixtures/lists/ (tools/make_list_fixtures.py)."""

import numpy as np

ROWS = np.random.RandomState(31).uniform(-1, 1, size=(5, 3)).astype(np.float32)


def _unknown(tf, value, dtype=None):
    """`value` as a tensor of unknown static shape: the error comes from the kernel."""
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), None)


def _rows(tf):
    return tf.placeholder(tf.float32, [5, 3], name="x")


def _grads(tf, out, loss, x):
    out["loss"] = loss
    out["grad:x"] = tf.convert_to_tensor(tf.gradients(loss, x)[0])  # IndexedSlices dense
    return out, {"x": ROWS}, []


def build_reserve_set_stack(tf):
    """Reserve 4, set two of them from rows of x, stack: the unset ones are zeros."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListReserve(element_shape=[3], num_elements=4, element_dtype=tf.float32)
    handle = R.TensorListSetItem(input_handle=handle, index=2, item=x[0] * 2.0)
    handle = R.TensorListSetItem(input_handle=handle, index=0, item=tf.sin(x[3]))
    stacked = R.TensorListStack(input_handle=handle, element_shape=[3],
                                element_dtype=tf.float32)
    length = R.TensorListLength(input_handle=handle)
    loss = tf.reduce_sum(stacked * stacked)
    return _grads(tf, {"stacked": stacked, "length": length}, loss, x)


def build_from_tensor_read_twice(tf):
    """A list from x read at two indices: its gradient sums two lists (AddN of variants)."""
    R, x = tf.raw_ops, _rows(tf)
    # Of unknown shape, element_shape -1: no list element shape is known statically
    # (TensorFlow keeps one as the list's handle data, which the engine does not track).
    tensor = tf.placeholder_with_default(x * 3.0, None)
    handle = R.TensorListFromTensor(tensor=tensor, element_shape=-1)
    one = R.TensorListGetItem(input_handle=handle, index=1, element_shape=[3],
                              element_dtype=tf.float32)
    four = R.TensorListGetItem(input_handle=handle, index=4, element_shape=-1,
                               element_dtype=tf.float32)
    loss = tf.reduce_sum(one * four) + tf.reduce_sum(tf.exp(one))
    shape = R.TensorListElementShape(input_handle=handle, shape_type=tf.int32)
    return _grads(tf, {"one": one, "four": four, "element_shape": shape}, loss, x)


def build_push_pop(tf):
    """Push three rows on an empty list, pop one, stack the rest."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.EmptyTensorList(element_shape=-1, max_num_elements=-1, element_dtype=tf.float32)
    for i in (0, 2, 4):
        handle = R.TensorListPushBack(input_handle=handle, tensor=x[i] * float(i + 1))
    handle, last = R.TensorListPopBack(input_handle=handle, element_shape=[3],
                                       element_dtype=tf.float32)
    rest = R.TensorListStack(input_handle=handle, element_shape=[3], element_dtype=tf.float32)
    loss = tf.reduce_sum(last * last) + tf.reduce_sum(tf.square(rest) * 0.5)
    return _grads(tf, {"last": last, "rest": rest,
                       "length": R.TensorListLength(input_handle=handle)}, loss, x)


def build_scatter_gather(tf):
    """Scatter x's rows to 3, 0, 1 of a list of 6, gather 1, 3 and an unset 5."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListScatterV2(tensor=x[:3], indices=[3, 0, 1], element_shape=[3],
                                   num_elements=6)
    picked = R.TensorListGather(input_handle=handle, indices=[1, 3, 5], element_shape=[3],
                                element_dtype=tf.float32)
    whole = R.TensorListStack(input_handle=handle, element_shape=[3], element_dtype=tf.float32)
    loss = tf.reduce_sum(tf.tanh(picked)) + tf.reduce_sum(whole * 0.25)
    return _grads(tf, {"picked": picked, "whole": whole}, loss, x)


def build_scatter_into_existing(tf):
    """Scatter two rows into a reserved list, then two more over one of them and an unset one.

    Not past the end: TensorFlow 2.21 grows the list then with empty float tensors, not unset
    ones, so a stack after it shifts the later rows up and ends in uninitialized memory (the
    engine grows it with unset elements, zeros when stacked)."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListReserve(element_shape=[3], num_elements=3, element_dtype=tf.float32)
    handle = R.TensorListScatterIntoExistingList(input_handle=handle, tensor=x[:2],
                                                 indices=[2, 0])
    handle = R.TensorListScatterIntoExistingList(input_handle=handle, tensor=x[2:4] * 5.0,
                                                 indices=[0, 1])
    stacked = R.TensorListStack(input_handle=handle, element_shape=[3], element_dtype=tf.float32)
    loss = tf.reduce_sum(stacked * stacked)
    return _grads(tf, {"stacked": stacked}, loss, x)


def build_split_concat(tf):
    """Split x into pieces of 2, 0 and 3 rows, read one, concat them back."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListSplit(tensor=x, element_shape=[-1, 3],
                               lengths=tf.constant([2, 0, 3], tf.int64))
    piece = R.TensorListGetItem(input_handle=handle, index=2, element_shape=[-1, 3],
                                element_dtype=tf.float32)
    whole, lengths = R.TensorListConcatV2(input_handle=handle, element_shape=[-1, 3],
                                          leading_dims=tf.zeros([0], tf.int64),
                                          element_dtype=tf.float32)
    loss = tf.reduce_sum(whole * whole) + tf.reduce_sum(piece)
    return _grads(tf, {"piece": piece, "whole": whole, "lengths": lengths}, loss, x)


def build_resize_and_shapes(tf):
    """Resize grows with unset elements and shrinks; element shapes come back as written."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListFromTensor(tensor=x, element_shape=[-1])
    grown = R.TensorListResize(input_handle=handle, size=7)
    shrunk = R.TensorListResize(input_handle=handle, size=2)
    stacked = R.TensorListStack(input_handle=shrunk, element_shape=[3],
                                element_dtype=tf.float32, num_elements=2)
    unknown = R.TensorListReserve(element_shape=-1, num_elements=2, element_dtype=tf.int32)
    loss = tf.reduce_sum(stacked * x[:2])
    out = {"grown": R.TensorListLength(input_handle=grown), "stacked": stacked,
           "grown_stack": R.TensorListStack(input_handle=grown, element_shape=[3],
                                            element_dtype=tf.float32),
           "shape_partial": R.TensorListElementShape(input_handle=handle,
                                                     shape_type=tf.int64),
           "shape_unknown": R.TensorListElementShape(input_handle=unknown,
                                                     shape_type=tf.int32)}
    return _grads(tf, out, loss, x)


def build_set_item_resizing(tf):
    """SetItem past the end with resize_if_index_out_of_bounds grows the list."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListReserve(element_shape=[3], num_elements=1, element_dtype=tf.float32)
    handle = R.TensorListSetItem(input_handle=handle, index=3, item=x[1],
                                 resize_if_index_out_of_bounds=True)
    stacked = R.TensorListStack(input_handle=handle, element_shape=[3], element_dtype=tf.float32)
    loss = tf.reduce_sum(tf.exp(stacked))
    return _grads(tf, {"stacked": stacked}, loss, x)


def build_loop_over_a_list(tf):
    """A while loop writing one row per step into a list, as tf.TensorArray does in TF2."""
    R, x = tf.raw_ops, _rows(tf)
    handle = R.TensorListReserve(element_shape=[3], num_elements=5, element_dtype=tf.float32)

    def body(i, acc, handle):
        acc = acc * 0.5 + tf.gather(x, i)
        return i + 1, acc, R.TensorListSetItem(input_handle=handle, index=i, item=tf.sin(acc))

    _, last, handle = tf.while_loop(lambda i, *_: i < 5, body,
                                    [tf.constant(0), tf.zeros([3]), handle])
    stacked = R.TensorListStack(input_handle=handle, element_shape=[3], element_dtype=tf.float32)
    loss = tf.reduce_sum(stacked * stacked) + tf.reduce_sum(last)
    return _grads(tf, {"stacked": stacked, "last": last}, loss, x)


def build_strings_and_ints(tf):
    """Lists of strings and of int64: what the elements are does not matter to a list."""
    R = tf.raw_ops
    words = R.TensorListFromTensor(tensor=tf.constant([b"a", b"bc", b"def"]), element_shape=-1)
    words = R.TensorListPushBack(input_handle=words, tensor=tf.constant(b"gh"))
    numbers = R.TensorListScatterV2(tensor=tf.constant([[1, 2], [3, 4]], tf.int64),
                                    indices=[1, 0], element_shape=[2], num_elements=-1)
    return {"words": R.TensorListStack(input_handle=words, element_shape=-1,
                                       element_dtype=tf.string),
            "numbers": R.TensorListGather(input_handle=numbers, indices=[0, 0, 1],
                                          element_shape=[2], element_dtype=tf.int64)}, {}, []


CASES = {"list_reserve_set_stack": build_reserve_set_stack,
         "list_from_tensor_read_twice": build_from_tensor_read_twice,
         "list_push_pop": build_push_pop, "list_scatter_gather": build_scatter_gather,
         "list_scatter_into_existing": build_scatter_into_existing,
         "list_split_concat": build_split_concat,
         "list_resize_and_shapes": build_resize_and_shapes,
         "list_set_item_resizing": build_set_item_resizing,
         "list_loop": build_loop_over_a_list, "list_strings_and_ints": build_strings_and_ints}


def _reserved(tf, element_shape=(2,), count=3):
    return tf.raw_ops.TensorListReserve(element_shape=_unknown(tf, list(element_shape),
                                                               tf.int32),
                                        num_elements=count, element_dtype=tf.float32)


def _get(tf, handle, index, element_shape=-1):
    return tf.raw_ops.TensorListGetItem(input_handle=handle, index=_unknown(tf, index),
                                        element_shape=element_shape, element_dtype=tf.float32)


ERRORS = {
    "get_past_end": lambda tf: _get(tf, _reserved(tf), 5),
    "get_negative": lambda tf: _get(tf, _reserved(tf), -1),
    "get_unset_unknown_shape": lambda tf: _get(tf, tf.raw_ops.TensorListReserve(
        element_shape=-1, num_elements=2, element_dtype=tf.float32), 0),
    "get_shape_conflict": lambda tf: _get(tf, _reserved(tf), 0, _unknown(tf, [3])),
    "set_past_end": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListSetItem(input_handle=_reserved(tf),
                                                  index=_unknown(tf, 3),
                                                  item=[1.0, 2.0])),
    "set_wrong_shape": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListSetItem(input_handle=_reserved(tf), index=1,
                                                  item=_unknown(tf, [1.0, 2.0, 3.0]))),
    "stack_count": lambda tf: tf.raw_ops.TensorListStack(
        input_handle=_reserved(tf), element_shape=-1, element_dtype=tf.float32,
        num_elements=2),
    "stack_unset_unknown_shape": lambda tf: tf.raw_ops.TensorListStack(
        input_handle=tf.raw_ops.TensorListReserve(element_shape=-1, num_elements=2,
                                                  element_dtype=tf.float32),
        element_shape=-1, element_dtype=tf.float32),
    "stack_empty_unknown_shape": lambda tf: tf.raw_ops.TensorListStack(
        input_handle=tf.raw_ops.EmptyTensorList(element_shape=-1, max_num_elements=-1,
                                                element_dtype=tf.float32),
        element_shape=-1, element_dtype=tf.float32),
    "pop_empty": lambda tf: tf.raw_ops.TensorListPopBack(
        input_handle=tf.raw_ops.EmptyTensorList(element_shape=-1, max_num_elements=-1,
                                                element_dtype=tf.float32),
        element_shape=-1, element_dtype=tf.float32)[1],
    "push_full": lambda tf: tf.raw_ops.TensorListLength(input_handle=tf.raw_ops.TensorListPushBack(
        input_handle=tf.raw_ops.TensorListPushBack(
            input_handle=tf.raw_ops.EmptyTensorList(element_shape=-1, max_num_elements=1,
                                                    element_dtype=tf.float32),
            tensor=[1.0]), tensor=[2.0])),
    "push_wrong_shape": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListPushBack(input_handle=_reserved(tf),
                                                   tensor=_unknown(tf, [1.0]))),
    "reserve_negative": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListReserve(element_shape=-1,
                                                  num_elements=_unknown(tf, -2),
                                                  element_dtype=tf.float32)),
    "scalar_element_shape": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListReserve(element_shape=_unknown(tf, 4),
                                                  num_elements=1, element_dtype=tf.float32)),
    "gather_past_end": lambda tf: tf.raw_ops.TensorListGather(
        input_handle=_reserved(tf), indices=_unknown(tf, [0, 7]), element_shape=-1,
        element_dtype=tf.float32),
    "from_scalar": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListFromTensor(tensor=_unknown(tf, 1.0),
                                                     element_shape=-1)),
    "from_tensor_wrong_shape": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListFromTensor(tensor=_unknown(tf, [[1.0, 2.0]]),
                                                     element_shape=[3])),
    "scatter_negative": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListScatterV2(
            tensor=[[1.0, 2.0]], indices=_unknown(tf, [-1]), element_shape=[2],
            num_elements=-1)),
    "scatter_past_size": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListScatterV2(
            tensor=[[1.0, 2.0]], indices=_unknown(tf, [4]), element_shape=[2],
            num_elements=2)),
    "scatter_rows": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListScatterV2(
            tensor=_unknown(tf, [[1.0, 2.0]]), indices=_unknown(tf, [0, 1]),
            element_shape=[2], num_elements=-1)),
    "split_unused": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListSplit(
            tensor=[1.0, 2.0, 3.0], element_shape=-1,
            lengths=_unknown(tf, [1, 1], tf.int64))),
    "split_past_end": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListSplit(
            tensor=[1.0, 2.0, 3.0], element_shape=-1,
            lengths=_unknown(tf, [1, 5], tf.int64))),
    "concat_scalars": lambda tf: tf.raw_ops.TensorListConcatV2(
        input_handle=tf.raw_ops.TensorListFromTensor(tensor=_unknown(tf, [1.0, 2.0]),
                                                     element_shape=-1),
        element_shape=-1, leading_dims=tf.zeros([0], tf.int64), element_dtype=tf.float32)[0],
    "concat_unset_without_leading_dims": lambda tf: tf.raw_ops.TensorListConcatV2(
        input_handle=tf.raw_ops.TensorListReserve(element_shape=[-1, 2], num_elements=2,
                                                  element_dtype=tf.float32),
        element_shape=[-1, 2], leading_dims=tf.zeros([0], tf.int64),
        element_dtype=tf.float32)[0],
    "resize_negative": lambda tf: tf.raw_ops.TensorListLength(
        input_handle=tf.raw_ops.TensorListResize(input_handle=_reserved(tf),
                                                 size=_unknown(tf, -1))),
}


def run_error(tf, name):
    """(error class name, the kernel's message line) of running ERRORS[name]."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except ValueError as error:  # TensorFlow's shape function refused it while building
            return ["ValueError", str(error).split(" for '")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1]]
    return ["no error", ""]
