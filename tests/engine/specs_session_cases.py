"""Scripts of type specs, tf.data options, session handles, the sparse conditional
accumulator, tf.IdentityReader and the TF1 toggles, replayed on TensorFlow 2.21's
tf.compat.v1 (tools/make_specs_session_fixtures.py) and on the engine
(tests/engine/test_specs_session_misc.py): each entry is what a call or a run gave, or the
error class and message it raised."""

import os
import re
import tempfile
import warnings

import numpy as np


def kernel_message(message):
    """The kernel's own words in a session's error message (the line after "Node: ...")."""
    lines = message.splitlines()
    after_node = [line for before, line in zip(lines, lines[1:]) if before.startswith("Node: ")]
    return (after_node or lines)[0]


def _plain(value):
    if isinstance(value, np.ndarray):
        return [str(value.dtype), value.tolist()]
    if isinstance(value, np.generic):
        return [str(value.dtype), value.item()]
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _trying(log, tf):
    def attempt(label, fn):
        try:
            log[label] = _plain(fn())
        except tf.errors.OpError as error:
            log[label] = [type(error).__name__, kernel_message(error.message)]
        except (TypeError, ValueError, AttributeError, RuntimeError, OSError,
                LookupError) as error:
            log[label] = [type(error).__name__, str(error)]
    return attempt


def _nodes(graph):
    return [[node.name, node.op] for node in graph.as_graph_def().node]


