"""tf.data pipelines built the same way by real TensorFlow (tools/make_data_fixtures.py, through
tools/tf_shim) and by the engine (tests/engine/test_data_pipelines.py).

Each case builds its graph and returns (next_element, initializations): next_element is what
get_next() gave; initializations is None for a one-shot iterator, else a list of
(initializer op, feed_dict) run in turn, each followed by the classic loop
`while True: sess.run(next) ... except OutOfRangeError: break`. run_case records every
element (the nesting, each component's dtype and values), how each loop ended (the error
class and its message's TensorFlow part), the dataset's output_types/output_shapes, and the
GraphDef's nodes (name, op, inputs, attrs) and functions (signature, body ops but constants).
"""

import gc
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "data"
LINES_FILE = FIXTURES / "lines.txt"
RECORDS_FILE = FIXTURES / "records.tfrecord"
TRUNCATED_FILE = FIXTURES / "truncated.tfrecord"  # records.tfrecord cut inside its 4th record
MAX_ELEMENTS = 200  # a case that would run longer stops here (both sides alike)
FEATURES = np.arange(24, dtype=np.float32).reshape(12, 2) / 4.0
LABELS = np.arange(12, dtype=np.int64) % 3


def slices_map_shuffle_batch_repeat(tf):
    tf.set_random_seed(7)
    ds = tf.data.Dataset.from_tensor_slices((np.arange(10, dtype=np.float32), np.arange(10)))
    ds = ds.map(lambda x, y: (x * 2, y + 1))
    ds = ds.shuffle(5, seed=3).batch(3).repeat(2).prefetch(1)
    return ds.make_one_shot_iterator().get_next(), None, ds


def slices_dict_batch_drop_remainder(tf):
    ds = tf.data.Dataset.from_tensor_slices({"image": FEATURES, "label": LABELS})
    ds = ds.batch(5, drop_remainder=True)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def map_over_dict_parallel(tf):
    ds = tf.data.Dataset.from_tensor_slices({"x": FEATURES, "y": LABELS})
    ds = ds.map(lambda d: {"sum": tf.reduce_sum(d["x"]), "y": tf.cast(d["y"], tf.float32)},
                num_parallel_calls=4)
    return tf.data.make_one_shot_iterator(ds.batch(4)).get_next(), None, ds


def map_single_component(tf):
    ds = tf.data.Dataset.range(6).map(lambda x: tf.cast(x, tf.float32) * 0.5 + 1.0)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def from_tensors_repeat(tf):
    ds = tf.data.Dataset.from_tensors(([1, 2, 3], np.float64(2.5))).repeat(3)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def range_forms(tf):
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(2, 14, 3),
                              tf.data.Dataset.range(10, 0, -2)))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def take_skip(tf):
    ds = tf.data.Dataset.range(20).skip(3).take(6)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def take_all_skip_past_end(tf):
    everything = tf.data.Dataset.range(4).take(-1)
    nothing = tf.data.Dataset.range(4).skip(10)
    ds = tf.data.Dataset.zip({"a": everything, "c": tf.data.Dataset.range(3).skip(1).repeat(2)})
    return tf.data.make_one_shot_iterator(ds).get_next(), None, (ds, nothing)


def empty_repeat_forever(tf):
    ds = tf.data.Dataset.range(4).skip(10).repeat()
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def shuffle_seeds(tf):
    tf.set_random_seed(11)
    parts = {
        "op_seed": tf.data.Dataset.range(30).shuffle(8, seed=5),
        "graph_seed_only": tf.data.Dataset.range(30).shuffle(4),
        "graph_seed_only_again": tf.data.Dataset.range(30).shuffle(4),
        "buffer_bigger": tf.data.Dataset.range(30).shuffle(100, seed=1),
        "buffer_one": tf.data.Dataset.range(30).shuffle(1, seed=1),
    }
    ds = tf.data.Dataset.zip(parts)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def shuffle_op_seed_without_graph_seed(tf):
    ds = tf.data.Dataset.range(25).shuffle(6, seed=42)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def shuffle_then_repeat(tf):
    tf.set_random_seed(3)
    ds = tf.data.Dataset.range(12).shuffle(12, seed=9).repeat(3)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def repeat_then_shuffle(tf):
    tf.set_random_seed(3)
    ds = tf.data.Dataset.range(12).repeat(3).shuffle(7, seed=9)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def shuffle_fixed_seed_each_epoch(tf):
    tf.set_random_seed(3)
    ds = tf.data.Dataset.range(12).shuffle(5, seed=9, reshuffle_each_iteration=False).repeat(2)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def shuffle_batch_repeat_infinite(tf):
    tf.set_random_seed(1234)
    ds = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).shuffle(12).batch(5).repeat()
    return tf.data.make_one_shot_iterator(ds.take(9)).get_next(), None, ds


