"""PNG as TensorFlow's png_io.cc reads and writes it through libpng, in NumPy and zlib.

Decoding: the chunks, the inflated rows unfiltered (Adam7 passes too), then libpng's
transformations in the order png_do_read_transformations applies those TensorFlow asks for
(palette and tRNS expansion, alpha stripped, rgb_to_gray with 0.299/0.587 in libpng's 15-bit
fixed point, 16 bits stripped to their high byte, gray to RGB, the alpha filler; 8 bits made
16 as v * 257). Encoding: libpng's row filter heuristic (the least sum of |signed byte| over
None, Sub, Up, Average, Paeth, the first of equals), zlib with libpng's settings (the level,
memLevel 9, Z_FILTERED, the window shrunk to the data as png_deflate_claim does) and IDAT
chunks of libpng's 8192-byte buffer: TensorFlow's bytes (level 0's stored blocks
excepted: zlib sizes them to libpng's output buffer, which is not reproduced here).
"""

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
INIT_FAILED = "Invalid PNG. Failed to initialize decoder."


class CodecError(Exception):
    """A PNG libpng would refuse; `during_rows` tells the reading of rows (TensorFlow's
    "Invalid PNG data, size N") from the header's ("Failed to initialize decoder")."""

    def __init__(self, during_rows):
        super().__init__("during rows" if during_rows else "header")
        self.during_rows = during_rows


_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_ADAM7 = ((0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2),
          (1, 0, 2, 1))  # (row start, column start, row step, column step)


def _chunks(data, until_idat=False):
    """[(type, payload)] up to IEND (up to the first IDAT, as png_read_info reads them, when
    `until_idat`), each chunk's CRC checked; CodecError(during_rows) for a broken one from
    the first IDAT on."""
    if not data.startswith(SIGNATURE):
        raise CodecError(False)
    chunks, at, seen_idat = [], len(SIGNATURE), False
    while True:
        if at + 8 > len(data):
            raise CodecError(seen_idat)
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 8 + length
        # png_read_info stops at the first IDAT's length and type: the rest is read with rows.
        seen_idat = seen_idat or kind == b"IDAT"
        if seen_idat and until_idat:
            return chunks
        if length > 0x7FFFFFFF or end + 4 > len(data):
            raise CodecError(seen_idat)
        payload = data[at + 8:end]
        if zlib.crc32(kind + payload) != struct.unpack(">I", data[end:end + 4])[0]:
            if kind[:1].isupper():  # a critical chunk: libpng's error; others are dropped
                raise CodecError(seen_idat)
        else:
            chunks.append((kind, payload))
        at = end + 4
        if kind == b"IEND":
            return chunks


def _header(chunks):
    if not chunks or chunks[0][0] != b"IHDR" or len(chunks[0][1]) != 13:
        raise CodecError(False)
    width, height, depth, color, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", chunks[0][1])
    valid_depths = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
    if (color not in valid_depths or depth not in valid_depths[color] or compression
            or filtering or interlace > 1 or not 0 < width < 1 << 31
            or not 0 < height < 1 << 31):
        raise CodecError(False)
    return width, height, depth, color, interlace


def info(data):
    """(width, height, bit depth, colour type, channels as decoded with channels=0)."""
    chunks = _chunks(data, until_idat=True)
    width, height, depth, color, _ = _header(chunks)
    has_trns = any(kind == b"tRNS" for kind, _ in chunks)
    if color == 3:
        return width, height, depth, color, 4 if has_trns else 3
    return width, height, depth, color, _CHANNELS[color]


def _unfilter(raw, rows, row_bytes, bpp):
    """The filtered rows (each a filter byte and row_bytes) as [rows, row_bytes] uint8."""
    out = np.zeros((rows + 1, row_bytes), np.uint8)  # row 0: the zero row above the first
    stream = np.frombuffer(raw, np.uint8)
    for r in range(rows):
        line = stream[r * (row_bytes + 1):(r + 1) * (row_bytes + 1)]
        kind, x = int(line[0]), line[1:].astype(np.int64)
        up = out[r].astype(np.int64)
        if kind == 0:
            result = x
        elif kind == 1:
            result = _running_sum(x, bpp)
        elif kind == 2:
            result = x + up
        elif kind in (3, 4):
            result = _sequential(x, up, bpp, kind)
        else:
            raise CodecError(True)
        out[r + 1] = (result & 0xFF).astype(np.uint8)
    return out[1:]


