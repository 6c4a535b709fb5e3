"""The CPU kernel of OptionsDataset (Dataset.with_options): its input's elements. TensorFlow's
options steer its threads and graph rewrites, which the engine does not make; the dataset
adds nothing to an iterator's prefix, as TensorFlow's OptionsDataset passes its prefix on."""

from engine.kernels.cpu import data_errors
from engine.kernels.cpu.data import Dataset, _dataset, dataset_kernel


class WithOptions(Dataset):
    eliminated = True   # no "::Options" segment in an iterator's prefix

    def __init__(self, input_dataset, serialized_options):
        self.input = input_dataset
        self.serialized_options = serialized_options

    def is_async(self):
        return self.input.is_async()

    def elements(self, context, prefix=data_errors.ROOT):
        yield from self.input.elements(context, prefix)


@dataset_kernel("OptionsDataset")
def options_dataset(ctx, input_dataset):
    return WithOptions(_dataset(ctx, input_dataset), ctx.attr("serialized_options", b""))