def initializable_with_placeholder(tf):
    tf.set_random_seed(5)
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    ds = tf.data.Dataset.from_tensor_slices(x).shuffle(4, seed=2).batch(3)
    iterator = ds.make_initializable_iterator()
    feeds = [{x: FEATURES[:7]}, {x: FEATURES[:7]}, {x: FEATURES[5:]}]
    return iterator.get_next(), [(iterator.initializer, feed) for feed in feeds], ds


def initializable_compat_function(tf):
    ds = tf.data.Dataset.range(3).map(lambda v: (v, tf.square(v)))
    iterator = tf.compat.v1.data.make_initializable_iterator(ds)
    return iterator.get_next(), [(iterator.initializer, {})] * 2, ds


def zip_nested_strings(tf):
    words = tf.data.Dataset.from_tensor_slices(np.array([b"alpha", b"beta", b"gamma"]))
    ds = tf.data.Dataset.zip((words, (tf.data.Dataset.range(3), tf.data.Dataset.range(5))))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def text_lines(tf):
    ds = tf.data.TextLineDataset([str(LINES_FILE), str(LINES_FILE)]).skip(1)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def tf_records(tf):
    ds = tf.data.TFRecordDataset(str(RECORDS_FILE)).batch(2)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def batch_unequal_shapes(tf):
    # take() between map and batch: TensorFlow fuses an adjacent map and batch into
    # MapAndBatchDataset, whose shape check races its parallel map calls (see test_data_api).
    ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).take(10).batch(2)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def get_next_before_initializer(tf):
    ds = tf.data.Dataset.range(3)
    iterator = ds.make_initializable_iterator()
    return iterator.get_next(), [(None, {}), (iterator.initializer, {})], ds


def map_capturing_outer_tensors(tf):
    scale = tf.constant(3, tf.int64, name="scale")
    offset = tf.placeholder(tf.float32, [], name="offset")
    ds = tf.data.Dataset.range(4).map(
        lambda x: (x * scale, tf.cast(x, tf.float32) + offset + tf.cast(scale, tf.float32)))
    iterator = ds.make_initializable_iterator()
    feeds = [{offset: 0.5}, {offset: -2.0}]
    return iterator.get_next(), [(iterator.initializer, feed) for feed in feeds], ds


def one_shot_over_placeholder(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.placeholder(tf.int64, [None]))
    return ds.make_one_shot_iterator().get_next(), None, ds


def filter_shuffle_cache_repeat(tf):
    # cache() after shuffle keeps the first epoch's order for the second.
    tf.set_random_seed(8)
    ds = tf.data.Dataset.range(30).filter(lambda x: tf.equal(x % 3, 0))
    ds = ds.shuffle(4).cache().repeat(2)
    other = tf.data.Dataset.range(12).shuffle(5).repeat(2)
    return (tf.data.make_one_shot_iterator(tf.data.Dataset.zip((ds, other))).get_next(), None,
            ds)


def reinitializable_from_structure(tf):
    tf.set_random_seed(4)
    train = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).shuffle(6).batch(4)
    val = tf.data.Dataset.from_tensor_slices((FEATURES[:5] * -1, LABELS[:5])).batch(4)
    iterator = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    train_init, val_init = iterator.make_initializer(train), iterator.make_initializer(val)
    return (iterator.get_next(), [(train_init, {}), (val_init, {}), (train_init, {})],
            (train, val))


