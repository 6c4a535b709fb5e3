"""Seed programs on the simulated GPU print what TensorFlow printed on its CPU.

A graph on a GPU is placed, cut into partitions and run with values in two memories: int32
tensors in host memory (TensorFlow's HostMemory int32 kernels), the rest on the device, copies
where they meet; control flow kept on one device; variables fetched across devices. The
simulated GPU (GRAPH_INSPECTOR_SIMULATED_GPUS, engine/kernels/cuda/backend.py) refuses a host
array where a device one belongs, as CuPy does, so each of these mistakes fails here on a
machine without a GPU. A subset covering each kind of program runs, compared as
tests/engine/test_programs.py compares (the numbers are TensorFlow's CPU numbers: a GPU
changes where a value is computed, not the value):
gradients of shape arithmetic (linear_regression), a cond in training (logistic_regression:
piecewise_constant; layers_mnist: batch normalization's cond and its gradient), while loops
(dynamic_rnn_lengths: bidirectional dynamic_rnn and their gradients; resume_training: a
dynamic_rnn restored from a checkpoint with import_meta_graph, which has no contexts), tf.data
(data_pipeline_mlp), queues and a frozen graph (queue_freeze_pipeline), file readers on the CPU
feeding decode_raw and the image ops on the GPU (cifar10_input_pipeline), and hooks reading
the global step of a GPU variable (monitored_training, monitored_checkpoints), and stateless
random ops, which have CPU kernels only, feeding a model on the GPU (stateless_augmentation),
and a tf.CriticalSection's CPU-only mutex ops around a GPU variable's updates, three executes
in one run (critical_section_counter).
"""

import os
import subprocess
import sys

import pytest

from tests.gpu_env import real_gpu_env
from tests.engine.cuda_twin import BACKENDS
from tests.engine.test_programs import EXPECTED, PROGRAMS, REPO, normalise, same_within_spread

ON_GPU = ["linear_regression", "logistic_regression", "layers_mnist", "dynamic_rnn_lengths",
          "resume_training", "data_pipeline_mlp", "queue_freeze_pipeline",
          "cifar10_input_pipeline", "monitored_training", "monitored_checkpoints",
          "stateless_augmentation", "critical_section_counter"]


def run_on_simulated_gpu(name, backend_name="simulated"):
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED="0",
               GRAPH_INSPECTOR_SIMULATED_GPUS="1")
    if backend_name == "cupy":  # the machine's real GPU (a `cuda` test)
        env = real_gpu_env(env)
    # A run takes seconds: a deadlock between partitions fails here, not at the suite's limit.
    result = subprocess.run([sys.executable, str(PROGRAMS / f"{name}.py")], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=90)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def expected(name):
    variants = [EXPECTED / f"{name}.stdout", *sorted(EXPECTED.glob(f"{name}.threads*.stdout"))]
    return [normalise(v.read_text()) for v in variants]


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("name", ON_GPU)
def test_program_on_the_simulated_gpu_prints_tensorflows_numbers(name, backend_name):
    """On the simulated GPU everywhere; on CuPy too where a CUDA GPU is present."""
    ours, theirs = normalise(run_on_simulated_gpu(name, backend_name)), expected(name)
    if ours != theirs[0]:
        assert same_within_spread(ours, theirs), (ours, theirs[0])


def test_device_placement_differs_only_in_the_devices_it_names():
    """log_device_placement names GPU:0 where TensorFlow's CPU run named CPU:0; every other
    line (the values) is TensorFlow's. The GPU lines also show the GPU was there."""
    ours = run_on_simulated_gpu("device_placement")
    assert "/device:GPU:0" in ours

    def without_devices(text):
        return "".join(line + "\n" for line in text.splitlines() if "/device:" not in line)
    theirs = without_devices(expected("device_placement")[0])
    assert ours.count("\n") == expected("device_placement")[0].count("\n")
    ours = without_devices(normalise(ours))
    if ours != theirs:
        assert same_within_spread(ours, [theirs]), (ours, theirs)
