"""CPU kernel of StringNGrams (string_ngrams_op.cc): the n-grams of each row of a ragged
string tensor (values split at data_splits), padded as TensorFlow pads them, and the row
splits of the result."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


def _text(value):
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


class _NGrams:
    def __init__(self, ctx):
        self.separator = _text(ctx.attr("separator", b" "))
        self.left_pad = _text(ctx.attr("left_pad", b""))
        self.right_pad = _text(ctx.attr("right_pad", b""))
        self.pad_width = int(ctx.attr("pad_width", -1))
        self.widths = [int(w) for w in ctx.attr("ngram_widths", [])]
        self.preserve_short = bool(ctx.attr("preserve_short_sequences", False))

    def pad_width_for(self, width):
        """Never wider than width - 1; a negative pad_width means width - 1."""
        return min(width - 1 if self.pad_width < 0 else self.pad_width, width - 1)

    def count(self, length, width):
        return max(0, length + 2 * self.pad_width_for(width) - width + 1)

    def create(self, tokens, num_ngrams, width):
        """CreateNgrams: pads, tokens and separators in TensorFlow's order."""
        out = []
        pad = self.pad_width_for(width)
        for index in range(num_ngrams):
            left = max(0, pad - index)
            right = max(0, pad - (num_ngrams - (index + 1)))
            num_tokens = width - (left + right)
            start = 0 if left > 0 else index - pad
            parts = [self.left_pad + self.separator] * left
            parts += [tokens[start + n] + self.separator for n in range(num_tokens - 1)]
            if num_tokens > 0:
                parts.append(tokens[start + num_tokens - 1])
                parts += [self.separator + self.right_pad] * right
            else:
                parts += [self.right_pad + self.separator] * (right - 1) + [self.right_pad]
            out.append(b"".join(parts))
        return out


@register("StringNGrams")
def string_ngrams(ctx, data, data_splits):
    grams = _NGrams(ctx)
    values = [_text(v) for v in np.asarray(data, dtype=object).reshape(-1).tolist()]
    splits = np.asarray(data_splits).reshape(-1).tolist()
    if not splits:
        raise invalid(ctx, "Input data_splits must be at least 1-D")
    for start, end in zip(splits, splits[1:]):
        if not 0 <= start <= end <= len(values):
            raise invalid(ctx, f"Invalid split value {end}")
    out, out_splits = [], [0]
    for start, end in zip(splits, splits[1:]):
        tokens = values[start:end]
        row = []
        for width in grams.widths:
            row += grams.create(tokens, grams.count(len(tokens), width), width)
        if grams.preserve_short and not row and tokens:
            row = grams.create(tokens, 1, len(tokens) + 2 * grams.pad_width)
        out += row
        out_splits.append(out_splits[-1] + len(row))
    result = np.empty(len(out), dtype=object)
    result[:] = out
    return result, np.array(out_splits, dtype=np.asarray(data_splits).dtype)