def truncated_tf_records(tf):
    ds = tf.data.TFRecordDataset(str(TRUNCATED_FILE))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def missing_text_file(tf):
    ds = tf.data.TextLineDataset(str(FIXTURES / "no_such_file.txt"))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def zero_sizes_and_steps(tf):
    shuffle = tf.data.Dataset.range(5).shuffle(0).make_initializable_iterator()
    batch = tf.data.Dataset.range(5).batch(0).make_initializable_iterator()
    step = tf.data.Dataset.range(0, 5, 0).make_initializable_iterator()
    return ([shuffle.get_next(), batch.get_next(), step.get_next()],
            [(shuffle.initializer, {}), (batch.initializer, {}), (step.initializer, {})], None)


def slices_of_unequal_lengths(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(4)))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def padded_batch_unknown_dims(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: (tf.range(n), tf.fill([n, 2], n)))
    ds = ds.padded_batch(2, padded_shapes=([None], [None, 2]))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def padded_batch_values_drop_remainder(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: {"ids": tf.range(n), "word": tf.fill([n], "w")})
    ds = ds.padded_batch(2, padded_shapes={"ids": [5], "word": [None]},
                         padding_values={"ids": np.int64(-1), "word": "<pad>"}, drop_remainder=True)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def padded_batch_default_shapes(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: (tf.range(n), tf.cast(n, tf.float32)))
    ds = ds.padded_batch(3)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def padded_batch_too_small(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: tf.range(n)).padded_batch(2, padded_shapes=[3])
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def padded_batch_incompatible_shape(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.zeros([4, 3], np.float32)).padded_batch(2, [2, 2])
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def interleave_cycle_block(tf):
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x + 1), cycle_length=2, block_length=2)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def interleave_ragged_files(tf):
    # The classic use: one dataset per "file", several read at once; empty ones skipped.
    lengths = tf.constant([3, 0, 5, 1, 2], tf.int64, name="lengths")
    ds = tf.data.Dataset.range(5).interleave(
        lambda i: tf.data.Dataset.range(i * 10, i * 10 + tf.gather(lengths, i)).map(
            lambda v: (i, v)), cycle_length=3, block_length=1)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def concatenate_shapes(tf):
    first = tf.data.Dataset.from_tensor_slices(([[1, 2], [3, 4]], [1.0, 2.0]))
    second = tf.data.Dataset.from_tensor_slices(([[5, 6, 7]], [3.0])).repeat(2)
    third = tf.data.Dataset.from_tensor_slices(([[8]], [4.0])).take(1)
    ds = first.concatenate(second).concatenate(third)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def concatenate_mismatched_types(tf):
    ds = tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices([1.0]))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def flat_map_ranges(tf):
    ds = tf.data.Dataset.range(4).flat_map(
        lambda x: tf.data.Dataset.range(x).map(lambda y: (x, y * 2)))
    return tf.data.make_one_shot_iterator(ds.batch(3)).get_next(), None, ds


def padded_batch_wrong_padding_type(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).padded_batch(2, [None], 1.5)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def concatenate_mismatched_nesting(tf):
    pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [[1.0], [2.0]]))
    ds = pairs.concatenate(tf.data.Dataset.from_tensor_slices(([1, 2], [[1.0], [2.0]])))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def _sentences(count, seed=0):
    rng = np.random.RandomState(seed)
    for i in range(count):
        yield rng.randint(1, 9, size=rng.randint(1, 5)).astype(np.int64), i % 3


