"""Where in a tf.data pipeline an error happened, said as TensorFlow says it.

An error inside a dataset's function (map, filter, flat_map, interleave) reaches Session.run as
"Error in user-defined function passed to MapDataset:3 transformation with iterator:
Iterator::Root::Prefetch::Map: <the kernel's message>", with the error's class unchanged:
- `MapDataset:3` is the dataset kernel's op type and TensorFlow's count of the datasets its
  kernels made in this process (every dataset op run, also inside functions, counts once);
- the iterator prefix names the iterators from the root down, as TensorFlow's are after its
  tf.data graph rewrites of the iterator's dataset (not of datasets made inside functions):
  a stateless map becomes ParallelMapV2 (map_parallelization), shuffle then repeat becomes
  ShuffleAndRepeat, take(-1)/skip(0)/repeat(1) go (noop_elimination), and a Prefetch is put on
  top of a pipeline that does not end asynchronously (inject_prefetch). A map fused with the
  batch after it (MapAndBatch) passes its function's errors on unwrapped.
"""

import itertools

ROOT = "Iterator::Root"
_COUNT = itertools.count()


def next_name(op_type):
    """The metadata name TensorFlow gives the dataset a kernel of `op_type` makes now."""
    return f"{op_type}:{next(_COUNT)}"


def function_error(error, dataset_name, prefix):
    """`error` (an OpError from a dataset's function) wrapped as TensorFlow's AddErrorContext."""
    inner = error.kernel_message or error.message
    text = (f"Error in user-defined function passed to {dataset_name} transformation with "
            f"iterator: {prefix}: {inner}")
    message = "Graph execution error:\n\n" + text
    if error.node_name:
        message += f"\n\t [[{{{{node {error.node_name}}}}}]]"
    wrapped = type(error)(error.node_def, error.op, message)
    wrapped.node_name, wrapped.op_type, wrapped.kernel_message = (
        error.node_name, error.op_type, text)
    wrapped.from_dataset_function = True
    return wrapped


def walk(dataset):
    """The datasets an iterator's dataset reads, itself first (not those functions make)."""
    seen, stack = [], [dataset]
    while stack:
        current = stack.pop()
        if any(current is s for s in seen):
            continue
        seen.append(current)
        stack.extend(current.upstream())
    return seen


def root_prefix(dataset, library):
    """Apply TensorFlow's rewrites to the iterator's datasets; the prefix of the root's input."""
    for current in walk(dataset):
        current.rewrite(library)
    top = dataset
    while top.eliminated and top.upstream():
        top = top.upstream()[0]
    return ROOT if top.is_async() else f"{ROOT}::Prefetch"
