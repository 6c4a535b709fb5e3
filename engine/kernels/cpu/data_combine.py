"""NumPy CPU kernels of the tf.data ops that combine elements or datasets: PaddedBatchDatasetV2,
InterleaveDataset, ConcatenateDataset (dataset values as in engine/kernels/cpu/data.py).

InterleaveDataset cycles as TensorFlow's interleave_dataset_op.cc does: `cycle_length` open
datasets, `block_length` elements from each in turn; a slot whose dataset ends takes the next
input element's dataset when its turn comes again.
"""

import os

import numpy as np

from engine.framework import dtypes, errors
from engine.kernels.common import invalid, int_scalar
from engine.kernels.cpu import data_errors
from engine.kernels.cpu.data import Dataset, FlatMap, _dataset, _func, dataset_kernel


class PaddedBatch(Dataset):
    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values,
                 drop_remainder, ctx):
        self.input, self.batch_size, self.drop_remainder = input_dataset, batch_size, drop_remainder
        self.padded_shapes, self.padding_values = padded_shapes, padding_values
        self.node_def = ctx.node_def
        self.dtypes = [dtypes.as_dtype(t).as_numpy_dtype
                       for t in ctx.node_def.attr["Toutput_types"].list.type]

    def segment(self):
        return "PaddedBatchV2"

    def elements(self, context, prefix=data_errors.ROOT):
        batch = []
        for element in self.input.elements(context, self.own_prefix(prefix)):
            batch.append(element)
            if len(batch) == self.batch_size:
                yield self._pad(batch)
                batch = []
        if batch and not self.drop_remainder:
            yield self._pad(batch)

    def _pad(self, batch):
        result = []
        for i, (padded, value) in enumerate(zip(self.padded_shapes, self.padding_values)):
            parts = [np.asarray(element[i], self.dtypes[i]) for element in batch]
            for part in parts:
                if part.ndim != len(padded):
                    raise errors.InvalidArgumentError(
                        self.node_def, None,
                        f"All elements in a batch must have the same rank as the padded shape "
                        f"for component{i}: expected rank {len(padded)} but got element with "
                        f"rank {part.ndim}")
            # An unknown (-1) dimension pads to the batch's longest.
            shape = [int(d) if d >= 0 else max(p.shape[axis] for p in parts)
                     for axis, d in enumerate(padded)]
            out = np.full([len(parts)] + shape, value, dtype=self.dtypes[i])
            for row, part in enumerate(parts):
                if any(have > want for have, want in zip(part.shape, shape)):
                    raise errors.DataLossError(
                        self.node_def, None,
                        "Attempted to pad to a smaller size than the input element.")
                out[(row,) + tuple(slice(0, n) for n in part.shape)] = part
            result.append(out)
        return result


class Interleave(FlatMap):
    def __init__(self, input_dataset, func, captured, cycle_length, block_length):
        super().__init__(input_dataset, func, captured)
        self.cycle_length, self.block_length = cycle_length, block_length

    def segment(self):
        return "Interleave"

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        source = self.input.elements(context, own)
        current = [None] * self.cycle_length
        cycle_index = block_index = open_count = 0
        end_of_input = False
        while not end_of_input or open_count > 0:
            if current[cycle_index] is not None:
                element = next(current[cycle_index], None)
                if element is not None:
                    block_index += 1
                    if block_index == self.block_length:
                        cycle_index, block_index = (cycle_index + 1) % self.cycle_length, 0
                    yield element
                    continue
                current[cycle_index] = None
                open_count -= 1
                cycle_index, block_index = (cycle_index + 1) % self.cycle_length, 0
            elif not end_of_input:
                args = next(source, None)
                if args is None:
                    end_of_input = True
                    continue
                (dataset,) = self.call(context, args, own)
                current[cycle_index] = dataset.elements(context, f"{own}[{cycle_index}]")
                open_count += 1
            else:
                cycle_index, block_index = (cycle_index + 1) % self.cycle_length, 0


class Concatenate(Dataset):
    def __init__(self, first, second):
        self.first, self.second = first, second

    def upstream(self):
        return [self.first, self.second]

    def elements(self, context, prefix=data_errors.ROOT):
        own = self.own_prefix(prefix)
        yield from self.first.elements(context, f"{own}[0]")
        yield from self.second.elements(context, f"{own}[1]")


@dataset_kernel("PaddedBatchDatasetV2")
def padded_batch_dataset(ctx, input_dataset, batch_size, *rest):
    count = len(rest) // 2
    padded_shapes, padding_values, drop_remainder = rest[:count], rest[count:-1], rest[-1]
    size = int_scalar(ctx, batch_size, "batch_size")
    if size <= 0:
        raise invalid(ctx, "Batch size must be greater than zero.")
    shapes = []
    for i, shape in enumerate(padded_shapes):
        shape = np.asarray(shape)
        if shape.ndim != 1:
            raise invalid(ctx, f"All padded shapes must be vectors, but component {i} has "
                               f"shape {list(shape.shape)}.")
        shapes.append(shape.astype(np.int64).tolist())
    values = []
    for i, value in enumerate(padding_values):
        value = np.asarray(value)
        if value.ndim != 0:
            raise invalid(ctx, f"All padding values must be scalars, but component {i} has "
                               f"shape {list(value.shape)}.")
        values.append(value.item() if value.dtype != object else value.item())
    return PaddedBatch(_dataset(ctx, input_dataset), size, shapes, values,
                       bool(np.asarray(drop_remainder)), ctx)


@dataset_kernel("InterleaveDataset")
def interleave_dataset(ctx, input_dataset, *rest):
    captured, cycle_length, block_length = list(rest[:-2]), rest[-2], rest[-1]
    cycle = int_scalar(ctx, cycle_length, "cycle_length")
    if cycle == -1:  # AUTOTUNE: TensorFlow takes the machine's parallelism
        cycle = os.cpu_count() or 1
    if cycle <= 0:
        raise invalid(ctx, "cycle_length must be greater than zero.")
    block = int_scalar(ctx, block_length, "block_length")
    if block <= 0:
        raise invalid(ctx, "block_length must be greater than zero.")
    return Interleave(_dataset(ctx, input_dataset), _func(ctx), captured, cycle, block)


@dataset_kernel("ConcatenateDataset")
def concatenate_dataset(ctx, input_dataset, another_dataset):
    return Concatenate(_dataset(ctx, input_dataset), _dataset(ctx, another_dataset))
