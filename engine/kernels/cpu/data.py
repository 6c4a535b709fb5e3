"""NumPy CPU kernels of the tf.data dataset ops: each returns a dataset (a DT_VARIANT value).

A dataset value is a Python object with `elements(context)`, a generator of elements (lists
of NumPy arrays, one per component); an iterator (engine/kernels/cpu/data_iterator.py) holds
one such generator. `context` (IteratorContext) carries what running the pipeline needs: the
session's function library (MapDataset's `f`) and the seed generators of the shuffles in it,
made once per iterator as TensorFlow keeps them in the iterator's resource manager.
ShuffleDataset gives TensorFlow's order bit for bit (shuffle_dataset_op.cc): a Philox stream
per iterator, an index drawn as `sample % buffered` from a buffer of `buffer_size` elements.
"""

import functools
import gzip
import os
import zlib

import numpy as np

from engine.framework import dtypes, errors
from engine.runtime.function_library import LIBRARY_KEY
from engine.kernels import register
from engine.kernels.common import invalid, int_scalar
from engine.kernels.cpu import data_errors
from engine.lib_io import file_io, tf_record
from engine.runtime.random_philox import PhiloxRandom


class IteratorContext:
    """What one iterator's pipeline needs while it runs."""

    def __init__(self, library, step_id=0):
        self.library, self.step_id = library, step_id
        self.seed_generators = {}  # id(shuffle dataset) -> its SingleSample stream
        self._instances = {}       # id(func attr) -> (func, its instantiated body)
        self.caches = {}           # id(cache dataset) -> its elements, once read through

    def call(self, func, args):
        if self.library is None:
            raise errors.InternalError(None, None, f"No function library to run {func.name}")
        cached = self._instances.get(id(func))
        if cached is None or cached[0] is not func:  # instantiated once per iterator
            cached = self._instances[id(func)] = (func, self.library.instantiate(func.name,
                                                                                 func.attr))
        return cached[1].call(list(args), self.step_id)


def library_of(ctx):
    return (ctx.session_state or {}).get(LIBRARY_KEY)


class SingleSample:
    """tsl::random::SingleSampleAdapter<PhiloxRandom>: one uint32 at a time from 4-word blocks."""

    __slots__ = ("generator", "words")
    BLOCKS = 64  # made at once: consecutive counters, so the same words as one at a time

    def __init__(self, seed, seed2):
        self.generator = PhiloxRandom(seed, seed2)
        self.words = []

    def __call__(self):
        if not self.words:
            self.words = self.generator.next_blocks(self.BLOCKS).ravel().tolist()[::-1]
        return self.words.pop()


class Dataset:
    """A dataset value; subclasses give `elements(context, prefix)`, `prefix` the iterator
    prefix of the dataset reading it (engine/kernels/cpu/data_errors.py)."""

    name = ""            # "MapDataset:3", as TensorFlow names it in errors
    eliminated = False   # dropped by TensorFlow's noop_elimination (take(-1), skip(0), ...)

    def elements(self, context, prefix=data_errors.ROOT):
        raise NotImplementedError

    def upstream(self):
        """The datasets this one reads (not those its functions make)."""
        return [self.input] if hasattr(self, "input") else []

    def rewrite(self, library):
        """TensorFlow's rewrites of an iterator's datasets, where they change this one."""

    def is_async(self):
        return False

    def segment(self):
        return type(self).__name__

    def own_prefix(self, prefix):
        return prefix if self.eliminated else f"{prefix}::{self.segment()}"


class TensorSlices(Dataset):
    def __init__(self, components):
        self.components = components

    def elements(self, context, prefix=data_errors.ROOT):
        for i in range(self.components[0].shape[0]):
            yield [c[i] for c in self.components]


class Tensors(Dataset):
    def __init__(self, components):
        self.components = components

    def elements(self, context, prefix=data_errors.ROOT):
        yield list(self.components)


class Range(Dataset):
    def __init__(self, start, stop, step, dtype):
        self.start, self.stop, self.step, self.dtype = start, stop, step, dtype

    def elements(self, context, prefix=data_errors.ROOT):
        for value in range(self.start, self.stop, self.step):
            yield [np.asarray(value, self.dtype)]


