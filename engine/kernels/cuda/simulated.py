"""A simulated GPU: NumPy computing behind CuPy's API, with CuPy's host/device boundary.

`SimulatedCuPy(n)` stands where the `cupy` module would. It offers exactly the names of
CuPy's API (cupy_api.json, read off a real CuPy by tools/extract_cupy_api.py), and its arrays
(`ndarray` here) behave as CuPy's do at the boundary that matters for correctness:
- NumPy cannot take them implicitly: `np.asarray(device_array)` raises CuPy's TypeError, so
  a kernel that forgets to copy to the host fails here as it would on a GPU;
- functions and operators refuse host NumPy arrays (CuPy's "Unsupported type"), except the
  constructors (`asarray`, `array`, ...) that copy host memory to the device;
- reductions give 0-d device arrays, not NumPy scalars; `.get()` / `asnumpy()` copy back.
The memory pool counts the bytes of live device arrays (used) and its high-water mark
(total, as CuPy's pool keeps freed blocks); CUDA events read the host clock.
What it cannot tell: CuPy's exact keyword arguments and dtype rules, kernels' speed.
"""

import json
import os
import threading
import time
import types
import weakref

import numpy as np

_API = json.load(open(os.path.join(os.path.dirname(__file__), "cupy_api.json")))
_CUPY_NAMES = frozenset(_API["cupy"])
_NDARRAY_NAMES = frozenset(_API["cupy.ndarray"])
# Constructors copy host memory to the device; every other function refuses host arrays.
_FROM_HOST = frozenset({"asarray", "array", "asanyarray", "ascontiguousarray",
                        "asfortranarray"})
_IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
             "construct a NumPy array explicitly.")


class _MemoryPool:
    """CuPy's MemoryPool as far as the engine reads it: bytes in use and held."""

    def __init__(self):
        self._lock = threading.Lock()
        self._used = self._total = 0

    def _allocated(self, owner, nbytes):
        with self._lock:
            self._used += nbytes
            self._total = max(self._total, self._used)
        weakref.finalize(owner, self._freed, nbytes)

    def _freed(self, nbytes):
        with self._lock:
            self._used -= nbytes

    def used_bytes(self):
        return self._used

    def total_bytes(self):
        return self._total

    def free_bytes(self):
        return self._total - self._used

    def free_all_blocks(self, stream=None):
        with self._lock:
            self._total = self._used

    def n_free_blocks(self):
        return 0


_POOL = _MemoryPool()


class ndarray:  # noqa: N801  (CuPy's name)
    """A device array: a NumPy array that only the simulated GPU's functions may touch."""

    __slots__ = ("_host", "__weakref__")
    __array_priority__ = 100

    def __init__(self, host, _owner=True):
        self._host = host
        if _owner and host.base is None and host.nbytes:
            _POOL._allocated(self, host.nbytes)

    # The host/device boundary ------------------------------------------------------------------

    def get(self, stream=None, order="C", out=None, blocking=True):
        return np.array(self._host, copy=True)

    def __array__(self, *args, **kwargs):
        raise TypeError(_IMPLICIT)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc.__name__ not in _CUPY_NAMES or method != "__call__":
            return NotImplemented
        return _call(getattr(ufunc, method), inputs, kwargs, ufunc.__name__)

    def __array_function__(self, func, types_, args, kwargs):
        if func.__name__ not in _CUPY_NAMES:
            return NotImplemented
        return _call(func, args, kwargs, func.__name__)

    # Attributes and methods: CuPy's names only ------------------------------------------------

    def __getattr__(self, name):
        if name not in _NDARRAY_NAMES or name.startswith("__"):
            raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")
        value = getattr(self._host, name)
        if callable(value):
            return _method(self, value, f"ndarray.{name}")
        return _to_device(value, (self,), (self._host,))

    @property
    def shape(self):
        return self._host.shape

    @property
    def dtype(self):
        return self._host.dtype

    @property
    def ndim(self):
        return self._host.ndim

    @property
    def size(self):
        return self._host.size

    @property
    def nbytes(self):
        return self._host.nbytes

    @property
    def device(self):
        return _Device(0)

    def __len__(self):
        return len(self._host)

    def __iter__(self):
        for i in range(len(self._host)):
            yield self[i]

    def __getitem__(self, index):
        return _call(_getitem, (self, index), {}, "ndarray.__getitem__")

    def __setitem__(self, index, value):
        host_index = _unwrap(index, "ndarray.__setitem__")
        self._host[host_index] = _unwrap(value, "ndarray.__setitem__", allow_host=True)

    def _scalar(self, convert):
        if self._host.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return convert(self._host.reshape(()))

    def __bool__(self):
        return self._scalar(bool)

    def __int__(self):
        return self._scalar(int)

    def __float__(self):
        return self._scalar(float)

    def __index__(self):
        return self._scalar(lambda a: a.__index__())

    def __repr__(self):
        return repr(self._host).replace("array(", "simulated_gpu_array(", 1)

    __hash__ = None

    def __copy__(self):
        return ndarray(self._host.copy())

    def __deepcopy__(self, memo):
        return ndarray(self._host.copy())


def _method(array, bound, name):
    def call(*args, **kwargs):
        wrappers = [array] + [a for a in args if isinstance(a, ndarray)]
        result = bound(*[_unwrap(a, name) for a in args],
                       **{k: _unwrap(v, name) for k, v in kwargs.items()})
        return _to_device(result, wrappers, [w._host for w in wrappers])
    return call


def _getitem(host, index):
    return host[index]