def from_generator_padded_batch(tf):
    ds = tf.data.Dataset.from_generator(lambda: _sentences(7), (tf.int64, tf.int32),
                                        (tf.TensorShape([None]), tf.TensorShape([])))
    ds = ds.padded_batch(3, padded_shapes=([4], []))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def from_generator_args_reinitialized(tf):
    def countdown(start, word):
        for i in range(int(start), 0, -1):
            yield {"n": i, "text": word * i}
    start = tf.placeholder(tf.int64, [], name="start")
    ds = tf.data.Dataset.from_generator(countdown, {"n": tf.int64, "text": tf.string},
                                        {"n": [], "text": []}, args=(start, "ab"))
    iterator = ds.make_initializable_iterator()
    feeds = [{start: 3}, {start: 1}]
    return iterator.get_next(), [(iterator.initializer, feed) for feed in feeds], ds


def from_generator_unknown_shapes_map(tf):
    ds = tf.data.Dataset.from_generator(
        lambda: (np.full([i, 2], i, np.float32) for i in range(1, 4)), tf.float32)
    ds = ds.map(lambda x: tf.reduce_sum(x, axis=0))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def from_generator_wrong_shape(tf):
    ds = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3, 4, 5]]), tf.int32, [2])
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def from_generator_not_callable(tf):
    ds = tf.data.Dataset.from_generator([1, 2, 3], tf.int32)
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def map_py_func_closure(tf):
    # The closure lives only in the traced function's graph: the outer graph keeps it.
    def scaled(by):
        return lambda v: (v * by).astype(np.float32)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.py_func(scaled(2.5), [x], tf.float32))
    gc.collect()
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


def map_py_function(tf):
    ds = tf.data.Dataset.range(1, 4).map(
        lambda x: tf.py_function(lambda v: (v.numpy() * 1.5, str(v.numpy()) * 2), [x],
                                 [tf.float32, tf.string]))
    return tf.data.make_one_shot_iterator(ds).get_next(), None, ds


CASES = {fn.__name__: fn for fn in (
    slices_map_shuffle_batch_repeat, slices_dict_batch_drop_remainder, map_over_dict_parallel,
    map_single_component, from_tensors_repeat, range_forms, take_skip, take_all_skip_past_end,
    empty_repeat_forever, shuffle_seeds, shuffle_op_seed_without_graph_seed,
    shuffle_then_repeat, repeat_then_shuffle, shuffle_fixed_seed_each_epoch,
    shuffle_batch_repeat_infinite, initializable_with_placeholder,
    initializable_compat_function, zip_nested_strings, text_lines, tf_records,
    batch_unequal_shapes, get_next_before_initializer, map_capturing_outer_tensors,
    one_shot_over_placeholder, truncated_tf_records, missing_text_file, zero_sizes_and_steps,
    slices_of_unequal_lengths, filter_shuffle_cache_repeat, reinitializable_from_structure,
    padded_batch_unknown_dims, padded_batch_values_drop_remainder, padded_batch_default_shapes,
    padded_batch_too_small, padded_batch_incompatible_shape, interleave_cycle_block,
    interleave_ragged_files, concatenate_shapes, concatenate_mismatched_types, flat_map_ranges,
    padded_batch_wrong_padding_type, concatenate_mismatched_nesting,
    from_generator_padded_batch, from_generator_args_reinitialized,
    from_generator_unknown_shapes_map, from_generator_wrong_shape, from_generator_not_callable,
    map_py_func_closure, map_py_function)}


def _nesting(value):
    if isinstance(value, dict):
        return {key: _nesting(value[key]) for key in sorted(value)}
    if isinstance(value, (tuple, list)):
        return [_nesting(item) for item in value]
    return "T"


def _leaves(value):
    if isinstance(value, dict):
        return [x for key in sorted(value) for x in _leaves(value[key])]
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in _leaves(item)]
    return [value]


def _component(value):
    array = np.asarray(value)
    if array.dtype == object or array.dtype.kind == "S":
        items = [v.decode("latin-1") if isinstance(v, bytes) else str(v)
                 for v in array.ravel().tolist()]
        return {"dtype": "string", "shape": list(array.shape), "values": items}
    return {"dtype": str(array.dtype), "shape": list(array.shape),
            "values": array.ravel().tolist()}


