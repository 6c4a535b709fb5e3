"""bench.conv_ops, bench.mnist_deep_cnn and bench.raw_conv_net: the engine side runs, and
without a TensorFlow venv the TensorFlow column says so instead of failing."""

import os

import pytest

import bench
from bench import cnn_program, conv_ops, tensorflow_side
from bench.programs import conv_ops as conv_op_graphs


@pytest.fixture
def no_tensorflow(monkeypatch):
    monkeypatch.setattr(tensorflow_side, "python", lambda: None)


def test_the_op_bench_is_skipped_with_the_reason(no_tensorflow):
    for name in ("bench.conv_ops", "bench.mnist_deep_cnn", "bench.raw_conv_net"):
        assert name in bench.WORKLOADS
    with pytest.raises(bench.Skipped, match="no TensorFlow venv"):
        conv_ops.run()


def test_a_program_row_without_tensorflow_is_not_measured(no_tensorflow, monkeypatch):
    monkeypatch.setattr(cnn_program, "REPEATS", 1)
    monkeypatch.setattr(cnn_program, "THREADS", (1,))
    values = cnn_program.compare("raw_conv_net.py", 6, "raw conv net")
    assert values["met"] is False and values["tensorflow"] == tensorflow_side.NOT_MEASURED
    assert values["1_thread_engine_s"] > 0 and values["1_thread_engine_steady_s"] > 0


def test_every_op_case_runs_on_the_engine():
    runners = conv_op_graphs.runners(1, only="50x14x14")
    assert {name.split()[0] for name in runners} >= {"Conv2D", "MaxPoolGrad", "BiasAddGrad"}
    for runner in runners.values():
        wall, cpu = runner.seconds(1)
        assert wall > 0 and cpu >= 0


def test_tensorflows_malloc_is_set_as_the_engines_only_where_asked():
    _, plain = tensorflow_side.command("conv_ops.py", [1], True)
    _, steady = tensorflow_side.command("conv_ops.py", [1], True, malloc_like_engine=True)
    _, engine_side = tensorflow_side.command("conv_ops.py", [1], False, malloc_like_engine=True)
    names = set(tensorflow_side.MALLOC_LIKE_ENGINE)
    assert names <= set(steady) and all(steady[k] == v for k, v in
                                        tensorflow_side.MALLOC_LIKE_ENGINE.items())
    assert not names & (set(plain) - set(os.environ))
    assert not names & (set(engine_side) - set(os.environ))
    from engine.runtime import host_memory
    assert steady["MALLOC_MMAP_THRESHOLD_"] == str(host_memory.MMAP_THRESHOLD)
    assert steady["MALLOC_TRIM_THRESHOLD_"] == str(host_memory.TRIM_THRESHOLD)
