"""NumPy's array memory on 64-byte boundaries, as TensorFlow's allocators give every tensor
(Allocator::kAllocatorAlignment), once the compiled kernels are loaded.

NumPy takes its data from malloc: 16-byte boundaries, and page + 16 for the large arrays
glibc maps. A compiled kernel's vector loads then straddle cache lines, and that costs a
memory-bound loop a quarter of its time here: ReluGrad of two 12.8 MB float32 arrays took
0.53-0.55 ms with all three arrays on 64-byte boundaries against 0.68-0.70 on 16 (numba's
AVX-512 loop, medians of 15 alternating samples, 2026-11-28; NumPy's own add of the same
arrays took 0.62-0.64 ms either way). Which boundary an array got changed from one process to
the next, and so did a kernel's time.

NumPy (1.22 on) lets a program name the functions that allocate array data (a
PyDataMem_Handler: NEP 49). The default handler is the default value of the context
variable NumPy reads at each allocation, so pointing that default's capsule at our handler
serves every thread, whatever its context. Our handler:
- allocates 1 KiB or more with aligned_alloc(64, ...), smaller data with malloc;
- zeroes with calloc, as NumPy's default does (a large np.zeros stays lazily zeroed pages,
  untouched until written: those are page + 16, the one kind left unaligned);
- asks the kernel for huge pages from 4 MiB where NumPy's setting does;
- frees with free(). Every block either handler gave is glibc's (NumPy's default takes them
  from malloc and calloc, and keeps small ones in a cache of malloc's blocks), so an array
  allocated before the switch frees correctly after it.
The functions are numba cfuncs calling libc by name (allocator_numba.py). Where any of this is missing (another
libc, NumPy without handlers, a handler layout we do not know) nothing changes: `install`
says why in `why_not`.
"""

import ctypes
import os

from engine.runtime import host_memory

# PyDataMem_GetHandler's place in NumPy's C-API table (stable since NumPy 1.22), and
# PyDataMem_DefaultHandler's.
_GET_HANDLER, _DEFAULT_HANDLER = 305, 306
_NAME = b"graph_inspector_aligned_64"

_installed = False
_why_not = ""
_keep = []  # what the handler's memory and pointers live in: never freed


class _Allocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("malloc", ctypes.c_void_p),
                ("calloc", ctypes.c_void_p), ("realloc", ctypes.c_void_p),
                ("free", ctypes.c_void_p)]


class _Handler(ctypes.Structure):  # PyDataMem_Handler (numpy/ndarraytypes.h), version 1
    _fields_ = [("name", ctypes.c_char * 127), ("version", ctypes.c_uint8),
                ("allocator", _Allocator)]


def installed():
    return _installed


def why_not():
    return _why_not


def _libc_function(library, name, restype, argtypes):
    function = getattr(library, name)
    function.restype, function.argtypes = restype, argtypes
    return function


def _multiarray():
    """NumPy's multiarray module: its C-API table (_ARRAY_API) and huge-page setting."""
    try:
        from numpy._core import multiarray
    except ImportError:  # NumPy 1
        from numpy.core import multiarray
    return multiarray


def _numpy_asks_for_huge_pages():
    multiarray = _multiarray()
    setting = multiarray._set_madvise_hugepage(True)
    multiarray._set_madvise_hugepage(setting)
    return bool(setting)


def install():
    """Point NumPy's default allocation handler at the aligned one; True once it is."""
    global _installed, _why_not
    if _installed:
        return True
    if os.environ.get("GRAPH_INSPECTOR_ALIGNED_MEMORY", "1").lower() in ("0", "off", "no"):
        _why_not = "GRAPH_INSPECTOR_ALIGNED_MEMORY is off"
        return False
    if host_memory.glibc() is None:
        _why_not = "the C library is not glibc (aligned_alloc, malloc_usable_size)"
        return False
    try:
        api = ctypes.pythonapi
        get_pointer = _libc_function(api, "PyCapsule_GetPointer", ctypes.c_void_p,
                                     [ctypes.py_object, ctypes.c_char_p])
        set_pointer = _libc_function(api, "PyCapsule_SetPointer", ctypes.c_int,
                                     [ctypes.py_object, ctypes.c_void_p])
        table = ctypes.cast(get_pointer(_multiarray()._ARRAY_API, None),
                            ctypes.POINTER(ctypes.c_void_p))
        default_capsule = ctypes.cast(table[_DEFAULT_HANDLER],
                                      ctypes.POINTER(ctypes.py_object))[0]
        current = ctypes.PYFUNCTYPE(ctypes.py_object)(table[_GET_HANDLER])()
        if current is not default_capsule:
            _why_not = "this context has a NumPy allocation handler of its own already"
            return False
        default = _Handler.from_address(get_pointer(default_capsule, b"mem_handler"))
        if default.version != 1 or default.name != b"default_allocator":
            _why_not = f"NumPy's default handler is {default.name!r} version {default.version}"
            return False
        from engine.kernels.compiled import allocator_numba
        functions = allocator_numba.FUNCTIONS
        # (the context each function is given: whether to ask for huge pages, as NumPy does)
        ours = _Handler(_NAME, 1, _Allocator(int(_numpy_asks_for_huge_pages()),
                                             *(function.address for function in functions)))
        _keep.extend((ours, functions, default_capsule))
        if set_pointer(default_capsule, ctypes.addressof(ours)) != 0:
            _why_not = "PyCapsule_SetPointer refused NumPy's default handler"
            return False
    except Exception as error:  # noqa: BLE001  (anything missing: NumPy's allocation as it was)
        _why_not = f"{type(error).__name__}: {error}"
        return False
    _installed = True
    return True


def warm():
    install()