class Map(Dataset):
    """MapDataset (and ParallelMapDatasetV2, `parallel`): `func` on each element."""

    fused_into_batch = False  # TensorFlow's MapAndBatch: its errors go out unwrapped

    def __init__(self, input_dataset, func, captured, parallel=False):
        self.input, self.func, self.captured = input_dataset, func, captured
        self.parallel = parallel

    def rewrite(self, library):
        # map_parallelization: a stateless function runs as ParallelMapV2.
        if library is not None and self.func.name in library:
            self.parallel = self.parallel or not library.signature(self.func.name).is_stateful

    def is_async(self):
        return self.parallel

    def segment(self):
        return "ParallelMapV2" if self.parallel else "Map"

    def own_prefix(self, prefix):
        return prefix if self.fused_into_batch else super().own_prefix(prefix)

    def call(self, context, args, prefix):
        """The function on `args`; its errors said as TensorFlow says them."""
        try:
            return context.call(self.func, list(args) + self.captured)
        except errors.OpError as error:
            if self.fused_into_batch or getattr(error, "from_dataset_function", False):
                raise
            raise data_errors.function_error(error, self.name, prefix) from None

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        for element in self.input.elements(context, own):
            yield self.call(context, element, own)


class FlatMap(Map):
    def segment(self):
        return "FlatMap"

    def rewrite(self, library):
        pass

    def is_async(self):
        return False

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        for index, element in enumerate(self.input.elements(context, own)):
            (dataset,) = self.call(context, element, own)
            yield from dataset.elements(context, f"{own}[{index}]")


class Filter(FlatMap):
    def segment(self):
        return "Filter"

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        for element in self.input.elements(context, own):
            (keep,) = self.call(context, element, own)
            if bool(np.asarray(keep)):
                yield element


class Cache(Dataset):
    """CacheDataset in memory: the first complete pass is kept and replayed (per iterator)."""

    def __init__(self, input_dataset):
        self.input = input_dataset

    def segment(self):
        return "MemoryCacheImpl"

    def elements(self, context, prefix=data_errors.ROOT):
        cached = context.caches.get(id(self))
        if cached is not None:
            yield from cached
            return
        seen = []
        for element in self.input.elements(context, self.own_prefix(prefix)):
            seen.append(element)
            yield element
        context.caches[id(self)] = seen


class Batch(Dataset):
    def __init__(self, input_dataset, batch_size, drop_remainder, ctx):
        self.input, self.batch_size, self.drop_remainder = input_dataset, batch_size, drop_remainder
        self.node_def = ctx.node_def
        if type(input_dataset) is Map:
            input_dataset.fused_into_batch = True

    def segment(self):
        return "MapAndBatch" if type(self.input) is Map else "BatchV2"

    def is_async(self):
        return type(self.input) is Map

    def elements(self, context, prefix=data_errors.ROOT):
        batch = []
        for element in self.input.elements(context, self.own_prefix(prefix)):
            batch.append(element)
            if len(batch) == self.batch_size:
                yield self._stack(batch)
                batch = []
        if batch and not self.drop_remainder:
            yield self._stack(batch)

    def _stack(self, batch):
        if type(self.input) is Map:
            return self._fused_stack(batch)
        result = []
        for i in range(len(batch[0])):
            first = np.shape(batch[0][i])
            for j, element in enumerate(batch[1:], 1):
                if np.shape(element[i]) != first:
                    raise errors.InvalidArgumentError(
                        self.node_def, None,
                        f"Cannot batch tensors with different shapes in component {i}. First "
                        f"element had shape {_shape(first)} and element {j} had shape "
                        f"{_shape(np.shape(element[i]))}.")
            result.append(np.stack([np.asarray(element[i]) for element in batch]))
        return result

    def _fused_stack(self, batch):
        """TensorFlow fuses map then batch (its map_and_batch_fusion, on by default) into
        MapAndBatchDataset, which copies each element into a batch shaped by the first and
        checks only the number of elements: a [3,2] joins a batch of [2,3]s, reshaped."""
        result = []
        for i in range(len(batch[0])):
            first = np.asarray(batch[0][i])
            for element in batch[1:]:
                if np.size(element[i]) != first.size:
                    raise errors.InvalidArgumentError(
                        self.node_def, None,
                        f"Cannot add tensor to the batch: number of elements does not match. "
                        f"Shapes are: [tensor]: {_shape(np.shape(element[i]))}, [batch]: "
                        f"{_shape(first.shape)}")
            result.append(np.stack([np.reshape(element[i], first.shape) for element in batch]))
        return result


