"""tf.sort, tf.argsort, tf.repeat, tf.ensure_shape, tf.parallel_stack, tf.fingerprint and the
other array and shape ops of this set, built the same way by real TensorFlow and the engine,
in tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): values, the gradient
of the outputs' sum of squares with respect to x, static shapes and graph nodes; the kernels'
errors and the Python layer's. tools/make_array_shape_fixtures.py writes TensorFlow's to
tests/fixtures/array_shape/; tests/engine/test_array_shape_ops.py compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(11)


def _random(shape, dtype=np.float32, low=-1.0, high=1.0):
    return _R.uniform(low, high, shape).astype(dtype)


def _ints(shape, low, high, dtype=np.int32):
    return _R.randint(low, high, shape).astype(dtype)


# Ties in every row, so that a sort's order of equal values shows.
_TIES = np.array([[3, 1, 2, 1, 3, 0], [2, 2, 2, 1, 1, 1], [0, -1, 0, -1, 5, 5]], np.float32)
_INT_EXTREMES = np.array([[2**31 - 1, -2**31, 0, -1, 7, -2**31, 2**31 - 1]], np.int32)


def _unknown(tf, x):
    return tf.placeholder_with_default(x, None)


CASES = {
    "sort": (lambda tf, x: tf.sort(x), _random([3, 5]), True),
    "sort_descending_axis0": (lambda tf, x: tf.sort(x, axis=0, direction="DESCENDING"),
                              _random([4, 3, 2]), True),
    "sort_axis1_of_3": (lambda tf, x: tf.sort(x, axis=1, name="sorted"), _random([2, 4, 3]),
                        True),
    "sort_ties_float64": (lambda tf, x: tf.sort(x), _TIES.astype(np.float64), True),
    "sort_int32_extremes": (lambda tf, x: (tf.sort(x), tf.sort(x, direction="DESCENDING")),
                            _INT_EXTREMES, False),
    "sort_uint8": (lambda tf, x: tf.sort(x), _ints([2, 6], 0, 256, np.uint8), False),
    "sort_int64_axis0": (lambda tf, x: tf.sort(x, axis=-2), _ints([5, 3], -9, 9, np.int64),
                         False),
    "sort_unknown_rank": (lambda tf, x: tf.sort(_unknown(tf, x), axis=0), _random([4, 3]),
                          True),
    "argsort": (lambda tf, x: tf.argsort(x), _TIES, False),
    "argsort_descending_stable": (lambda tf, x: tf.argsort(x, direction="DESCENDING",
                                                           stable=True), _TIES, False),
    "argsort_axis0": (lambda tf, x: tf.argsort(x, axis=0, name="order"),
                      _ints([4, 3], 0, 3, np.int32), False),
    "argsort_int_extremes": (lambda tf, x: tf.argsort(x), _INT_EXTREMES, False),
    "argsort_unknown_rank_axis0": (lambda tf, x: tf.argsort(_unknown(tf, x), axis=1),
                                   _random([2, 4, 3]), False),
    "repeat_scalar_axis1": (lambda tf, x: tf.repeat(x, 2, axis=1), _random([3, 4]), True),
    "repeat_counts_axis0": (lambda tf, x: tf.repeat(x, [1, 0, 3], axis=0), _random([3, 2]),
                            True),
    "repeat_counts_axis1": (lambda tf, x: tf.repeat(x, [2, 1, 0, 3], axis=-1, name="rep"),
                            _random([2, 4]), True),
    "repeat_flat": (lambda tf, x: tf.repeat(x, 3), _random([2, 2]), True),
    "repeat_scalar_input": (lambda tf, x: tf.repeat(x, 4), np.float32(2.5), True),
    "repeat_int64_counts": (lambda tf, x: tf.repeat(x, tf.constant([2, 1], tf.int64), axis=2),
                            _ints([2, 3, 2], 0, 9), False),
    "repeat_unknown_shape": (lambda tf, x: tf.repeat(
                                 tf.placeholder_with_default(x, [None, None]), [1, 2, 3],
                                 axis=0), _random([3, 2]), True),
    "repeat_counts_tensor": (lambda tf, x: tf.repeat(x, tf.placeholder_with_default(
                                 np.array([2, 0, 1], np.int32), [None]), axis=1),
                             _random([2, 3]), True),
    "ensure_shape": (lambda tf, x: tf.ensure_shape(tf.placeholder_with_default(
                         x, [None, None]), [3, None]), _random([3, 4]), True),
    "ensure_shape_tensor_shape": (lambda tf, x: tf.ensure_shape(x, tf.TensorShape([2, 3]),
                                                                name="checked"),
                                  _random([2, 3], np.float64), True),
    "parallel_stack": (lambda tf, x: tf.parallel_stack([x, x * 2.0, -x]), _random([2, 3]),
                       False),
    "parallel_stack_named": (lambda tf, x: tf.parallel_stack([x[0], x[1]], name="both"),
                             _ints([2, 4], 0, 9), False),
    "guarantee_const": (lambda tf, x: tf.guarantee_const(x, name="fixed"), _random([3]),
                        False),
    # Each row's bytes: float32 and int64 rows, bool, a 1-D input (rows of one element), an
    # empty input, and rows of strings (each string's fingerprint, then the row's).
    "fingerprint_float32": (lambda tf, x: tf.fingerprint(x), _random([3, 5]), False),
    "fingerprint_int64_rank3": (lambda tf, x: tf.fingerprint(x, name="fp"),
                                _ints([2, 3, 4], -2**40, 2**40, np.int64), False),
    "fingerprint_vector": (lambda tf, x: tf.fingerprint(x), _ints([4], 0, 100), False),
    "fingerprint_bool": (lambda tf, x: tf.fingerprint(x > 0), _random([3, 7]), False),
    "fingerprint_empty_rows": (lambda tf, x: tf.fingerprint(x), _random([0, 3]), False),
    "fingerprint_strings": (lambda tf, x: tf.fingerprint(tf.constant(
                                [b"", b"a", b"hello world", b"x" * 70, b"y" * 200])),
                            _random([1]), False),
    "fingerprint_string_rows": (lambda tf, x: tf.fingerprint(tf.constant(
                                    [[b"ab", b"cd", b""], [b"0123456789" * 3, b"q", b"r"]])),
                                _random([1]), False),
    # Space to batch and back (v1's square blocks), the paddings they need, and a pooling
    # with holes through with_space_to_batch.
    "space_to_batch": (lambda tf, x: tf.space_to_batch(x, [[1, 1], [0, 2]], block_size=2),
                       _random([2, 4, 4, 3]), True),
    "nn_space_to_batch_block_shape": (lambda tf, x: tf.nn.space_to_batch(
                                          x, [[0, 0], [1, 2]], block_shape=3, name="s2b"),
                                      _random([1, 3, 3, 2], np.float64), True),
    "batch_to_space": (lambda tf, x: tf.batch_to_space(x, [[0, 1], [1, 0]], 2),
                       _random([8, 2, 3, 1]), True),
    "required_paddings_const": (lambda tf, x: tf.required_space_to_batch_paddings(
                                    [5, 7], [2, 3], base_paddings=[[1, 0], [2, 2]]),
                                _random([1]), False),
    "required_paddings_no_base": (lambda tf, x: tf.required_space_to_batch_paddings(
                                      [4, 9, 2], [3, 3, 2], name="needed"),
                                  _random([1]), False),
    "required_paddings_dynamic": (lambda tf, x: tf.required_space_to_batch_paddings(
                                      tf.placeholder_with_default([5, 6], [2]), [4, 4]),
                                  _random([1]), False),
    "with_space_to_batch_same": (lambda tf, x: tf.nn.with_space_to_batch(
                                     x, [2, 2], "SAME", lambda inp, n, padding: tf.nn.max_pool(
                                         inp, [1, 3, 3, 1], [1, 1, 1, 1], padding),
                                     filter_shape=[3, 3]), _random([2, 7, 6, 2]), True),
    "with_space_to_batch_valid": (lambda tf, x: tf.nn.with_space_to_batch(
                                      x, [2, 1], "VALID",
                                      lambda inp, n, padding: tf.nn.avg_pool(
                                          inp, [1, 2, 2, 1], [1, 1, 1, 1], padding)),
                                  _random([1, 6, 5, 3], np.float64), True),
    "with_space_to_batch_unknown_spatial": (lambda tf, x: tf.nn.with_space_to_batch(
                                                tf.placeholder_with_default(x, [None, None,
                                                                                None, 2]),
                                                [3, 2], "SAME",
                                                lambda inp, n, padding: tf.nn.max_pool(
                                                    inp, [1, 2, 2, 1], [1, 1, 1, 1],
                                                    padding), filter_shape=[2, 2]),
                                            _random([1, 5, 7, 2]), True),
    "with_space_to_batch_rate_one": (lambda tf, x: tf.nn.with_space_to_batch(
                                         x, [1, 1], "SAME", lambda inp, n, padding:
                                         tf.nn.max_pool(inp, [1, 2, 2, 1], [1, 1, 1, 1],
                                                        padding)), _random([1, 4, 4, 1]),
                                     True),
    # Patches: SAME and VALID, strides, rates, the v1 and v2 names; their gradients.
    "extract_image_patches_valid": (lambda tf, x: tf.extract_image_patches(
                                        x, ksizes=[1, 2, 3, 1], strides=[1, 1, 2, 1],
                                        rates=[1, 1, 1, 1], padding="VALID"),
                                    _random([2, 4, 5, 3]), True),
    "extract_image_patches_same_rates": (lambda tf, x: tf.image.extract_patches(
                                             x, sizes=[1, 3, 2, 1], strides=[1, 2, 1, 1],
                                             rates=[1, 2, 2, 1], padding="SAME",
                                             name="patches"),
                                         _random([1, 6, 5, 2], np.float64), True),
    "extract_image_patches_sizes_kw": (lambda tf, x: tf.image.extract_image_patches(
                                           x, sizes=[1, 2, 2, 1], strides=[1, 3, 3, 1],
                                           rates=[1, 1, 1, 1], padding="SAME"),
                                       _random([2, 7, 7, 1]), True),
    "extract_image_patches_int": (lambda tf, x: tf.extract_image_patches(
                                      x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
                                  _ints([1, 3, 3, 2], -50, 50), False),
    "extract_image_patches_empty": (lambda tf, x: tf.extract_image_patches(
                                        x, [1, 3, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
                                    _random([1, 2, 3, 2]), True),
    "extract_image_patches_unknown": (lambda tf, x: tf.extract_image_patches(
                                          tf.placeholder_with_default(x, [None, None, None, 2]),
                                          [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
                                      _random([1, 5, 4, 2]), True),
    "extract_volume_patches_same": (lambda tf, x: tf.extract_volume_patches(
                                        x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
                                    _random([2, 3, 4, 3, 2]), True),
    "extract_volume_patches_valid": (lambda tf, x: tf.extract_volume_patches(
                                         x, [1, 2, 1, 3, 1], [1, 2, 1, 2, 1], "VALID",
                                         name="vol"), _random([1, 5, 2, 5, 1], np.float64),
                                     True),
    "batch_gather": (lambda tf, x: tf.batch_gather(x, [[2, 0], [1, 1], [0, 3]]),
                     _random([3, 4, 2]), True),
    "batch_gather_rank3_indices": (lambda tf, x: tf.batch_gather(
                                       x, tf.constant([[[1, 0, 1]], [[2, 2, 0]]], tf.int64),
                                       name="picked"), _random([2, 1, 3]), True),
    "batch_gather_vector": (lambda tf, x: tf.batch_gather(x, [3, 0, 0]), _random([5]), True),
    "batch_gather_unknown_params": (lambda tf, x: tf.batch_gather(
                                        tf.placeholder_with_default(x, [None, None]),
                                        [[1], [0]]), _random([2, 3]), True),
    # Duplicate indices, ties with the tensor's own values: the gradient splits between them.
    "tensor_scatter_nd_max": (lambda tf, x: tf.tensor_scatter_nd_max(
                                  x, [[0], [2], [0]], tf.constant(
                                      [[0.5, 0.0, 0.25], [0.0, 1.0, 0.0], [0.75, 0.0, 0.25]])),
                              np.array([[0.0, 0.5, 0.25], [1, 2, 3], [0.5, 0.5, 0.5]],
                                       np.float32), True),
    "tensor_scatter_nd_min": (lambda tf, x: tf.tensor_scatter_nd_min(
                                  x, [[1, 1], [0, 2], [1, 1]], x[0] * 0.5, name="lowest"),
                              _random([2, 3], np.float64), True),
    "tensor_scatter_nd_max_int": (lambda tf, x: tf.tensor_scatter_nd_max(
                                      x, [[3], [1]], [7, -9]), _ints([5], -5, 5), False),
    "histogram_fixed_width_bins": (lambda tf, x: tf.histogram_fixed_width_bins(
                                       x, [-0.5, 0.5], nbins=7), _random([3, 5]), False),
    "histogram_fixed_width_bins_float64": (lambda tf, x: tf.histogram_fixed_width_bins(
                                               x, tf.constant([0.0, 10.0], tf.float64),
                                               nbins=tf.constant(4), name="bins"),
                                           np.array([-1.0, 0.0, 2.5, 5.0, 7.49, 9.999, 10.0,
                                                     11.0]), False),
    # Sequences of the last dim: equal groups, missing truths and hypotheses, normalized
    # or not, strings, a third dim.
    "edit_distance": (lambda tf, x: tf.edit_distance(
                          tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]],
                                          [1, 2, 3, 4, 5], [4, 2]),
                          tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0], [3, 0]],
                                          [1, 3, 2, 3, 9], [4, 3])), _random([1]), False),
    "edit_distance_not_normalized": (lambda tf, x: tf.edit_distance(
                                         tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1]],
                                                         [1, 2, 4, 5], [3, 2]),
                                         tf.SparseTensor([[0, 0], [1, 0], [1, 1]],
                                                         [2, 7, 7], [3, 2]),
                                         normalize=False), _random([1]), False),
    "edit_distance_strings_rank3": (lambda tf, x: tf.edit_distance(
                                        tf.SparseTensorValue(
                                            [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 1, 0],
                                             [1, 1, 1], [1, 1, 2]],
                                            np.array([b"a", b"b", b"c", b"k", b"i", b"t"]),
                                            [2, 2, 3]),
                                        tf.SparseTensor(
                                            [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0],
                                             [1, 1, 0], [1, 1, 1], [1, 1, 2], [1, 1, 3]],
                                            [b"a", b"c", b"d", b"x", b"s", b"i", b"t", b"e"],
                                            [2, 2, 4]), name="distance"),
                                    _random([1]), False),
    "edit_distance_empty_truth": (lambda tf, x: tf.edit_distance(
                                      tf.SparseTensor([[0, 0], [1, 0]], [1.5, 2.5], [2, 1]),
                                      tf.SparseTensor(np.zeros([0, 2], np.int64),
                                                      np.zeros([0], np.float32), [2, 1])),
                                  _random([1]), False),
    # switch_case: StatelessCase over the branches' captures, out-of-range to the default.
    "switch_case": (lambda tf, x: tf.switch_case(tf.constant(1), [
                        lambda: x, lambda: x * 2.0, lambda: tf.reduce_sum(x) + tf.zeros([3])]),
                    _random([3]), False),
    "switch_case_dict_default": (lambda tf, x: tf.switch_case(
                                     tf.placeholder_with_default(5, []),
                                     {1: lambda: x + 1.0, 0: lambda: x - 1.0},
                                     default=lambda: tf.square(x), name="pick"),
                                 _random([2, 2]), False),
    "switch_case_tuple_outputs": (lambda tf, x: tf.switch_case(
                                      tf.constant(0),
                                      [lambda: (x[:2], tf.constant(7)),
                                       lambda: (x[1:], tf.constant(8))]),
                                  _random([3]), False),
    # Branches of constants only: each waits for its _SwitchN pivot, which must stay.
    "switch_case_constant_branches": (lambda tf, x: tf.switch_case(
                                          tf.placeholder_with_default(1, []),
                                          [lambda: tf.constant(3.0), lambda: tf.constant(7.0),
                                           lambda: tf.constant(9.0)]), _random([1]), False),
    "switch_case_negative_index": (lambda tf, x: tf.switch_case(
                                       tf.placeholder_with_default(-3, []),
                                       [lambda: x, lambda: -x]), _random([4]), False),
    # multiples read off tf.shape_n (tf.image.ssim tiles its kernel so): TensorFlow's shape
    # inference evaluates a ShapeN of constants only, not one with a placeholder input
    "tile_by_shape_n": (lambda tf, x: tuple(
        tf.tile(tf.ones([2, 1, 1]), [1, shapes[k][0], 1])
        for shapes in (tf.shape_n([x, tf.ones([5, 2])]),
                       tf.shape_n([tf.ones([3, 4]), tf.ones([5, 2])])) for k in (0, 1)),
                        np.arange(12, dtype=np.float32).reshape(3, 4), False),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


# Kernels that fail at run time: (raw op, inputs, attrs); the message is TensorFlow's.
ERROR_CASES = {
    "top_k_too_few": ("TopKV2", dict(input=_random([2, 3]), k=np.int32(4)), {}),
    "fingerprint_scalar": ("Fingerprint", dict(data=np.float32(1.0),
                                               method=np.array(b"farmhash64", object)), {}),
    "fingerprint_method": ("Fingerprint", dict(data=_random([2, 2]),
                                               method=np.array(b"md5", object)), {}),
    "fingerprint_method_vector": ("Fingerprint", dict(
        data=_random([2, 2]), method=np.array([b"farmhash64"], object)), {}),
    "patches_ksize_batch": ("ExtractImagePatches", dict(images=_random([1, 4, 4, 1])),
                            dict(ksizes=[2, 2, 2, 1], strides=[1, 1, 1, 1],
                                 rates=[1, 1, 1, 1], padding="VALID")),
    "patches_too_small": ("ExtractImagePatches", dict(images=_random([1, 1, 4, 1])),
                          dict(ksizes=[1, 3, 1, 1], strides=[1, 1, 1, 1],
                               rates=[1, 1, 1, 1], padding="VALID")),
    "patches_rank3": ("ExtractImagePatches", dict(images=_random([4, 4, 1])),
                      dict(ksizes=[1, 1, 1, 1], strides=[1, 1, 1, 1],
                           rates=[1, 1, 1, 1], padding="VALID")),
    "volume_patches_stride_depth": ("ExtractVolumePatches", dict(input=_random([1, 2, 2, 2, 2])),
                                    dict(ksizes=[1, 1, 1, 1, 1], strides=[1, 1, 1, 1, 2],
                                         padding="VALID")),
    "tensor_scatter_max_bad_index": ("TensorScatterMax", dict(
        tensor=_random([3]), indices=np.array([[1], [5]], np.int32),
        updates=_random([2])), {}),
    "edit_distance_rank1": ("EditDistance", dict(
        hypothesis_indices=np.array([[0]], np.int64), hypothesis_values=np.array([1]),
        hypothesis_shape=np.array([1], np.int64), truth_indices=np.array([[0]], np.int64),
        truth_values=np.array([1]), truth_shape=np.array([1], np.int64)), {}),
    "edit_distance_ranks_differ": ("EditDistance", dict(
        hypothesis_indices=np.array([[0, 0]], np.int64), hypothesis_values=np.array([1]),
        hypothesis_shape=np.array([1, 1], np.int64),
        truth_indices=np.array([[0, 0, 0]], np.int64), truth_values=np.array([1]),
        truth_shape=np.array([1, 1, 1], np.int64)), {}),
    "edit_distance_values_rows": ("EditDistance", dict(
        hypothesis_indices=np.array([[0, 0]], np.int64), hypothesis_values=np.array([1, 2]),
        hypothesis_shape=np.array([1, 1], np.int64),
        truth_indices=np.array([[0, 0]], np.int64), truth_values=np.array([1]),
        truth_shape=np.array([1, 1], np.int64)), {}),
    "edit_distance_empty_output": ("EditDistance", dict(
        hypothesis_indices=np.zeros([0, 2], np.int64), hypothesis_values=np.zeros([0]),
        hypothesis_shape=np.array([0, 1], np.int64),
        truth_indices=np.zeros([0, 2], np.int64), truth_values=np.zeros([0]),
        truth_shape=np.array([0, 1], np.int64)), {}),
    "edit_distance_outside": ("EditDistance", dict(
        hypothesis_indices=np.array([[5, 0]], np.int64), hypothesis_values=np.array([1]),
        hypothesis_shape=np.array([2, 1], np.int64),
        truth_indices=np.array([[0, 0]], np.int64), truth_values=np.array([1]),
        truth_shape=np.array([2, 1], np.int64)), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


PYTHON_ERRORS = {
    "sort_direction": lambda tf: tf.sort(tf.ones([3]), direction="UP"),
    "sort_axis_tensor": lambda tf: tf.sort(tf.ones([3]), axis=tf.placeholder(tf.int32, [])),
    "repeat_axis_float": lambda tf: tf.repeat(tf.ones([3]), 2, axis=0.5),
    "repeat_axis_out_of_range": lambda tf: tf.repeat(tf.ones([3, 2]), 2, axis=2),
    "repeat_float_counts": lambda tf: tf.repeat(tf.ones([3]), [1.0, 2.0, 1.0]),
    "repeat_counts_mismatch": lambda tf: tf.repeat(tf.ones([3, 2]), [1, 2], axis=0),
    "ensure_shape_static": lambda tf: tf.ensure_shape(tf.placeholder(tf.float32, [None, 3]),
                                                      [2, 4]),
    "parallel_stack_unknown": lambda tf: tf.parallel_stack(
        [tf.placeholder(tf.float32, [None, 2])] * 2),
    "parallel_stack_mismatch": lambda tf: tf.parallel_stack([tf.ones([2]), tf.ones([3])]),
    "fingerprint_scalar": lambda tf: tf.fingerprint(tf.constant(1.0)),
    "space_to_batch_rank": lambda tf: tf.space_to_batch(tf.ones([2, 4, 4]), [[0, 0], [0, 0]],
                                                        2),
    "required_paddings_rank": lambda tf: tf.required_space_to_batch_paddings([4, 4], [[2]]),
    "with_space_to_batch_rate": lambda tf: tf.nn.with_space_to_batch(
        tf.ones([1, 4, 4, 1]), [0, 2], "VALID", lambda inp, n, padding: inp),
    "with_space_to_batch_same_no_filter": lambda tf: tf.nn.with_space_to_batch(
        tf.ones([1, 4, 4, 1]), [2, 2], "SAME", lambda inp, n, padding: inp),
    "with_space_to_batch_dims": lambda tf: tf.nn.with_space_to_batch(
        tf.ones([1, 4, 4, 1]), [2, 2], "VALID", lambda inp, n, padding: inp,
        spatial_dims=[2, 1]),
    "patches_static_too_small": lambda tf: tf.extract_image_patches(
        tf.ones([1, 1, 4, 1]), [1, 3, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "patches_three_ksizes": lambda tf: tf.image.extract_patches(
        tf.ones([1, 4, 4, 1]), [1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "volume_patches_rank": lambda tf: tf.extract_volume_patches(
        tf.ones([1, 4, 4, 1]), [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "VALID"),
    "batch_gather_unknown_indices": lambda tf: tf.batch_gather(
        tf.ones([2, 3]), tf.placeholder(tf.int32)),
    "edit_distance_dense": lambda tf: tf.edit_distance(tf.ones([2, 2]), tf.SparseTensor(
        [[0, 0]], [1.0], [2, 2])),
    "edit_distance_truth_dense": lambda tf: tf.edit_distance(tf.SparseTensor(
        [[0, 0]], [1.0], [2, 2]), tf.ones([2, 2])),
    "edit_distance_shapes_differ": lambda tf: tf.edit_distance(
        tf.SparseTensor([[0, 0]], [1.0], [2, 2]), tf.SparseTensor([[0, 0, 0]], [1.0],
                                                                  [2, 2, 2])),
    "switch_case_python_index": lambda tf: tf.switch_case(1, [lambda: 1.0]),
    "switch_case_float_index": lambda tf: tf.switch_case(tf.constant(1.0), [lambda: 1.0]),
    "switch_case_keys": lambda tf: tf.switch_case(tf.constant(1), {0: lambda: 1.0,
                                                                   2: lambda: 2.0}),
    "switch_case_not_callable": lambda tf: tf.switch_case(tf.constant(0), [(0, 1.0)]),
    "switch_case_no_branches": lambda tf: tf.switch_case(tf.constant(0), []),
    "indexed_slices_dtype": lambda tf: tf.convert_to_tensor_or_indexed_slices(
        tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])), dtype=tf.int32),
}


def _describe(value):
    """What a predicate or converter gave, as JSON: a Tensor's name, dtype and shape."""
    if isinstance(value, np.ndarray):
        return ["array", value.dtype.name, value.tolist()]
    if hasattr(value, "op") and hasattr(value, "dtype") and hasattr(value, "shape"):
        return [type(value).__name__.replace("Symbolic", ""), value.name, value.dtype.name,
                None if value.shape.ndims is None else value.shape.as_list()]
    return [type(value).__name__, repr(value) if value is not None else None]


