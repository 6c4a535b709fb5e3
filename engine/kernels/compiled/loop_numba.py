"""While loops compiled with numba: a loop's condition and body as one function.

engine/runtime/loop_compiler.py describes a loop frame whose every op has a compiled form as
a LoopBody (engine/kernels/loop_body.py); `kernel(body, arrays)` compiles it for one pattern
of scalar and array values and returns
`loop(stop, s0, s1, ..., c0, c1, ...) -> (finished, iterations, s0, s1, ...)`: the loop
variables s (the Merges' values) and the loop invariants c (constant Enters and the frame's
Consts) in, the loop variables out, after the condition turned false (finished) or `stop`
iterations ran (the caller checks the runaway limit and the deadline between calls).
Arrays travel flattened; each elementwise step of an array allocates its result and fills it
element by element with engine.kernels.compiled.fused_numba's scalar expressions, which give
the NumPy kernels' values bit for bit for the ops loop_body.LOOP_OPS lists (IEEE arithmetic
and comparisons, no fast-math, no fused multiply-add: the reference's roundings, step by step).

As fused chains are, the source is written to a file in the cache directory named by its
hash, so numba's on-disk cache serves a second process, and compiled on one background thread.
"""

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numba  # noqa: F401  (imported here, in the loader's thread, not by the generated files)

from engine.kernels.compiled.fused_numba import cache_dir as fused_cache_dir, scalar_expression
from engine.kernels.loop_body import is_array, step_is_array

_TYPES = {"float32": "np.float32", "float64": "np.float64", "int32": "np.int32",
          "int64": "np.int64", "bool": "np.bool_"}
_HEADER = ('"""A compiled while loop; written by engine/kernels/compiled/loop_numba.py."""\n'
           "import numpy as np\nimport numba\n\n\n"
           '@numba.njit(cache=True, nogil=True, error_model="numpy", boundscheck=False)\n')
_ready = {}        # source -> compiled function, or None when it failed
_pending = set()
_lock = threading.Lock()
_compiler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="loop-compile")


def source(body, arrays):
    """The Python source of the loop's numba function for these array-or-scalar values."""
    state = [f"s{i}" for i in range(body.state)]
    invariants = [f"c{i}" for i in range(len(body.dtypes) - body.state)]
    step_arrays = step_is_array(body, arrays)
    names = {("s", i): name for i, name in enumerate(state)}
    names.update({("c", i): name for i, name in enumerate(invariants)})
    lines = [f"def loop({', '.join(['stop'] + state + invariants)}):",
             "    n = 0",
             "    while True:"]
    results = ", ".join(state)
    for k, (op, operands, dtype, in_dtype) in enumerate(body.steps):
        if k == body.condition_steps:
            lines.append(f"        if not {_value(body.condition, names)}:")
            lines.append(f"            return True, n, {results}")
        lines += _step(k, op, operands, dtype, in_dtype, names, body, arrays, step_arrays)
        names[("t", k)] = f"t{k}"
    if body.condition_steps == len(body.steps):
        lines.append(f"        if not {_value(body.condition, names)}:")
        lines.append(f"            return True, n, {results}")
    nexts = ", ".join(_value(ref, names) for ref in body.nexts)
    lines += [f"        {results} = {nexts}",
              "        n += 1",
              "        if n >= stop:",
              f"            return False, n, {results}"]
    return _HEADER + "\n".join(lines) + "\n"


def _value(ref, names):
    return names[tuple(ref)]


def _step(k, op, operands, dtype, in_dtype, names, body, arrays, step_arrays):
    refs = [_value(ref, names) for ref in operands]
    if not step_arrays[k]:
        expr = scalar_expression(op, refs[0], refs[1] if len(refs) > 1 else None, dtype,
                                 in_dtype)
        return [f"        t{k} = {expr}"]
    first_array = next(name for ref, name in zip(operands, refs)
                       if is_array(ref, body, arrays, step_arrays))
    elements = [f"{name}[j]" if is_array(ref, body, arrays, step_arrays) else name
                for ref, name in zip(operands, refs)]
    expr = scalar_expression(op, elements[0], elements[1] if len(elements) > 1 else None,
                             dtype, in_dtype)
    return [f"        t{k} = np.empty({first_array}.shape[0], {_TYPES[dtype]})",
            f"        for j in range(t{k}.shape[0]):",
            f"            t{k}[j] = {expr}"]


def cache_dir():
    return os.path.join(os.path.dirname(fused_cache_dir()), "loop-kernels")


def _compile(text, body, arrays):
    """Write the source where numba can cache it, import it, compile for the body's types."""
    folder = cache_dir()
    os.makedirs(folder, exist_ok=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    path = os.path.join(folder, f"loop_{digest}.py")
    if not os.path.exists(path):  # never rewritten: numba's cache is keyed on its mtime
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    name = f"_graph_inspector_loop_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cached code refers to its module by that name
    spec.loader.exec_module(module)
    samples = [np.zeros(1, dtype) if array else np.dtype(dtype).type(0)
               for dtype, array in zip(body.dtypes, arrays)]
    with np.errstate(all="ignore"):
        module.loop(0, *samples)  # compile, or load from the cache (stop 0: one iteration)
    return module.loop


def _compile_into(text, body, arrays):
    try:
        function = _compile(text, body, arrays)
    except Exception:  # a loop numba cannot compile stays on the frame compiler's Python loop
        function = None
    with _lock:
        _ready[text] = function
        _pending.discard(text)


def kernel(body, arrays, wait=False):
    """The compiled loop for these array-or-scalar values (variables then invariants), else
    None (compiling, or it could not be compiled); the first request starts compiling it."""
    text = source(body, arrays)
    function = _ready.get(text)
    if function is not None or text in _ready:
        return function
    with _lock:
        start = text not in _pending and text not in _ready
        if start:
            _pending.add(text)
    if start:
        future = _compiler.submit(_compile_into, text, body, arrays)
        if wait:
            future.result()
    elif wait:
        _compiler.submit(lambda: None).result()  # the single compiler thread: wait our turn
    return _ready.get(text)


def warm():
    """Nothing to load ahead: each loop compiles (or loads its cache) when first seen."""