def _shape(dims):
    return "[" + ",".join(str(d) for d in dims) + "]"


class Shuffle(Dataset):
    """ShuffleDataset: reshuffling draws each iterator's seeds from one stream per pipeline."""

    def __init__(self, input_dataset, buffer_size, seed, seed2, reshuffle):
        self.input, self.buffer_size = input_dataset, buffer_size
        self.seed, self.seed2, self.reshuffle = seed, seed2, reshuffle
        self.absorbed = False  # into the repeat after it: TensorFlow's ShuffleAndRepeat

    def _stream(self, context):
        if not self.reshuffle:
            return SingleSample(self.seed, self.seed2)
        seeds = context.seed_generators.get(id(self))
        if seeds is None:
            seeds = context.seed_generators[id(self)] = SingleSample(self.seed, self.seed2)
        seed = seeds()
        return SingleSample(seed, seeds())

    def own_prefix(self, prefix):
        return prefix if self.absorbed else super().own_prefix(prefix)

    def elements(self, context, prefix=data_errors.ROOT):
        random = self._stream(context)
        buffer, source, exhausted = [], self.input.elements(context, self.own_prefix(prefix)), False
        while True:
            while not exhausted and len(buffer) < self.buffer_size:
                element = next(source, None)
                if element is None:
                    exhausted = True
                else:
                    buffer.append(element)
            if not buffer:
                return
            # TensorFlow's ring buffer: the pick takes the front element's place, the front
            # goes; the others keep their order.
            index = random() % len(buffer)
            element = buffer[index]
            buffer[index] = buffer[0]
            del buffer[0]
            yield element


class Repeat(Dataset):
    def __init__(self, input_dataset, count):
        self.input, self.count = input_dataset, count
        self.fused = False  # shuffle then repeat: TensorFlow's ShuffleAndRepeat

    def rewrite(self, library):
        self.eliminated = self.count == 1
        if isinstance(self.input, Shuffle):
            self.fused = self.input.absorbed = True

    def segment(self):
        if self.fused:
            return "ShuffleAndRepeat"
        return "ForeverRepeat" if self.count < 0 else "EmptyRepeat" if self.count == 0 \
            else "FiniteRepeat"

    def elements(self, context, prefix=data_errors.ROOT):
        own, epoch = self.own_prefix(prefix), 0
        while self.count < 0 or epoch < self.count:
            produced = False
            inner = own if self.fused or self.eliminated else f"{own}[{epoch}]"
            for element in self.input.elements(context, inner):
                produced = True
                yield element
            if not produced and self.count < 0:
                return  # an empty input repeated forever ends at once, as in TensorFlow
            epoch += 1


class Take(Dataset):
    def __init__(self, input_dataset, count):
        self.input, self.count = input_dataset, count

    def rewrite(self, library):
        self.eliminated = self.count < 0

    def segment(self):
        return "EmptyTake" if self.count == 0 else "FiniteTake" if self.count > 0 else "Take"

    def elements(self, context, prefix=data_errors.ROOT):
        if self.count == 0:
            return
        for taken, element in enumerate(self.input.elements(context, self.own_prefix(prefix)), 1):
            yield element
            if taken == self.count:
                return


