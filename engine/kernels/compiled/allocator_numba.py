"""The aligned NumPy allocation handler's functions (aligned_memory.py says what they do and
why): numba cfuncs calling libc by name, so that numba caches them (a function holding a
ctypes pointer, or a closure, is compiled anew in every process: 0.3 s)."""

import numba
from numba import types

ALIGNMENT = 64  # TensorFlow's Allocator::kAllocatorAlignment
# Below this, malloc serves: its 16-byte boundaries cost small arrays nothing measurable.
SMALL_BYTES = 1024
# NumPy's default handler asks for huge pages from this size (alloc.c, indicate_hugepages).
HUGE_PAGE_BYTES = 1 << 22
_MADV_HUGEPAGE = 14

_word = types.uintp  # pointers travel as integers: numba compares and adds those
_aligned_alloc = types.ExternalFunction("aligned_alloc", _word(_word, _word))
_malloc = types.ExternalFunction("malloc", _word(_word))
_calloc = types.ExternalFunction("calloc", _word(_word, _word))
_realloc = types.ExternalFunction("realloc", _word(_word, _word))
_free = types.ExternalFunction("free", types.void(_word))
_usable_size = types.ExternalFunction("malloc_usable_size", _word(_word))
_memcpy = types.ExternalFunction("memcpy", _word(_word, _word, _word))
_madvise = types.ExternalFunction("madvise", types.intc(_word, _word, types.intc))


@numba.njit(types.void(_word, _word), cache=True, nogil=True)
def _huge_pages(pointer, size):
    if size >= HUGE_PAGE_BYTES and pointer != 0:
        offset = 4096 - pointer % 4096  # as NumPy's default: from the next page on
        _madvise(pointer + offset, size - offset, _MADV_HUGEPAGE)


@numba.njit(_word(_word), cache=True, nogil=True)
def _aligned(size):
    return _aligned_alloc(ALIGNMENT, (size + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT)


# Each function's ctx says whether to ask for huge pages (NumPy's setting when installed).

@numba.cfunc(_word(_word, _word), cache=True, nopython=True)
def handler_malloc(ctx, size):
    if size < SMALL_BYTES:
        return _malloc(size)
    pointer = _aligned(size)
    if ctx != 0:
        _huge_pages(pointer, size)
    return pointer


@numba.cfunc(_word(_word, _word, _word), cache=True, nopython=True)
def handler_calloc(ctx, count, size):
    pointer = _calloc(count, size)
    if ctx != 0:
        _huge_pages(pointer, count * size)
    return pointer


@numba.cfunc(_word(_word, _word, _word), cache=True, nopython=True)
def handler_realloc(ctx, pointer, size):
    if size < SMALL_BYTES:
        return _realloc(pointer, size)
    moved = _aligned(size)
    if moved != 0 and pointer != 0:  # (on failure the old block stays, as realloc's)
        old = _usable_size(pointer)
        _memcpy(moved, pointer, old if old < size else size)
        _free(pointer)
    if ctx != 0:
        _huge_pages(moved, size)
    return moved


@numba.cfunc(types.void(_word, _word, _word), cache=True, nopython=True)
def handler_free(ctx, pointer, size):
    _free(pointer)


FUNCTIONS = (handler_malloc, handler_calloc, handler_realloc, handler_free)
