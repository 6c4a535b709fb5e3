"""GIF as TensorFlow's gif_io.cc reads it through giflib's DGifSlurp, in Python and NumPy:
the blocks, LZW-coded frames (interlaced rows put in place as DGifSlurp does), and the frames
drawn on a canvas of the largest frame's size (not the logical screen's) as gif_io.cc draws
them: the first frame on black, each later one on the
frame before, its transparent colour index leaving the pixel as it was (no disposal
methods, as TensorFlow has none). A file cut inside a later frame gives the frames before it,
as TensorFlow 2.21 does."""

import numpy as np


class CodecError(Exception):
    """What gif_io.cc reports: "failed to slurp gif file: <giflib's words>", ..."""


_READ_FAILED = "failed to slurp gif file: Failed to read from given file"
_IMAGE_DEFECT = "failed to slurp gif file: Image is defective, decoding aborted"
_WRONG_RECORD = "failed to slurp gif file: Wrong record type detected"


class _Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, count, error=_READ_FAILED):
        if self.at + count > len(self.data):
            raise CodecError(error)
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def byte(self):
        return self.take(1)[0]

    def word(self):
        low, high = self.take(2)
        return low | high << 8

    def sub_blocks(self):
        parts = []
        while True:
            size = self.byte()
            if size == 0:
                return b"".join(parts)
            parts.append(self.take(size))


def _color_table(reader, packed):
    return np.frombuffer(reader.take(3 * (2 << (packed & 7))), np.uint8).reshape(-1, 3)


def _lzw(data, min_code_size, pixel_count):
    """The colour indices of one frame (giflib's decoder: codes up to 12 bits, a full table
    kept until the next clear code)."""
    if not 2 <= min_code_size <= 8:
        raise CodecError(_IMAGE_DEFECT)
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    out = bytearray()
    prefixes = [b""] * 4096
    for code in range(clear):
        prefixes[code] = bytes([code])
    size, next_code, previous = min_code_size + 1, end + 1, None
    bits = bit_count = 0
    for value in data:
        bits |= value << bit_count
        bit_count += 8
        while bit_count >= size:
            code = bits & ((1 << size) - 1)
            bits >>= size
            bit_count -= size
            if code == clear:
                size, next_code, previous = min_code_size + 1, end + 1, None
                continue
            if code == end:
                return _complete(out, pixel_count)
            if previous is None:
                if code >= clear:
                    raise CodecError(_IMAGE_DEFECT)
                entry = prefixes[code]
            elif code < next_code:
                entry = prefixes[code]
                if next_code < 4096:
                    prefixes[next_code] = previous + entry[:1]
                    next_code += 1
            elif code == next_code and next_code < 4096:
                entry = previous + previous[:1]
                prefixes[next_code] = entry
                next_code += 1
            else:
                raise CodecError(_IMAGE_DEFECT)
            out += entry
            previous = entry
            if next_code == 1 << size and size < 12:
                size += 1
            if len(out) >= pixel_count:
                return _complete(out, pixel_count)
    return _complete(out, pixel_count)


def _complete(out, pixel_count):
    if len(out) < pixel_count:
        raise CodecError(_READ_FAILED)
    return np.frombuffer(bytes(out[:pixel_count]), np.uint8)


def _deinterlace(indices, height, width):
    rows = indices.reshape(height, width)
    order = [r for start, step in ((0, 8), (4, 8), (2, 4), (1, 2))
             for r in range(start, height, step)]
    out = np.empty_like(rows)
    out[order] = rows
    return out


def _frames(data):
    """(canvas width, height, [(left, top, width, height, indices [h, w], colour table,
    transparent index or None)])."""
    reader = _Reader(data)
    if reader.take(6, "failed to open gif file: Data is not in GIF format")[:4] != b"GIF8":
        raise CodecError("failed to open gif file: Data is not in GIF format")
    width, height = reader.word(), reader.word()
    packed = reader.byte()
    reader.take(2)
    global_table = _color_table(reader, packed) if packed & 0x80 else None
    frames = []
    try:
        _read_blocks(reader, global_table, frames)
    except CodecError:
        if not frames:
            raise  # a file cut after a whole frame gives the frames before (measured)
    return width, height, global_table, frames


def _read_blocks(reader, global_table, frames):
    transparent = None
    while True:
        kind = reader.byte()
        if kind == 0x3B:
            return
        if kind == 0x21:
            label = reader.byte()
            body = reader.sub_blocks()
            if label == 0xF9 and len(body) >= 4:
                transparent = body[3] if body[0] & 1 else None
        elif kind == 0x2C:
            left, top, w, h = reader.word(), reader.word(), reader.word(), reader.word()
            packed = reader.byte()
            table = _color_table(reader, packed) if packed & 0x80 else global_table
            min_code_size = reader.byte()
            indices = _lzw(reader.sub_blocks(), min_code_size, w * h)
            indices = (_deinterlace(indices, h, w) if packed & 0x40
                       else indices.reshape(h, w))
            frames.append((left, top, w, h, indices, table, transparent))
            transparent = None
        else:
            raise CodecError(_WRONG_RECORD)


def decode(data, expand_animations=True):
    """[frames, height, width, 3] uint8 (one frame unless expand_animations), or
    CodecError with gif_io.cc's words."""
    _, _, _, frames = _frames(data)
    if not frames:
        raise CodecError("gif file does not contain any image")
    # gif_io.cc sizes the output by the largest frame, not the logical screen (measured).
    width = max(frame[2] for frame in frames)
    height = max(frame[3] for frame in frames)
    count = len(frames) if expand_animations else 1
    canvas = np.zeros((count, height, width, 3), np.uint8)
    for k, (left, top, w, h, indices, table, transparent) in enumerate(frames[:count]):
        if k:
            canvas[k] = canvas[k - 1]
        if table is None:
            raise CodecError("missing color map")
        y0, x0 = max(top, 0), max(left, 0)
        y1, x1 = min(top + h, height), min(left + w, width)
        if y1 <= y0 or x1 <= x0:
            continue
        window = indices[y0 - top:y1 - top, x0 - left:x1 - left]
        drawn = window != transparent if transparent is not None else np.ones_like(window,
                                                                                   bool)
        outside = drawn & (window >= len(table))
        if outside.any():
            raise CodecError(f"found color index {int(window[outside][0])} outside of "
                             f"color map range {len(table)}")
        region = canvas[k, y0:y1, x0:x1]
        region[drawn] = table[window[drawn]]
    return canvas
