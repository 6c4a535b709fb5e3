"""NumPy's array data on 64-byte boundaries once the compiled kernels load
(engine/kernels/compiled/aligned_memory.py), as TensorFlow's allocators give every tensor:
the data stays what it was through allocation, growth and freeing, arrays made before the
switch free after it, other threads allocate aligned too, and the switch can be turned off.
Each case runs in a fresh interpreter, so the switch happens inside it."""

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the aligned handler is glibc's: Linux only")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(code, **env):
    environment = dict(os.environ, PYTHONPATH=ROOT, **env)
    environment.pop("GRAPH_INSPECTOR_COMPILED", None)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=environment, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


_LOAD = """
    import threading
    import numpy as np
    try:
        from numpy._core.multiarray import get_handler_name
    except ImportError:
        from numpy.core.multiarray import get_handler_name
    from engine.kernels import compiled
    before = [np.arange(n, dtype=np.float64) for n in (10, 300, 5000, 1 << 20)]
    compiled.module("activation", wait=True)
    from engine.kernels.compiled import aligned_memory
    assert aligned_memory.installed(), aligned_memory.why_not()
"""


def test_arrays_of_a_kibibyte_and_more_start_on_64_byte_boundaries():
    out = _run(_LOAD + """
    sizes = [1024, 1025, 4096, 100_003, (1 << 22) + 8, 12_845_056]
    offsets = {np.empty(size, np.uint8).ctypes.data % 64 for size in sizes}
    offsets |= {np.empty((128, 28, 28, 32), np.float32).ctypes.data % 64 for _ in range(5)}
    copies = {np.random.standard_normal(3000).astype(np.float32).ctypes.data % 64}
    print(get_handler_name(), sorted(offsets | copies))
    """)
    assert out == ["graph_inspector_aligned_64", "[0]"]


def test_values_survive_growth_zeroing_and_freeing_across_the_switch():
    out = _run(_LOAD + """
    for array in before:  # made by NumPy's own handler, freed by ours
        assert array[-1] == array.size - 1
    del before
    grown = np.arange(5000, dtype=np.float64)
    grown.resize(400_000, refcheck=False)  # realloc past the old block: its values moved
    assert (grown[:5000] == np.arange(5000)).all() and grown.ctypes.data % 64 == 0
    shrunk = np.arange(5000, dtype=np.float64)
    shrunk.resize(50, refcheck=False)  # realloc under SMALL_BYTES
    assert (shrunk == np.arange(50)).all()
    zeros = np.zeros(1 << 21)
    assert not zeros.any()
    for size in range(0, 3000, 7):  # many small and middling blocks, made and freed
        block = np.full(size, 3.0)
        assert block.sum() == 3.0 * size
    print("ok")
    """)
    assert out == ["ok"]


def test_other_threads_allocate_aligned_too():
    out = _run(_LOAD + """
    seen = []
    def allocate():
        seen.append(np.empty(100_000, np.float32).ctypes.data % 64)
    workers = [threading.Thread(target=allocate) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print(sorted(set(seen)))
    """)
    assert out == ["[0]"]


def test_turned_off_numpy_keeps_its_own_handler():
    out = _run("""
    import numpy as np
    try:
        from numpy._core.multiarray import get_handler_name
    except ImportError:
        from numpy.core.multiarray import get_handler_name
    from engine.kernels import compiled
    compiled.module("activation", wait=True)
    from engine.kernels.compiled import aligned_memory
    print(aligned_memory.installed(), get_handler_name(), aligned_memory.why_not().split()[0])
    """, GRAPH_INSPECTOR_ALIGNED_MEMORY="0")
    assert out == ["False", "default_allocator", "GRAPH_INSPECTOR_ALIGNED_MEMORY"]