class Skip(Dataset):
    def __init__(self, input_dataset, count):
        self.input, self.count = input_dataset, count

    def rewrite(self, library):
        self.eliminated = self.count == 0

    def segment(self):
        return "FiniteSkip" if self.count > 0 else "Skip"

    def elements(self, context, prefix=data_errors.ROOT):
        for index, element in enumerate(self.input.elements(context, self.own_prefix(prefix))):
            if self.count < 0:
                return
            if index >= self.count:
                yield element


class Zip(Dataset):
    def __init__(self, inputs):
        self.inputs = inputs

    def upstream(self):
        return list(self.inputs)

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        sources = [d.elements(context, f"{own}[{i}]") for i, d in enumerate(self.inputs)]
        while True:
            element = []
            for source in sources:
                part = next(source, None)
                if part is None:
                    return
                element.extend(part)
            yield element


class TextLines(Dataset):
    """TextLineDataset: each file's lines without their line ends."""

    def __init__(self, filenames, ctx):
        self.filenames, self.node_def = filenames, ctx.node_def

    def elements(self, context, prefix=data_errors.ROOT):
        for name in self.filenames:
            with _open(self.node_def, name) as stream:
                for line in file_io.read_lines(stream, _path(name), node_def=self.node_def):
                    yield [np.asarray(line.rstrip(b"\n").rstrip(b"\r"), object)]


class TFRecords(Dataset):
    """TFRecordDataset: each file's records (engine.lib_io.tf_record reads them: TensorFlow's
    framing, CRC checks, GZIP/ZLIB streams and DataLossError messages)."""

    def __init__(self, filenames, compression_type, ctx):
        self.filenames, self.node_def = filenames, ctx.node_def
        self.compression_type = compression_type

    def elements(self, context, prefix=data_errors.ROOT):
        for name in self.filenames:
            with _open(self.node_def, name) as f:
                try:
                    for data in tf_record.read_records(f, self.compression_type):
                        yield [np.asarray(data, object)]
                except tf_record.RecordError as error:
                    raise error.error_class(self.node_def, None, str(error)) from None


class FixedLengthRecords(Dataset):
    """FixedLengthRecordDatasetV2: each file's records of record_bytes bytes between its
    header and footer (a GZIP or ZLIB file inflated first)."""

    def __init__(self, filenames, header, record, footer, compression_type, ctx):
        self.filenames, self.node_def = filenames, ctx.node_def
        self.header, self.record, self.footer = header, record, footer
        self.compression_type = compression_type

    def elements(self, context, prefix=data_errors.ROOT):
        for name in self.filenames:
            with _open(self.node_def, name) as f:
                data = f.read()
            if self.compression_type == "GZIP":
                data = gzip.decompress(data)
            elif self.compression_type == "ZLIB":
                data = zlib.decompress(data)
            body = len(data) - self.header - self.footer
            if not self.compression_type and body % self.record:
                raise errors.InvalidArgumentError(
                    self.node_def, None,
                    f"Excluding the header ({self.header} bytes) and footer ({self.footer} "
                    f"bytes), input file \"{_path(name)}\" has body length {body} bytes, "
                    f"which is not an exact multiple of the record length ({self.record} "
                    f"bytes).")
            for start in range(self.header, self.header + body - self.record + 1, self.record):
                yield [np.asarray(data[start:start + self.record], object)]


def _path(name):
    return name.decode() if isinstance(name, bytes) else str(name)


def _open(node_def, name):
    return file_io.open_input(_path(name), node_def)


def dataset_kernel(op_type):
    """Register a dataset op's kernel; each dataset it makes is named as TensorFlow names it."""
    def decorate(fn):
        @functools.wraps(fn)
        def kernel(ctx, *inputs):
            dataset = fn(ctx, *inputs)
            dataset.name = data_errors.next_name(op_type)
            return dataset
        return register(op_type)(kernel)
    return decorate


def _components(values):
    return [np.asarray(v) for v in values]


def _dataset(ctx, value):
    value = value.item() if isinstance(value, np.ndarray) and value.dtype == object else value
    if not isinstance(value, Dataset):
        raise invalid(ctx, "Input tensor must be a scalar of dtype DT_VARIANT holding a dataset")
    return value


