"""NumPy CPU kernels of the tf.data iterator ops: OneShotIterator, IteratorV2, MakeIterator,
IteratorGetNext, IteratorToStringHandle and IteratorFromStringHandleV2 (the handle back from its
string, for a feedable iterator).

An iterator is a session resource (found by its ResourceHandle's name) holding the generator
of a dataset value (engine/kernels/cpu/data.py). OneShotIterator makes its dataset once per
session by calling its `dataset_factory` function; IteratorV2 names an empty iterator that
MakeIterator fills (again on every run: an initializable iterator starts over, with its
shuffles' seed streams anew, as TensorFlow's do). IteratorGetNext past the end raises
OutOfRangeError("End of sequence").
"""

import threading

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.cpu import data_errors
from engine.kernels.common import resource_handle
from engine.kernels.cpu.data import Dataset, IteratorContext, library_of
from engine.runtime.resources import ResourceHandle

_CREATE_LOCK = threading.Lock()


class IteratorResource:
    """One iterator's state: the running generator of its dataset (None before MakeIterator)."""

    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()
        self.elements = None

    def start(self, dataset, library, step_id):
        with self.lock:
            self.elements = _iterate(dataset, library, step_id)


def _iterate(dataset, library, step_id):
    """The elements an iterator over `dataset` yields (its datasets rewritten as TensorFlow's)."""
    return dataset.elements(IteratorContext(library, step_id),
                            data_errors.root_prefix(dataset, library))


def _resource(ctx, name):
    iterators = ctx.resources.table("iterators")
    with _CREATE_LOCK:
        resource = iterators.get(name)
        if resource is None:
            resource = iterators[name] = IteratorResource(name)
    return resource


def _handle_name(ctx):
    shared = ctx.attrs.get("shared_name") or b""
    shared = shared.decode() if isinstance(shared, bytes) else shared
    return ctx.resources.resource_name(ctx.name, shared)


def _lookup(ctx, handle):
    handle = resource_handle(handle)
    if not isinstance(handle, ResourceHandle):
        raise errors.InvalidArgumentError(ctx.node_def, None,
                                          "Expected a resource handle of an iterator")
    resource = ctx.resources.table("iterators").get(handle.name)
    if resource is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource {handle.container}/{handle.name} does not exist.")
    return resource


@register("OneShotIterator")
def one_shot_iterator(ctx):
    name = _handle_name(ctx)
    resource = _resource(ctx, name)
    with resource.lock:
        started = resource.elements is not None
    if not started:
        factory = ctx.node_def.attr["dataset_factory"].func
        library = library_of(ctx)
        if library is None:
            raise errors.InternalError(ctx.node_def, None,
                                       f"No function library for {ctx.op_type} node {ctx.name}")
        (dataset,) = library.call(factory.name, factory.attr, [], ctx.step_id)
        if not isinstance(dataset, Dataset):
            raise errors.InvalidArgumentError(
                ctx.node_def, None, "The dataset_factory function did not return a dataset")
        with resource.lock:
            if resource.elements is None:  # a concurrent first run may have started it
                resource.elements = _iterate(dataset, library, ctx.step_id)
    return ResourceHandle("", name, ctx.device, None, ())


@register("IteratorV2")
def iterator_v2(ctx):
    name = _handle_name(ctx)
    _resource(ctx, name)
    return ResourceHandle("", name, ctx.device, None, ())


@register("MakeIterator")
def make_iterator(ctx, dataset, iterator):
    dataset = dataset.item() if isinstance(dataset, np.ndarray) else dataset
    _lookup(ctx, iterator).start(dataset, library_of(ctx), ctx.step_id)


@register("IteratorGetNext")
def iterator_get_next(ctx, iterator):
    resource = _lookup(ctx, iterator)
    with resource.lock:
        if resource.elements is None:
            raise errors.FailedPreconditionError(
                ctx.node_def, None,
                "GetNext() failed because the iterator has not been initialized. Ensure that "
                "you have run the initializer operation for this iterator before getting the "
                "next element.")
        try:
            element = next(resource.elements, None)
        except errors.OpError as error:
            if getattr(error, "from_dataset_function", False):
                # TensorFlow's trailer: the error came out of this node.
                error._message += f"\n\t [[{ctx.name}]]"
            raise
    if element is None:
        raise errors.OutOfRangeError(ctx.node_def, None, "End of sequence")
    values = []
    for value, dtype in zip(element, ctx.output_dtypes):
        values.append(np.asarray(value, dtype=dtype.as_numpy_dtype))
    return values[0] if len(values) == 1 else values


@register("IteratorToStringHandle")
def iterator_to_string_handle(ctx, iterator):
    handle = resource_handle(iterator)
    return np.asarray(f"{handle.container}/{handle.name}".encode(), object)


@register("IteratorFromStringHandleV2")
def iterator_from_string_handle(ctx, string_handle):
    text = string_handle.item() if isinstance(string_handle, np.ndarray) else string_handle
    text = text.decode() if isinstance(text, bytes) else str(text)
    container, slash, name = text.partition("/")
    if not slash or name not in ctx.resources.table("iterators"):
        raise errors.InvalidArgumentError(
            ctx.node_def, None, "Could not parse string_handle as a valid ResourceHandle")
    return ResourceHandle(container, name, ctx.device, None, ())