def _operator(name):
    method = getattr(np.ndarray, name)

    def apply(self, *args):
        return _call(method, (self,) + args, {}, f"ndarray.{name}")
    apply.__name__ = name
    return apply


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor", "lshift", "rshift"):
    for _form in ("__{}__", "__r{}__", "__i{}__"):
        setattr(ndarray, _form.format(_name), _operator(_form.format(_name)))
for _name in ("__neg__", "__pos__", "__abs__", "__invert__", "__lt__", "__le__", "__gt__",
              "__ge__", "__eq__", "__ne__"):
    setattr(ndarray, _name, _operator(_name))


# Moving values across the boundary -----------------------------------------------------------

def _unwrap(value, name, allow_host=False):
    if isinstance(value, ndarray):
        return value._host
    if isinstance(value, np.ndarray):
        if allow_host:
            return value
        raise TypeError(f"Unsupported type {type(value)} (simulated GPU: {name} was given a "
                        "host NumPy array; copy it to the device with asarray first)")
    if isinstance(value, (list, tuple)):
        items = [_unwrap(v, name, allow_host) for v in value]
        return type(value)(items) if isinstance(value, list) or type(value) is tuple else items
    if isinstance(value, slice):
        return slice(_unwrap(value.start, name), _unwrap(value.stop, name),
                     _unwrap(value.step, name))
    return value


def _to_device(result, inputs=(), hosts=()):
    if isinstance(result, np.ndarray):
        for wrapper, host in zip(inputs, hosts):  # an input handed back: the same array
            if result is host:
                return wrapper
        return ndarray(result, _owner=result.base is None)
    if isinstance(result, np.generic):
        return ndarray(np.asarray(result))
    if isinstance(result, tuple):
        return tuple(_to_device(r, inputs, hosts) for r in result)
    if isinstance(result, list):
        return [_to_device(r, inputs, hosts) for r in result]
    return result


def _call(fn, args, kwargs, name, allow_host=False):
    host_args = [_unwrap(a, name, allow_host) for a in args]
    host_kwargs = {k: _unwrap(v, name, allow_host) for k, v in kwargs.items()}
    wrappers = [a for a in args if isinstance(a, ndarray)]
    result = fn(*host_args, **host_kwargs)
    return _to_device(result, wrappers, [w._host for w in wrappers])


# The module and its namespaces -----------------------------------------------------------------

class _Event:
    """cupy.cuda.Event: a point in time on the (host) clock."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self.ns = None

    def record(self, stream=None):
        self.ns = time.perf_counter_ns()

    def synchronize(self):
        pass

    @property
    def done(self):
        return True


def _elapsed_time(start, end):
    return (end.ns - start.ns) / 1e6  # milliseconds, as CuPy gives them


class _Stream:
    def synchronize(self):
        pass

    def use(self):
        return self


class _Device:
    def __init__(self, device=None):
        self.id = int(device or 0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def use(self):
        pass

    def synchronize(self):
        pass

    @property
    def mem_info(self):
        return (0, 0)


def _function(name, fn):
    allow_host = name in _FROM_HOST

    def call(*args, **kwargs):
        return _call(fn, args, kwargs, name, allow_host)
    call.__name__ = name
    return call


def _with_dtype(sampler):
    """CuPy's samplers take `dtype=` (cupy.random.random(n, dtype=float32)); NumPy's legacy
    ones do not: draw in float64 and cast."""
    def sample(*args, dtype=None, **kwargs):
        result = sampler(*args, **kwargs)
        return result if dtype is None else np.asarray(result).astype(dtype)
    return sample


def _asnumpy(value, stream=None, order="C", out=None, blocking=True):
    return value.get() if isinstance(value, ndarray) else np.asarray(value)


class SimulatedCuPy(types.ModuleType):
    """The `cupy` module, simulated: `SimulatedCuPy(device_count).matmul(a, b)`."""

    def __init__(self, device_count=1):
        super().__init__("cupy", __doc__)
        self.__version__ = f"simulated ({_API['version']} API)"
        self.ndarray = ndarray
        self.asnumpy = _asnumpy
        self.get_default_memory_pool = lambda: _POOL
        runtime = types.SimpleNamespace(getDeviceCount=lambda: device_count,
                                        deviceSynchronize=lambda: None)
        self.cuda = types.SimpleNamespace(
            Event=_Event, get_elapsed_time=_elapsed_time, Device=_Device, Stream=_Stream,
            get_current_stream=lambda device=None: _Stream(), runtime=runtime,
            is_available=lambda: True)
        self.random = self._namespace("cupy.random", np.random)
        self.linalg = self._namespace("cupy.linalg", np.linalg)
        self.lib = types.SimpleNamespace(stride_tricks=self._namespace(
            "cupy.lib.stride_tricks", np.lib.stride_tricks))

    @staticmethod
    def _namespace(name, numpy_module):
        space = types.SimpleNamespace()
        for attr in _API[name]:
            value = getattr(numpy_module, attr, None)
            if callable(value) and not isinstance(value, type):
                if name == "cupy.random":
                    value = _with_dtype(value)
                setattr(space, attr, _function(f"{name}.{attr}", value))
        return space

    def __getattr__(self, name):
        if name not in _CUPY_NAMES:
            raise AttributeError(f"module 'cupy' has no attribute '{name}'")
        value = getattr(np, name, None)
        if value is None:
            raise AttributeError(f"simulated GPU: cupy.{name} has no NumPy twin to run on")
        if callable(value) and not isinstance(value, type):
            value = _function(name, value)
        setattr(self, name, value)  # made once
        return value
