"""compiled.Demand: numba is loaded (at a cost to the caller) only for work that pays it back."""

import os
import subprocess
import sys
from pathlib import Path

from engine.kernels import compiled

REPO = Path(__file__).resolve().parents[2]


def test_large_work_loads_at_once_small_work_from_the_nth_request(monkeypatch):
    monkeypatch.setattr(compiled, "any_loaded", lambda: False)  # whatever ran before
    demand = compiled.Demand(large=1000, often=3)
    assert demand.worth_loading(1000)
    small = compiled.Demand(large=1000, often=3)
    assert [small.worth_loading(10) for _ in range(4)] == [False, False, True, True]


def test_once_numba_serves_from_a_warm_cache_small_work_loads_at_the_second_request(
        monkeypatch):
    monkeypatch.setattr(compiled, "any_loaded", lambda: True)
    monkeypatch.setattr(compiled, "cache_is_warm", lambda: True)
    small = compiled.Demand(large=1000, often=5)
    assert [small.worth_loading(10) for _ in range(3)] == [False, True, True]
    monkeypatch.setattr(compiled, "cache_is_warm", lambda: False)  # cold: loading costs more
    cold = compiled.Demand(large=1000, often=5)
    assert [cold.worth_loading(10) for _ in range(3)] == [False, False, False]


def test_loaded_never_starts_a_load(monkeypatch):
    started = []
    monkeypatch.setattr(compiled, "module", lambda *a, **k: started.append(a))
    monkeypatch.setitem(compiled._loaded, "philox", None)  # as after a failed load
    assert compiled.loaded("philox") is None and compiled.loaded("no-such") is None
    assert started == []


def test_an_initializer_does_not_load_numba_a_large_stream_does():
    """In a fresh process: a few 16k-value random tensors leave numba unloaded; a stream of
    2^18 values starts loading it."""
    program = (
        "import sys, engine as tf\n"
        "from engine.kernels import compiled\n"
        "small = tf.random_uniform([128, 128], seed=1)\n"
        "big = tf.random_uniform([1 << 18], seed=2)\n"
        "with tf.Session() as sess:\n"
        "    for _ in range(3):\n"
        "        sess.run(small)\n"
        "    print('numba' in sys.modules, compiled._loading.get('philox') is not None)\n"
        "    sess.run(big)\n"
        "    print(compiled._loading.get('philox') is not None)\n")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            timeout=120, cwd=REPO,
                            env={**os.environ, "GRAPH_INSPECTOR_COMPILED": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True"]