def replay_specs(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        spec = tf.TensorSpec([2, None], tf.float32, name="x")
        zeros = tf.zeros([2, 3], name="z")
        sparse = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        dataset = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [[1.0, 2.0], [3.0, 4.0]]))
        batched = tf.data.Dataset.range(10).batch(4, drop_remainder=True)
        iterator = tf.data.make_one_shot_iterator(dataset)
        cases = {
            "repr": lambda: repr(spec), "str": lambda: str(spec),
            "shape": lambda: repr(spec.shape), "dtype": lambda: repr(spec.dtype),
            "name": lambda: spec.name, "unknown": lambda: repr(tf.TensorSpec(None)),
            "eq": lambda: spec == tf.TensorSpec([2, None], tf.float32, "x"),
            "eq_name": lambda: tf.TensorSpec([2]) == tf.TensorSpec([2], name="x"),
            "ne": lambda: tf.TensorSpec([2]) != tf.TensorSpec([2]),
            "hash": lambda: hash(spec) == hash(tf.TensorSpec([2, None], tf.float32, "x")),
            "in_set": lambda: len({tf.TensorSpec([2]), tf.TensorSpec([2]),
                                   tf.TensorSpec([3])}),
            "compat_spec": lambda: spec.is_compatible_with(tf.TensorSpec([2, 3])),
            "compat_tensor": lambda: spec.is_compatible_with(zeros),
            "compat_rank": lambda: spec.is_compatible_with(tf.TensorSpec([2])),
            "compat_dtype": lambda: spec.is_compatible_with(tf.TensorSpec([2, 3], tf.int32)),
            "compat_numpy": lambda: tf.TensorSpec([2]).is_compatible_with(
                np.zeros([2], np.float32)),
            "compat_sparse": lambda: tf.TensorSpec([2]).is_compatible_with(
                tf.SparseTensorSpec([2])),
            "common": lambda: repr(tf.TensorSpec([2]).most_specific_compatible_type(
                tf.TensorSpec([3]))),
            "common_rank": lambda: repr(tf.TensorSpec([2]).most_specific_compatible_type(
                tf.TensorSpec([2, 3]))),
            "common_names": lambda: repr(spec.most_specific_compatible_type(
                tf.TensorSpec([3, 4], tf.float32, "x"))),
            "common_name_differs": lambda: spec.most_specific_compatible_type(
                tf.TensorSpec([2, 4])),
            "common_dtype_differs": lambda: tf.TensorSpec([2]).most_specific_compatible_type(
                tf.TensorSpec([2], tf.int32)),
            "from_tensor": lambda: repr(tf.TensorSpec.from_tensor(zeros)),
            "from_tensor_named": lambda: repr(tf.TensorSpec.from_tensor(zeros, name="n")),
            "from_spec": lambda: repr(tf.TensorSpec.from_spec(spec, name="y")),
            "from_spec_keeps_name": lambda: repr(tf.TensorSpec.from_spec(spec)),
            "bad_dtype": lambda: tf.TensorSpec([2], "floaty"),
            "bad_shape": lambda: tf.TensorSpec("x", tf.float32),
            "sparse_spec": lambda: repr(tf.SparseTensorSpec([3, None], tf.int64)),
            "sparse_spec_props": lambda: [repr(tf.SparseTensorSpec([2], tf.int32).shape),
                                          repr(tf.SparseTensorSpec([2], tf.int32).dtype)],
            "sparse_from_value": lambda: repr(tf.SparseTensorSpec.from_value(sparse)),
            "sparse_compat": lambda: tf.SparseTensorSpec([None, 2]).is_compatible_with(
                tf.SparseTensorSpec([2, 2])),
            "indexed_default": lambda: repr(tf.IndexedSlicesSpec()),
            "indexed_full": lambda: repr(tf.IndexedSlicesSpec([3, 4], tf.float32, tf.int64,
                                                              tf.int32, [5])),
            "tensor_array": lambda: repr(tf.TensorArraySpec([2], tf.float32)),
            "tensor_array_flags": lambda: repr(tf.TensorArraySpec(
                [2], tf.float32, dynamic_size=True, infer_shape=False)),
            "none_spec": lambda: repr(tf.NoneTensorSpec()),
            "none_eq": lambda: tf.NoneTensorSpec() == tf.NoneTensorSpec(),
            "optional": lambda: repr(tf.OptionalSpec(tf.TensorSpec([], tf.int32))),
            "dataset_spec": lambda: repr(tf.data.DatasetSpec(tf.TensorSpec([], tf.int32), [3])),
            "isinstance": lambda: [isinstance(spec, tf.TypeSpec),
                                   isinstance(tf.SparseTensorSpec(), tf.TypeSpec),
                                   isinstance(tf.data.DatasetSpec(None), tf.TypeSpec)],
            "from_value_tensor": lambda: repr(tf.type_spec_from_value(zeros)),
            "from_value_sparse": lambda: repr(tf.type_spec_from_value(sparse)),
            "from_value_numpy": lambda: repr(tf.type_spec_from_value(np.zeros(3))),
            "from_value_int": lambda: repr(tf.type_spec_from_value(3)),
            "from_value_list": lambda: repr(tf.type_spec_from_value([1, 2])),
            "from_value_str": lambda: repr(tf.type_spec_from_value("a")),
            "from_value_none": lambda: repr(tf.type_spec_from_value(None)),
            "from_value_dataset": lambda: repr(tf.type_spec_from_value(dataset)),
            "from_value_batched": lambda: repr(tf.type_spec_from_value(batched)),
            "from_value_object": lambda: tf.type_spec_from_value(object) and None,
            "element_spec": lambda: repr(dataset.element_spec),
            "element_spec_batched": lambda: repr(batched.element_spec),
            "element_spec_mapped": lambda: repr(dataset.map(lambda d, x: (x, d["a"])).element_spec),
            "element_spec_type": lambda: type(batched.element_spec).__name__,
            "iterator_element_spec": lambda: repr(iterator.element_spec),
            "get_structure": lambda: repr(tf.data.experimental.get_structure(dataset)),
            "get_structure_iterator": lambda: repr(
                tf.data.experimental.get_structure(iterator)),
            "get_structure_bad": lambda: tf.data.experimental.get_structure(3),
            "generator_signature": lambda: repr(tf.data.Dataset.from_generator(
                lambda: iter([[1, 2]]),
                output_signature=tf.TensorSpec([None], tf.int32)).element_spec),
        }
        for label, fn in cases.items():
            attempt(label, fn)
    return log


