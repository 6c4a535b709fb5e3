"""A .npy file read as a feed: its header checked against the file before anything is read.

np.load allocates the array its header declares before it reads a byte of data, so a 100-byte
file declaring 10^13 elements is a MemoryError (or, with overcommit, gigabytes mapped) and a
truncated one reads as far as it can. Here the header is parsed first (NumPy's own parser:
a literal, never code), the declared size is checked against the bytes that follow it, and
object arrays (pickles) are never loaded.
"""

import os

import numpy as np
from numpy.lib import format as npy_format


def read_npy(file):
    """The array in an open .npy file; ValueError saying what is wrong with it."""
    try:
        version = npy_format.read_magic(file)
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"unknown .npy version {version[0]}.{version[1]}")
        # 3.0 is 2.0 with a UTF-8 header (it differs only for non-ASCII field names).
        read_header = npy_format.read_array_header_1_0 if version == (1, 0) \
            else npy_format.read_array_header_2_0
        shape, fortran_order, dtype = read_header(file)
    except (ValueError, EOFError, SyntaxError, TypeError) as error:  # cut short, not a literal
        raise ValueError(f"a damaged .npy header ({error})") from None
    if any(dim < 0 for dim in shape):
        raise ValueError(f"its .npy header declares a negative dimension: {shape}")
    if dtype.hasobject:
        raise ValueError("a .npy array of Python objects (a pickle): never loaded")
    count = int(np.prod(shape, dtype=object))
    needed = count * dtype.itemsize
    held = os.fstat(file.fileno()).st_size - file.tell()
    if needed != held:
        shape_text = "x".join(str(d) for d in shape) or "scalar"
        raise ValueError(f"its .npy header declares {shape_text} {dtype} ({needed} bytes), the "
                         f"file holds {held} bytes after the header"
                         + (" (truncated?)" if needed > held else ""))
    data = np.frombuffer(bytearray(file.read(needed)), dtype=dtype, count=count)  # writable, as np.load's
    return data.reshape(shape, order="F" if fortran_order else "C")