@dataset_kernel("TensorSliceDataset")
def tensor_slice_dataset(ctx, *components):
    components = _components(components)
    if any(c.ndim == 0 for c in components):
        raise invalid(ctx, "All components must be at least 1-dimensional")
    sizes = {c.shape[0] for c in components}
    if len(sizes) > 1:
        raise invalid(ctx, f"All components must have the same size in the 0th dimension; "
                           f"got {', '.join(str(c.shape[0]) for c in components)}")
    return TensorSlices(components)


@dataset_kernel("TensorDataset")
def tensor_dataset(ctx, *components):
    return Tensors(_components(components))


@dataset_kernel("RangeDataset")
def range_dataset(ctx, start, stop, step):
    step = int_scalar(ctx, step, "step")
    if step == 0:
        raise invalid(ctx, "step must be a non-zero integer.")
    dtype = dtypes.as_dtype(ctx.node_def.attr["output_types"].list.type[0]).as_numpy_dtype
    return Range(int_scalar(ctx, start, "start"), int_scalar(ctx, stop, "stop"), step, dtype)


def _func(ctx):
    return ctx.node_def.attr["f"].func


@dataset_kernel("MapDataset")
def map_dataset(ctx, input_dataset, *captured):
    return Map(_dataset(ctx, input_dataset), _func(ctx), list(captured))


@dataset_kernel("ParallelMapDatasetV2")
def parallel_map_dataset(ctx, input_dataset, *rest):
    # The last input is num_parallel_calls: elements are made in order, one at a time.
    return Map(_dataset(ctx, input_dataset), _func(ctx), list(rest[:-1]), parallel=True)


@dataset_kernel("FlatMapDataset")
def flat_map_dataset(ctx, input_dataset, *captured):
    return FlatMap(_dataset(ctx, input_dataset), _func(ctx), list(captured))


@dataset_kernel("FilterDataset")
def filter_dataset(ctx, input_dataset, *captured):
    return Filter(_dataset(ctx, input_dataset), ctx.node_def.attr["predicate"].func,
                  list(captured))


@dataset_kernel("CacheDataset")
def cache_dataset(ctx, input_dataset, filename):
    name = np.asarray(filename, object).item()
    if name:
        raise errors.UnimplementedError(ctx.node_def, None, "A file cache (Dataset.cache with a "
                                        "filename) is not supported by the engine yet")
    return Cache(_dataset(ctx, input_dataset))


@dataset_kernel("BatchDatasetV2")
def batch_dataset(ctx, input_dataset, batch_size, drop_remainder):
    size = int_scalar(ctx, batch_size, "batch_size")
    if size <= 0:
        raise invalid(ctx, "Batch size must be greater than zero.")
    return Batch(_dataset(ctx, input_dataset), size, bool(np.asarray(drop_remainder)), ctx)