def api_answers(tf):
    """The predicates' and converters' answers on one graph's objects, and count_up_to's
    values and error: {question: JSON}."""
    found = {}
    with tf.Graph().as_default():
        objects = {
            "ref_variable": tf.Variable(1.0, name="v"),
            "tensor": tf.constant([1, 2], name="c"),
            "sparse": tf.SparseTensor([[0, 0]], [1.0], [2, 2]),
            "indexed_slices": tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])),
            "ndarray": np.ones(2), "int": 3, "string_tensor": tf.constant("a"),
            "bool_tensor": tf.constant(True), "complex_tensor": tf.constant(1j),
            "uint16_tensor": tf.constant(3, tf.uint16)}
        objects["ref_tensor"] = objects["ref_variable"]._ref()
        for key, value in objects.items():
            found[f"is_tensor/{key}"] = bool(tf.is_tensor(value))
            found[f"is_numeric_tensor/{key}"] = bool(tf.is_numeric_tensor(value))
        unknown = tf.placeholder(tf.float32, [None, 3])
        for key, value in {
                "const": objects["tensor"], "shape_known": tf.shape(tf.ones([2, 5])),
                "shape_unknown": tf.shape(unknown), "placeholder": unknown, "int": 3,
                "list": [1, 2], "variable": objects["ref_variable"],
                "sparse": objects["sparse"]}.items():
            found[f"get_static_value/{key}"] = _describe(tf.get_static_value(value))
        found["get_static_value/shape_unknown_partial"] = _describe(
            tf.get_static_value(tf.shape(unknown), partial=True))
        found["dimension_value"] = [tf.dimension_value(d) for d in (
            tf.Dimension(3), 4, tf.Dimension(None), None)]
        found["dimension_at_index"] = [repr(tf.dimension_at_index(s, i)) for s, i in (
            (tf.TensorShape([2, 3]), 1), (tf.TensorShape([2, None]), -1),
            (tf.TensorShape(None), 5))]
        found["convert_indexed_slices_same"] = tf.convert_to_tensor_or_indexed_slices(
            objects["indexed_slices"]) is objects["indexed_slices"]
        found["convert_indexed_slices_list"] = _describe(
            tf.convert_to_tensor_or_indexed_slices([1, 2], name="cv"))
        found["convert_indexed_slices_dtype"] = _describe(
            tf.convert_to_tensor_or_indexed_slices([1, 2], dtype=tf.int64))
        found["convert_sparse_same"] = tf.convert_to_tensor_or_sparse_tensor(
            objects["sparse"]) is objects["sparse"]
        from_value = tf.convert_to_tensor_or_sparse_tensor(
            tf.SparseTensorValue([[0]], [1], [3]))
        found["convert_sparse_value"] = [type(from_value).__name__, from_value.dtype.name,
                                         from_value.indices.name, from_value.values.name]
        found["convert_sparse_list"] = _describe(
            tf.convert_to_tensor_or_sparse_tensor([1.0], name="cs"))
        try:
            tf.convert_to_tensor_or_sparse_tensor(objects["sparse"], dtype=tf.int32)
        except RuntimeError as error:
            found["convert_sparse_mismatch"] = str(error)
        counter = tf.Variable(1, name="counter")
        count = tf.count_up_to(counter, 3)
        found["count_up_to_node"] = [count.op.type, count.name, count.dtype.name,
                                     [t.name for t in count.op.inputs]]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            found["count_up_to_values"] = [int(sess.run(count)), int(sess.run(count))]
            try:
                sess.run(count)
            except tf.errors.OpError as error:
                found["count_up_to_error"] = [type(error).__name__,
                                              image_cases.kernel_message(error.message)]
            found["count_up_to_after"] = int(sess.run(counter))
        for key, value, shape in (("mismatch", np.ones([3, 3]), [2, None]),
                                  ("rank", np.ones([3]), [3, 1])):
            checked = tf.ensure_shape(tf.placeholder_with_default(value, None), shape)
            with tf.Session() as sess:
                try:
                    sess.run(checked)
                except tf.errors.OpError as error:
                    found[f"ensure_shape_{key}"] = [type(error).__name__,
                                                    image_cases.kernel_message(error.message)]
        table = tf.Variable(np.arange(12, dtype=np.float32).reshape(2, 3, 2), name="table")
        updated = tf.batch_scatter_update(table, [[2, 0], [1, 1]],
                                          -np.ones([2, 2, 2], np.float32))
        found["batch_scatter_update_nodes"] = [
            [op.name, op.type] for op in updated.graph.get_operations()
            if op.name.startswith("ScatterNdUpdate") or op.name.startswith("concat")
            or op.name.startswith("Range")]
        with tf.Session() as sess:
            sess.run(table.initializer)
            found["batch_scatter_update"] = sess.run(updated).tolist()
        resource_counter = tf.Variable(5, name="resource_counter", use_resource=True)
        resource_count = tf.count_up_to(resource_counter, 6, name="counted")
        found["resource_count_up_to_node"] = [
            resource_count.op.type, resource_count.name, resource_count.dtype.name,
            resource_count.shape.as_list(), [t.name for t in resource_count.op.inputs]]
        with tf.Session() as sess:
            sess.run(resource_counter.initializer)
            found["resource_count_up_to_values"] = [int(sess.run(resource_count))]
            try:
                sess.run(resource_count)
            except tf.errors.OpError as error:
                found["resource_count_up_to_error"] = [
                    type(error).__name__, image_cases.kernel_message(error.message)]
            found["resource_count_up_to_after"] = int(sess.run(resource_counter.value()))
        stateful = tf.switch_case(tf.constant(0), [lambda: tf.random_uniform([2], seed=1),
                                                   lambda: tf.zeros([2])])
        found["switch_case_legacy_random_op"] = [stateful.op.inputs[0].op.type,
                                                 stateful.op.inputs[0].op.name]
        counter_variable = tf.Variable(0, name="branch_counter", use_resource=True)
        stateful = tf.switch_case(tf.constant(0), [
            lambda: tf.identity(tf.assign_add(counter_variable, 1)), lambda: tf.constant(7)])
        found["switch_case_stateful_op"] = [stateful.op.inputs[0].op.type,
                                            stateful.op.inputs[0].op.name]
        with tf.Session() as sess:
            sess.run(counter_variable.initializer)
            found["switch_case_stateful_values"] = [int(sess.run(stateful)) for _ in range(3)]
        stamp = tf.timestamp()
        found["timestamp_node"] = [stamp.op.type, stamp.name, stamp.dtype.name,
                                   stamp.shape.as_list()]
    return found


def python_errors(tf):
    """{case: [error class, message]} of what each PYTHON_ERRORS call raises."""
    found = {}
    for name, call in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                call(tf)
            except (TypeError, ValueError) as error:
                found[name] = ["TypeError" if isinstance(error, TypeError) else "ValueError",
                               str(error)]
            else:
                found[name] = None
    return found