def _autotune_algorithm(tf):
    """tf.data.experimental.AutotuneAlgorithm (the options module's enum on the engine)."""
    try:
        return tf.data.experimental.AutotuneAlgorithm
    except AttributeError:
        from engine.data.options import AutotuneAlgorithm
        return AutotuneAlgorithm


def _external_state_policy(tf):
    try:
        return tf.data.experimental.ExternalStatePolicy
    except AttributeError:
        from engine.data.options import ExternalStatePolicy
        return ExternalStatePolicy


def replay_options(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dataset = tf.data.Dataset.range(5)
        options = tf.data.Options()
        attempt("defaults", lambda: [options.experimental_deterministic, options.deterministic,
                                     options.threading.private_threadpool_size,
                                     options.threading.max_intra_op_parallelism,
                                     options.experimental_optimization.map_parallelization,
                                     options.experimental_slack, options.autotune.enabled,
                                     str(options.experimental_distribute.auto_shard_policy)])
        attempt("types", lambda: [type(options).__name__, type(options.threading).__name__,
                                  type(tf.data.ThreadingOptions()).__name__,
                                  type(options.experimental_optimization).__name__])
        attempt("equal_fresh", lambda: tf.data.Options() == tf.data.Options())
        attempt("hash", lambda: hash(tf.data.Options()))
        options.experimental_deterministic = False
        options.threading.private_threadpool_size = 4
        options.threading.max_intra_op_parallelism = 1
        options.experimental_optimization.map_parallelization = True
        options.experimental_optimization.apply_default_optimizations = False
        options.experimental_slack = True
        attempt("set_values", lambda: [options.deterministic,
                                       options.experimental_deterministic,
                                       options.threading.private_threadpool_size])
        attempt("equal_set", lambda: [tf.data.Options() == options,
                                      tf.data.Options() != options])

        def bad_type():
            tf.data.Options().threading.private_threadpool_size = 4.0
        attempt("bad_type", bad_type)

        def bad_name():
            tf.data.Options().no_such_option = 1
        attempt("bad_name", bad_name)
        with_options = dataset.with_options(options)
        attempt("dataset_options_default", lambda: dataset.options() == tf.data.Options())
        attempt("with_options_equal", lambda: with_options.options() == options)
        attempt("with_options_values", lambda: [
            with_options.options().threading.private_threadpool_size,
            with_options.options().experimental_deterministic])
        mapped = with_options.map(lambda x: x * 2).batch(2)
        attempt("inherited", lambda: [mapped.options().experimental_deterministic,
                                      mapped.options().experimental_slack])

        def mutate_returned():
            with_options.options().experimental_slack = False
        attempt("mutate_returned", mutate_returned)
        second = tf.data.Options()
        second.threading.private_threadpool_size = 8
        second.experimental_optimization.map_fusion = True
        merged = with_options.with_options(second)
        attempt("merged", lambda: [merged.options().threading.private_threadpool_size,
                                   merged.options().experimental_optimization.map_fusion,
                                   merged.options().experimental_slack])
        zipped = tf.data.Dataset.zip((with_options, tf.data.Dataset.range(3)))
        attempt("zipped", lambda: zipped.options().threading.private_threadpool_size)
        empty = dataset.with_options(tf.data.Options())
        attempt("serialized", lambda: [
            list(empty._variant_tensor.op.get_attr("serialized_options")),
            list(with_options._variant_tensor.op.get_attr("serialized_options")),
            list(merged._variant_tensor.op.get_attr("serialized_options"))])
        policy = tf.data.Options()
        policy.experimental_distribute.auto_shard_policy = type(
            policy.experimental_distribute.auto_shard_policy).OFF
        policy.autotune.ram_budget = 1 << 33
        policy.dataset_name = "ds"
        policy.framework_type = ["keras", "tfx"]
        policy.autotune.enabled = False
        policy.autotune.autotune_algorithm = _autotune_algorithm(tf).HILL_CLIMB
        policy.experimental_external_state_policy = _external_state_policy(tf).IGNORE
        policy.experimental_service.pinned = True
        policy.deterministic = True
        attempt("serialized_policy", lambda: list(
            dataset.with_options(policy)._variant_tensor.op.get_attr("serialized_options")))
        attempt("options_node", lambda: [
            with_options._variant_tensor.op.type,
            sorted(with_options._variant_tensor.op.node_def.attr),
            [str(s) for s in with_options._variant_tensor.op.get_attr("output_shapes")],
            with_options._variant_tensor.op.colocation_groups()])
        attempt("element_spec", lambda: repr(with_options.element_spec))
        attempt("as_numpy_iterator", lambda: dataset.as_numpy_iterator())
        attempt("numpy_iterator", lambda: tf.data.NumpyIterator(dataset))
        values = tf.data.make_one_shot_iterator(mapped).get_next()
        with tf.Session() as sess:
            attempt("values", lambda: [sess.run(values), sess.run(values)])
        log["nodes"] = _nodes(graph)
    return log


def replay_session_handles(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        a, b = tf.constant(10.0), tf.constant(5.0)
        product = tf.multiply(a, b)
        handle = tf.get_session_handle(product)
        attempt("not_a_tensor", lambda: tf.get_session_handle(product.op))
        log["handle_tensor"] = [handle.name, handle.op.type, handle.dtype.name,
                                str(handle.shape), handle.op.colocation_groups()]
        with tf.Session() as sess:
            value = sess.run(handle)
            log["fetched"] = [type(value).__name__, value.handle, str(value)]
            attempt("eval", lambda: value.eval())
            holder, tensor = tf.get_session_tensor(value.handle, tf.float32)
            doubled = tf.multiply(tensor, 2.0)
            log["reader"] = [holder.name, holder.dtype.name, holder.op.type, tensor.name,
                             tensor.op.type, str(tensor.shape), tensor.op.device,
                             holder.op.device]
            attempt("doubled", lambda: sess.run(doubled, {holder: value.handle}))
            ints = sess.run(tf.get_session_handle(tf.constant([1, 2]), name="kept"))
            log["second_handle"] = ints.handle
            attempt("second_eval", lambda: ints.eval())
            both = sess.run([handle, tf.get_session_handle(a + b)])
            # the ids follow the order the step runs the two handle ops in: compared as a set
            parts = [h.handle.split(";") for h in both]
            log["list_fetch"] = ([type(h).__name__ for h in both] + sorted(p[0] for p in parts)
                                 + sorted(p[1] for p in parts) + sorted({p[2] for p in parts}))
            wrong_holder, wrong = tf.get_session_tensor(ints.handle, tf.float32)
            attempt("wrong_dtype", lambda: sess.run(wrong, {wrong_holder: ints.handle}))
            attempt("delete", lambda: ints.delete())
            attempt("delete_twice", lambda: ints.delete())
            attempt("eval_deleted", lambda: ints.eval())
            attempt("read_deleted", lambda: sess.run(doubled, {holder: ints.handle}))
            deleter_holder, deleter = tf.delete_session_tensor(value.handle)
            log["deleter"] = [deleter_holder.name, deleter.name, deleter.type]
            attempt("delete_op", lambda: sess.run(deleter, {deleter_holder: value.handle}))
            attempt("delete_op_again", lambda: sess.run(deleter,
                                                        {deleter_holder: value.handle}))
            attempt("read_after_delete", lambda: sess.run(doubled, {holder: value.handle}))
            attempt("bad_device", lambda: tf.get_session_tensor("h;0;garbage", tf.float32))
        with tf.Session() as other:
            attempt("new_session_ids", lambda: other.run(handle).handle)
        log["nodes"] = _nodes(graph)
    # Handles Python drops are deleted from the session ten at a time.
    with tf.Graph().as_default() as dropping:
        kept = tf.get_session_handle(tf.constant(3.0))
        with tf.Session() as sess:
            names = [sess.run(kept).handle for _ in range(12)]
            holder, reader = tf.get_session_tensor(names[0], tf.float32)
            attempt("dropped_first", lambda: sess.run(reader, {holder: names[0]}))
            attempt("dropped_tenth", lambda: sess.run(reader, {holder: names[9]}))
            attempt("dropped_last", lambda: sess.run(reader, {holder: names[11]}))
        log["dropped_nodes"] = _nodes(dropping)
    return log


def replay_sparse_accumulator(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        acc = tf.SparseConditionalAccumulator(tf.float32, shape=[5, 2])
        indices = tf.placeholder(tf.int64, [None])
        values = tf.placeholder(tf.float32, [None, None])
        step = tf.placeholder(tf.int64, [])
        apply = acc.apply_grad(indices, values, [5, 2], local_step=step)
        apply_unknown_shape = acc.apply_grad(indices, values, local_step=step)
        take = acc.take_grad(2)
        take_one = acc.take_indexed_slices_grad(1)
        count = acc.num_accumulated()
        set_step = acc.set_global_step(step)
        summed = tf.sparse.SparseConditionalAccumulator(tf.float64, reduction_type="SUM",
                                                        name="summed")
        sum_apply = summed.apply_indexed_slices_grad(tf.IndexedSlices(
            tf.constant([[1.5, 2, 3]], tf.float64), tf.constant([4], tf.int64),
            tf.constant([9, 3], tf.int64)))
        sum_take = summed.take_grad(2)
        mean_half = tf.SparseConditionalAccumulator(tf.float16, shape=[None], name="mean_half")
        half_apply_a = mean_half.apply_grad([0, 1], tf.constant([-3, 7], tf.float16))
        half_apply_b = mean_half.apply_grad([1], tf.constant([-2], tf.float16))
        half_take = mean_half.take_grad(2)

        log["names"] = [acc.name, acc.accumulator_ref.op.name, acc.accumulator_ref.dtype.name,
                        str(acc.accumulator_ref.shape), count.op.name, apply.type,
                        [t.op.type for t in take], [str(t.shape) for t in take],
                        [str(take_one.indices.shape), str(take_one.values.shape)],
                        type(take_one).__name__, summed.name, str(acc.dtype),
                        isinstance(acc, tf.ConditionalAccumulatorBase),
                        isinstance(tf.ConditionalAccumulator(tf.float32),
                                   tf.ConditionalAccumulatorBase)]
        with tf.Session() as sess:
            def run(label, fetch, feed=None):
                attempt(label, lambda: sess.run(fetch, feed))
            run("count_empty", count)
            run("apply_a", apply, {indices: [0, 3], values: [[1, 2], [3, 4]], step: 0})
            run("apply_b", apply, {indices: [1, 3, 4], values: [[1, 1], [5, 6], [7, 8]],
                                   step: 0})
            run("count_two", count)
            run("take_mean", take)
            run("apply_stale", apply, {indices: [0], values: [[9, 9]], step: 0})
            run("count_after_stale", count)
            run("apply_unsorted", apply, {indices: [4, 0], values: [[1, 2], [3, 4]], step: 1})
            run("apply_unsorted_2", apply, {indices: [2, 0], values: [[1, 1], [2, 2]], step: 1})
            run("take_unsorted", take)
            run("apply_index_too_big", apply, {indices: [5], values: [[1, 1]], step: 2})
            run("apply_values_rank", apply, {indices: [1], values: [[1, 1, 1]], step: 2})
            run("apply_unknown_shape", apply_unknown_shape,
                {indices: [1], values: [[1, 1]], step: 2})
            run("apply_mismatched_dim", apply, {indices: [1], values: [[1, 1, 1]], step: 2})
            run("apply_count_mismatch", apply, {indices: [1, 2], values: [[1, 1]], step: 2})
            run("take_one", take_one)
            run("set_step", set_step, {step: 10})
            run("apply_old", apply, {indices: [1], values: [[1, 1]], step: 9})
            run("count_after_old", count)
            run("sum_apply_1", sum_apply)
            run("sum_apply_2", sum_apply)
            run("sum_take", sum_take)
            run("half_apply_a", half_apply_a)
            run("half_apply_b", half_apply_b)
            run("half_take", half_take)
        log["nodes"] = _nodes(graph)
    # TensorFlow's CPU kernel takes half, float and double (placing a graph with an int32 one
    # fails every run of it, hence a graph of its own); its message lists the node's attrs
    # in no fixed order, so only what comes before them is compared.
    with tf.Graph().as_default():
        ints_count = tf.SparseConditionalAccumulator(tf.int32, name="ints").num_accumulated()
        with tf.Session() as sess:
            attempt("int32_refused", lambda: sess.run(ints_count))
        log["int32_refused"][1] = log["int32_refused"][1].split(" with these attrs")[0]
    return log


def replay_identity_reader(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        queue = tf.FIFOQueue(10, tf.string)
        reader = tf.IdentityReader()
        key, value = reader.read(queue)
        keys, values = reader.read_up_to(queue, 3)
        produced = reader.num_records_produced()
        completed = reader.num_work_units_completed()
        reset = reader.reset()
        log["reader"] = [reader.reader_ref.op.name, reader.reader_ref.op.type,
                         reader.supports_serialize, str(key.shape), str(keys.shape)]
        with tf.Session() as sess:
            sess.run(queue.enqueue_many([["a", "b", "c", "d", "e", "f"]]))
            attempt("read_1", lambda: sess.run([key, value]))
            attempt("read_2", lambda: sess.run([key, value]))
            attempt("read_up_to", lambda: sess.run([keys, values]))
            attempt("counts", lambda: sess.run([produced, completed]))
            attempt("reset", lambda: sess.run(reset))
            attempt("counts_after_reset", lambda: sess.run([produced, completed]))
            sess.run(queue.close())
            attempt("read_last", lambda: sess.run([key, value]))
            attempt("read_closed", lambda: sess.run([key, value]))
        log["nodes"] = _nodes(graph)
    return log


def replay_misc(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        pinned = tf.check_pinned(tf.constant([1.0, 2.0]))
        log["pinned"] = [pinned.name, pinned.op.type, str(pinned.shape), pinned.dtype.name]
        with tf.Session() as sess:
            attempt("pinned_value", lambda: sess.run(pinned))
        fact = tf.user_ops.my_fact()
        log["fact"] = [fact.name, fact.op.type, fact.dtype.name, str(fact.shape)]
        with tf.Session() as sess:
            attempt("fact_value", lambda: sess.run(fact))
        const_int = tf.constant([1])
        cases = {
            "float_const": tf.constant(1.0).op, "int_const": const_int.op,
            "string_const": tf.constant("a").op, "int_const_node_def": const_int.op.node_def,
            "placeholder": tf.placeholder(tf.int32).op,
            "cast_from_int": tf.cast(const_int, tf.float32).op,
            "cast_from_float": tf.cast(tf.constant([1.0]), tf.int32).op,
            "stitch": tf.dynamic_stitch([const_int], [const_int]).op,
            "variable": tf.Variable(1.0).op,
        }
        for label, node in cases.items():
            attempt("cpu_" + label, lambda node=node: tf.graph_util.must_run_on_cpu(node))
        attempt("cpu_variable_pinned", lambda: tf.graph_util.must_run_on_cpu(
            cases["variable"], pin_variables_on_cpu=True))
        a, b = tf.constant(1.0), tf.constant(1.0)
        attempt("equality_default", lambda: [a == b, a == a, a != b, hash(a) == id(a)])
        tf.enable_tensor_equality()
        attempt("equality_enabled", lambda: [a == b, a == a, a != b, hash(a) == id(a),
                                             type(a == b).__name__])
        tf.disable_tensor_equality()
        attempt("equality_disabled", lambda: [a == b, a == a])
    attempt("cxx_version", lambda: tf.CXX_VERSION)
    attempt("filtering_default", tf.debugging.is_traceback_filtering_enabled)
    tf.debugging.disable_traceback_filtering()
    attempt("filtering_disabled", tf.debugging.is_traceback_filtering_enabled)
    tf.debugging.enable_traceback_filtering()
    attempt("filtering_enabled", tf.debugging.is_traceback_filtering_enabled)

    def status_ok():
        with tf.errors.raise_exception_on_not_ok_status() as status:
            pass
        return status is not None
    attempt("status_ok", status_ok)

    def status_passes_errors():
        with tf.errors.raise_exception_on_not_ok_status():
            raise ValueError("inside")
    attempt("status_passes_errors", status_passes_errors)
    missing = os.path.join(tempfile.gettempdir(), "no_such_dir_gi", "ops.so")
    for name in ("load_op_library", "load_library", "load_file_system_library"):
        def load(name=name):
            getattr(tf, name)(missing)
        attempt(name + "_missing", load)
        log[name + "_missing"] = [str(part).replace(missing, "<missing>")
                                  for part in log[name + "_missing"]]
    return log


def replay(name, tf):
    """The JSON-ready log of one script."""
    return _plain(REPLAYS[name](tf))


def numerics_report(message):
    """A check's words (after the "Node:" line) with the creation stack cut to this file's
    frames, their paths to its name: TensorFlow's stack also lists its own library's frames
    and the engine's lists its, and the callers above this file (pytest, the fixture tool)
    differ."""
    text = message.split("\nNode: ", 1)[1].split("\n", 1)[1].split("\n\t [[{{node")[0]
    lines, kept, i = text.split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    + "):
            if "specs_session_cases.py" in line:
                kept.append(re.sub(r"\+ \S*specs_session_cases\.py", "+ specs_session_cases.py",
                                   line))
                kept.append(lines[i + 1])
            i += 1 if line.startswith("    + ... (Omitted") else 2
            continue
        kept.append(line)
        i += 1
    return "\n".join(kept)


def replay_check_numerics(tf):
    log = {}
    attempt = _trying(log, tf)
    graph = tf.Graph()
    with graph.as_default():
        tf.debugging.enable_check_numerics()
        try:
            x = tf.placeholder(tf.float32, name="x")
            y = tf.log(x, name="lg")
            z = y * 2.0
            both = tf.add_n([x, y], name="both")
            ints = tf.constant([1, 2]) + 1
            squeezed = tf.squeeze(tf.reshape(y, [1]))
            square = tf.multiply(x, x, name="square")
        finally:
            tf.debugging.disable_check_numerics()
        after = tf.log(x, name="after")
        grad = tf.gradients(z, x)[0]
        log["tensors"] = [t.name for t in (x, y, z, both, ints, squeezed, after, grad)]
        log["control_inputs"] = [[op.name for op in graph.get_operation_by_name(name)
                                  .control_inputs] for name in ("lg", "both", "after")]
        with tf.Session() as sess:
            attempt("fine", lambda: sess.run([z, both, grad], {x: 2.0}))
            attempt("after_not_checked", lambda: bool(np.isnan(sess.run(after, {x: -1.0}))))
            for label, fetch, value in (("nan", z, -1.0), ("minus_inf", z, 0.0),
                                        ("two_inputs", square, 1e30),
                                        ("placeholder", z, float("nan")),
                                        ("gradient", grad, 0.0)):
                try:
                    log[label] = _plain(sess.run(fetch, {x: value}))
                except tf.errors.OpError as error:
                    log[label] = [type(error).__name__, error.op.name if error.op else None,
                                  numerics_report(error.message)]
        log["nodes"] = _nodes(graph)
    return log


def replay_batch_function(tf):
    log = {}
    attempt = _trying(log, tf)
    batch = tf.nondifferentiable_batch_function
    graph = tf.Graph()
    with graph.as_default():
        w = tf.constant(3.0, name="w")

        @batch(1, 4, 10)
        def affine(a, b):
            return a * w + b, tf.reduce_sum(a, axis=1)

        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.placeholder(tf.float32, [None, 2], name="y")
        pair = affine(x, y)
        v = tf.placeholder(tf.float32, [None], name="v")
        padded = batch(1, 4, 10, allowed_batch_sizes=[2, 4])(lambda a: a + tf.reduce_sum(a))(v)
        single = batch(2, 8, 100)(lambda a: a * 2.0)(v)
        scalar_out = batch(1, 4, 10)(lambda a: tf.reduce_sum(a))(v)
        first_row = batch(1, 4, 10)(lambda a: a[:1])(v)
        too_big = batch(1, 2, 10, enable_large_batch_splitting=False)(lambda a: a * 2)(v)
        s = tf.placeholder(tf.float32, [], name="s")
        scalar_in = batch(1, 4, 10)(lambda a: a * 2)(s)
        mismatch = batch(1, 4, 10)(lambda a, b: a + b[:1])(v, v[:2])
        node = pair[0].op
        attrs = {}
        for key in sorted(node.node_def.attr):
            value = node.node_def.attr[key]
            attrs[key] = ("<function>" if key == "f" else
                          str(value).replace("\n", " ").strip())
        log["node"] = [node.name, node.type, [t.name for t in node.inputs],
                       [str(t.shape) for t in pair], type(pair).__name__,
                       isinstance(single, tf.Tensor), attrs]
        function = [f for f in graph.as_graph_def().library.function
                    if f.signature.name == node.get_attr("f").name][0]
        log["signature"] = [re.sub(r"_\d+$", "_N", function.signature.name),
                            [a.name for a in function.signature.input_arg],
                            [a.name for a in function.signature.output_arg]]
        attempt("not_a_tensor", lambda: batch(1, 4, 10)(lambda a: a)(1.0))
        with tf.Session() as sess:
            attempt("pair", lambda: sess.run(pair, {x: [[1, 2], [3, 4]], y: [[1, 1], [0, 0]]}))
            attempt("padded", lambda: sess.run(padded, {v: [1, 2, 3]}))
            attempt("padded_exact", lambda: sess.run(padded, {v: [1, 2]}))
            attempt("single", lambda: sess.run(single, {v: [1, 2, 3]}))
            attempt("empty", lambda: sess.run(single, {v: np.zeros([0], np.float32)}))
            for label, fetch, feed in (("scalar_out", scalar_out, {v: [1, 2]}),
                                       ("first_row", first_row, {v: [1, 2, 3]}),
                                       ("too_big", too_big, {v: [1, 2, 3]}),
                                       ("scalar_in", scalar_in, {s: 3.0}),
                                       ("mismatch", mismatch, {v: [1, 2, 3]})):
                attempt(label, lambda fetch=fetch, feed=feed: sess.run(fetch, feed))
                if isinstance(log[label], list) and log[label][0].endswith("Error"):
                    log[label][1] = log[label][1].split("\nBelow are")[0]
        attempt("gradient", lambda: tf.gradients(single, v))
        log["nodes"] = _nodes(graph)
    return log


REPLAYS = {"batch_function": replay_batch_function, "check_numerics": replay_check_numerics, "specs": replay_specs, "options": replay_options,
           "session_handles": replay_session_handles,
           "sparse_accumulator": replay_sparse_accumulator,
           "identity_reader": replay_identity_reader, "misc": replay_misc}