@dataset_kernel("ShuffleDataset")
def shuffle_dataset(ctx, input_dataset, buffer_size, seed, seed2):
    size = int_scalar(ctx, buffer_size, "buffer_size")
    if size <= 0:
        raise invalid(ctx, "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
    seed, seed2 = int_scalar(ctx, seed, "seed"), int_scalar(ctx, seed2, "seed2")
    if seed == 0 and seed2 == 0:  # TensorFlow's convention: seeded non-deterministically
        seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
    return Shuffle(_dataset(ctx, input_dataset), size, seed, seed2,
                   bool(ctx.attrs.get("reshuffle_each_iteration", True)))


@dataset_kernel("RepeatDataset")
def repeat_dataset(ctx, input_dataset, count):
    return Repeat(_dataset(ctx, input_dataset), int_scalar(ctx, count, "count"))


@dataset_kernel("TakeDataset")
def take_dataset(ctx, input_dataset, count):
    return Take(_dataset(ctx, input_dataset), int_scalar(ctx, count, "count"))


@dataset_kernel("SkipDataset")
def skip_dataset(ctx, input_dataset, count):
    return Skip(_dataset(ctx, input_dataset), int_scalar(ctx, count, "count"))


class Generator(Dataset):
    """GeneratorDataset (Dataset.from_generator): init_func makes the state, next_func makes
    each element from it until it raises OutOfRangeError (the Python generator's
    StopIteration), then finalize_func releases it."""

    def __init__(self, funcs, init_args, next_args, finalize_args):
        self.init_func, self.next_func, self.finalize_func = funcs
        self.init_args, self.next_args = init_args, next_args
        self.finalize_args = finalize_args

    def segment(self):
        return "Generator"

    def elements(self, context, prefix=data_errors.ROOT):
        state = list(context.call(self.init_func, self.init_args))
        while True:
            try:
                element = context.call(self.next_func, state + self.next_args)
            except errors.OutOfRangeError:
                break
            yield element
        context.call(self.finalize_func, state + self.finalize_args)


@dataset_kernel("GeneratorDataset")
def generator_dataset(ctx, *inputs):
    counts = [len(ctx.node_def.attr[key].list.type) for key in
              ("Tinit_func_args", "Tnext_func_args", "Tfinalize_func_args")]
    init_args = list(inputs[:counts[0]])
    next_args = list(inputs[counts[0]:counts[0] + counts[1]])
    finalize_args = list(inputs[counts[0] + counts[1]:])
    funcs = [ctx.node_def.attr[key].func for key in ("init_func", "next_func", "finalize_func")]
    return Generator(funcs, init_args, next_args, finalize_args)


class Prefetch(Dataset):
    """Prefetching changes when elements are made, not which: the input's, in order."""

    def __init__(self, input_dataset):
        self.input = input_dataset

    def is_async(self):
        return True

    def elements(self, context, prefix=data_errors.ROOT):
        yield from self.input.elements(context, self.own_prefix(prefix))


@dataset_kernel("PrefetchDataset")
def prefetch_dataset(ctx, input_dataset, buffer_size):
    return Prefetch(_dataset(ctx, input_dataset))


@dataset_kernel("ZipDataset")
def zip_dataset(ctx, *input_datasets):
    return Zip([_dataset(ctx, d) for d in input_datasets])


def _filenames(ctx, filenames):
    names = np.asarray(filenames, object).ravel().tolist()
    if not names:
        raise invalid(ctx, "filenames must be a non-empty vector")
    return names


@dataset_kernel("TextLineDataset")
def text_line_dataset(ctx, filenames, compression_type, buffer_size):
    _uncompressed(ctx, compression_type)
    return TextLines(_filenames(ctx, filenames), ctx)


@dataset_kernel("TFRecordDataset")
def tf_record_dataset(ctx, filenames, compression_type, buffer_size):
    kind = _compression(compression_type)
    # TensorFlow logs an unknown compression type and reads the files uncompressed.
    return TFRecords(_filenames(ctx, filenames), kind if kind in ("ZLIB", "GZIP") else "", ctx)


@dataset_kernel("FixedLengthRecordDatasetV2")
def fixed_length_record_dataset_v2(ctx, filenames, header_bytes, record_bytes, footer_bytes,
                                   buffer_size, compression_type):
    header, record = int(header_bytes), int(record_bytes)
    footer, size = int(footer_bytes), int(buffer_size)
    if header < 0:
        raise invalid(ctx, "`header_bytes` must be >= 0")
    if record <= 0:
        raise invalid(ctx, "`record_bytes` must be > 0")
    if footer < 0:
        raise invalid(ctx, "`footer_bytes` must be >= 0")
    if size < 0:
        raise invalid(ctx, "`buffer_size` must be >= 0")
    kind = _compression(compression_type)
    return FixedLengthRecords(_filenames(ctx, filenames), header, record, footer,
                              kind if kind in ("ZLIB", "GZIP") else "", ctx)


def _compression(compression_type):
    kind = np.asarray(compression_type, object).item()
    return kind.decode() if isinstance(kind, bytes) else kind


def _uncompressed(ctx, compression_type):
    kind = _compression(compression_type)
    if kind:
        raise errors.UnimplementedError(ctx.node_def, None,
                                        f"compression_type {kind!r} is not supported by the "
                                        f"engine yet")