def _running_sum(x, bpp):
    padded = np.zeros(-(-x.size // bpp) * bpp, np.int64)
    padded[:x.size] = x
    return np.cumsum(padded.reshape(-1, bpp), axis=0).reshape(-1)[:x.size]


def _sequential(x, up, bpp, kind):
    """Average (3) and Paeth (4): each byte needs the decoded byte bpp before it (plain
    Python on bytes: several times faster than NumPy on a pixel at a time)."""
    raw, above = x.tolist(), up.tolist()
    out = [0] * len(raw)
    for i, value in enumerate(raw):
        a = out[i - bpp] if i >= bpp else 0
        b = above[i]
        if kind == 3:
            out[i] = (value + ((a + b) >> 1)) & 0xFF
            continue
        c = above[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        out[i] = (value + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return np.array(out, np.int64)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _samples(rows, width, depth, channels):
    """Unfiltered rows as [height, width, channels] samples (uint8 or uint16)."""
    if depth == 16:
        return rows.view(">u2")[:, :width * channels].astype(np.uint16).reshape(
            rows.shape[0], width, channels)
    if depth == 8:
        return rows[:, :width * channels].reshape(rows.shape[0], width, channels)
    bits = np.unpackbits(rows, axis=1)[:, :width * depth].reshape(rows.shape[0], width, depth)
    weights = (1 << np.arange(depth - 1, -1, -1)).astype(np.uint8)
    return (bits * weights).sum(axis=2, dtype=np.uint8)[..., None]


def _pixels(chunks, width, height, depth, color, interlace):
    """The image's samples [height, width, channels] as stored (palette indices for colour
    type 3), or CodecError(during_rows=True)."""
    channels = _CHANNELS[color]
    bits_per_pixel = depth * channels
    bpp = max(1, bits_per_pixel // 8)
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    needed = sum(len(range(r0, height, rs)) * ((len(range(c0, width, cs)) * bits_per_pixel + 7)
                                               // 8 + 1)
                 for r0, c0, rs, cs in passes if len(range(c0, width, cs)))
    try:
        # Inflated no further than the rows need, as libpng reads them (no zlib bomb).
        raw = zlib.decompressobj().decompress(
            b"".join(payload for kind, payload in chunks if kind == b"IDAT"), needed)
    except zlib.error:
        raise CodecError(True) from None
    image = np.zeros((height, width, channels), np.uint16 if depth == 16 else np.uint8)
    at = 0
    for row0, col0, row_step, col_step in passes:
        rows = len(range(row0, height, row_step))
        cols = len(range(col0, width, col_step))
        if not rows or not cols:
            continue
        row_bytes = (cols * bits_per_pixel + 7) // 8
        size = rows * (row_bytes + 1)
        if at + size > len(raw):
            raise CodecError(True)  # libpng: "Not enough image data"
        unfiltered = _unfilter(raw[at:at + size], rows, row_bytes, bpp)
        at += size
        image[row0::row_step, col0::col_step] = _samples(unfiltered, cols, depth, channels)
    return image


_RED, _GREEN = 29900 * 32768 // 100000, 58700 * 32768 // 100000  # png_set_rgb_to_gray_fixed
_BLUE = 32768 - _RED - _GREEN


def decode(data, channels=0, bits=8):
    """The [height, width, channels] uint8 (bits 8) or uint16 (bits 16) image."""
    chunks = _chunks(data)
    width, height, depth, color, interlace = _header(chunks)
    palette = next((p for kind, p in chunks if kind == b"PLTE"), None)
    trns = next((p for kind, p in chunks if kind == b"tRNS"), None)
    if color == 3 and (palette is None or len(palette) % 3 or not palette):
        raise CodecError(False)
    if channels == 0:
        channels = (4 if trns is not None else 3) if color == 3 else _CHANNELS[color]
    if width * height >= 1 << 29 or width >= 1 << 27 or height >= 1 << 27:
        raise CodecError(False)
    pixels = _pixels(chunks, width, height, depth, color, interlace).astype(np.int64)
    filler_depth = depth  # png_set_add_alpha's filler: (1 << the file's bit depth) - 1
    alpha = None
    # Expansion: palette to RGB(A), gray below 8 bits to 8, tRNS to alpha.
    if color == 3:
        table = np.frombuffer(palette, np.uint8).reshape(-1, 3).astype(np.int64)
        index = pixels[..., 0]
        if index.max(initial=0) >= len(table):
            table = np.concatenate([table, np.zeros((256 - len(table), 3), np.int64)])
        values = table[index]
        if trns is not None:
            alphas = np.full(256, 255, np.int64)
            alphas[:len(trns)] = np.frombuffer(trns[:256], np.uint8)
            alpha = alphas[index]
        depth, color_channels = 8, values
    else:
        color_channels = pixels[..., :3] if color in (2, 6) else pixels[..., :1]
        if color in (4, 6):
            alpha = pixels[..., -1]
        elif trns is not None:
            key = np.frombuffer(trns, ">u2").astype(np.int64)[:color_channels.shape[-1]]
            if key.size == color_channels.shape[-1]:
                top = (1 << depth) - 1
                alpha = np.where((color_channels == key).all(-1), 0, top)
        if depth < 8:
            scale = 255 // ((1 << depth) - 1)
            color_channels = color_channels * scale
            alpha = None if alpha is None else alpha * scale
            depth = 8
    want_alpha = channels % 2 == 0
    if not want_alpha:
        alpha = None
    # rgb_to_gray (before 16 bits are stripped, as libpng orders them).
    if channels < 3 and color_channels.shape[-1] == 3:
        red, green, blue = (color_channels[..., i] for i in range(3))
        rounding = 16384 if depth == 16 else 0
        gray = (_RED * red + _GREEN * green + _BLUE * blue + rounding) >> 15
        same = (red == green) & (red == blue)
        color_channels = np.where(same, red, gray)[..., None]
    if depth == 16 and bits == 8:
        color_channels = color_channels >> 8
        alpha = None if alpha is None else alpha >> 8
    if channels >= 3 and color_channels.shape[-1] == 1:
        color_channels = np.repeat(color_channels, 3, axis=-1)
    if want_alpha and alpha is None:
        filler = (1 << filler_depth) - 1
        alpha = np.full(color_channels.shape[:2], filler if bits == 16 and depth == 16
                        else filler & 0xFF, np.int64)
    out = color_channels if alpha is None else np.concatenate(
        [color_channels, alpha[..., None]], axis=-1)
    if bits == 16:
        if depth <= 8:
            out = out * 257
        return out.astype(np.uint16)
    return out.astype(np.uint8)


# --- encoding ---

def _choose_filters(rows, bpp):
    """libpng's png_write_find_filter over all rows: (filter types, filtered rows)."""
    raw = rows.astype(np.int64)
    above = np.concatenate([np.zeros_like(raw[:1]), raw[:-1]])
    left = np.concatenate([np.zeros_like(raw[:, :bpp]), raw[:, :-bpp]], axis=1)
    upper_left = np.concatenate([np.zeros_like(above[:, :bpp]), above[:, :-bpp]], axis=1)
    candidates = np.stack([raw, raw - left, raw - above, raw - ((left + above) >> 1),
                           raw - _paeth(left, above, upper_left)]) & 0xFF
    costs = np.minimum(candidates, 256 - candidates).sum(axis=2)
    kinds = np.argmin(costs, axis=0)  # the first of equal sums, as libpng's strict "<"
    filtered = candidates[kinds, np.arange(raw.shape[0])]
    return kinds, filtered.astype(np.uint8)


def _window_bits(data_size):
    """png_deflate_claim's windowBits for `data_size` bytes of filtered rows."""
    bits = 15
    if data_size <= 16384:
        half_window = 1 << (bits - 1)
        while data_size + 262 <= half_window:
            half_window >>= 1
            bits -= 1
    return max(bits, 9)  # zlib takes 8 as 9


def _optimize_cmf(compressed, data_size):
    """libpng's optimize_cmf: the zlib header's window shrunk to the data's size (the stream
    never reaches further back), its check bits made anew."""
    cmf, flags = compressed[0], compressed[1]
    if data_size > 16384 or cmf & 0x0F != 8 or cmf & 0xF0 > 0x70:
        return compressed
    cinfo = cmf >> 4
    half_window = 1 << (cinfo + 7)
    if data_size > half_window:
        return compressed
    while True:
        half_window >>= 1
        cinfo -= 1
        if not (cinfo > 0 and data_size <= half_window):
            break
    cmf = (cmf & 0x0F) | (cinfo << 4)
    flags &= 0xE0
    flags += 0x1F - ((cmf << 8) + flags) % 0x1F
    return bytes([cmf, flags]) + compressed[2:]


def _chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload)))


def encode(pixels, compression=-1):
    """png::WriteImageToBuffer of [height, width, channels] uint8 or uint16 pixels."""
    height, width, channels = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    color = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    rows = np.ascontiguousarray(pixels.astype(">u2") if depth == 16 else pixels)
    rows = rows.view(np.uint8).reshape(height, width * channels * depth // 8)
    kinds, filtered = _choose_filters(rows, channels * depth // 8)
    stream = np.concatenate([kinds.astype(np.uint8)[:, None], filtered], axis=1).tobytes()
    level = 6 if compression < 0 else compression
    compressor = zlib.compressobj(level, zlib.DEFLATED, _window_bits(len(stream)), 9,
                                  zlib.Z_FILTERED)
    compressed = _optimize_cmf(compressor.compress(stream) + compressor.flush(), len(stream))
    header = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0)
    idat = b"".join(_chunk(b"IDAT", compressed[i:i + 8192])
                    for i in range(0, len(compressed), 8192))
    return SIGNATURE + _chunk(b"IHDR", header) + idat + _chunk(b"IEND", b"")