def _ending(error):
    message = getattr(error, "message", str(error))
    # TensorFlow's own part: the line before its "[[{{node ...}}]]" trailer.
    lines = [line for line in message.splitlines() if line and not line.startswith("\t")]
    message = lines[-1] if lines else ""
    # Paths inside the fixtures directory, wherever the checkout is.
    return {"error": type(error).__name__, "message": message.replace(str(FIXTURES), "<data>")}


def _attrs(node):
    result = {}
    for key, value in sorted(node.attr.items()):
        if key in ("f", "predicate", "dataset_factory"):
            result[key] = "<function>"
        elif key == "value":
            continue  # constants: compared by value through the elements
        else:
            result[key] = str(value).replace("\n", " ")
    return result


def _spec(value):
    return {"nesting": _nesting(value), "leaves": [str(v) for v in _leaves(value)]}


# Cases whose GraphDef TensorFlow writes (tests/fixtures/data/<case>.pb): the engine imports
# and runs TensorFlow's own graph, its dataset factory and map functions included.
EXPORTED = ("slices_map_shuffle_batch_repeat", "shuffle_seeds")


def run_imported(tf, graph_def, fetch_names):
    """The elements a one-shot loop over `fetch_names` yields from an imported GraphDef."""
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
        fetches = [graph.get_tensor_by_name(n) for n in fetch_names]
        elements, ending = [], None
        with tf.Session(graph=graph) as sess:
            while len(elements) < MAX_ELEMENTS:
                try:
                    values = sess.run(fetches)
                except tf.errors.OpError as error:
                    ending = _ending(error)
                    break
                elements.append([_component(v) for v in values])
    return {"elements": elements, "ending": ending}


def run_case(tf, name, keep=None):
    """Everything TensorFlow (or the engine) says about case `name`, as JSON-ready data;
    `keep`, a dict, gets the GraphDef and the names of get_next's tensors."""
    graph = tf.Graph()
    with graph.as_default():
        try:
            next_element, initializations, dataset = CASES[name](tf)
        except (ValueError, TypeError) as error:  # refused while building, as TF refuses
            return {"build_error": {"error": type(error).__name__, "message": str(error)}}
        datasets = dataset if isinstance(dataset, tuple) else (dataset,) if dataset else ()
        types = [_spec(tf.data.get_output_types(d)) for d in datasets]
        shapes = [[repr(tuple(s.as_list()) if s.ndims is not None else None)
                   for s in _leaves(tf.data.get_output_shapes(d))] for d in datasets]
        static = [repr(tuple(t.shape.as_list()) if t.shape.ndims is not None else None)
                  for t in _leaves(next_element)]
        runs = []
        with tf.Session(graph=graph) as sess:
            for initializer, feed in (initializations or [(None, {})]):
                elements, ending = [], None
                if initializer is not None:
                    try:
                        sess.run(initializer, feed_dict=feed)
                    except tf.errors.OpError as error:
                        runs.append({"elements": [], "ending": _ending(error)})
                        continue
                while len(elements) < MAX_ELEMENTS:
                    try:
                        value = sess.run(next_element)
                    except tf.errors.OpError as error:
                        ending = _ending(error)
                        break
                    elements.append({"nesting": _nesting(value),
                                     "components": [_component(v) for v in _leaves(value)]})
                runs.append({"elements": elements, "ending": ending})
        graph_def = graph.as_graph_def()
    if keep is not None:
        keep["graph_def"] = graph_def
        keep["fetch_names"] = [t.name for t in _leaves(next_element)]
    return {
        "runs": runs, "output_types": types, "output_shapes": shapes, "get_next_shapes": static,
        "nodes": [[n.name, n.op, list(n.input), _attrs(n)] for n in graph_def.node],
        # Body ops but constants: TensorFlow's capture by value copies a constant once per
        # consumer into a dataset factory (seed_1 beside seed); the engine copies it once.
        "functions": sorted([[len(f.signature.input_arg), len(f.signature.output_arg),
                              sorted(n.op for n in f.node_def if n.op not in ("NoOp", "Const"))]
                             for f in graph_def.library.function]),
    }
