"""bench/gpu.py on the simulated GPU: its graphs place on /gpu:0 and give plain CuPy's answers.

The timings there mean nothing; what this checks is that `make bench` on a GPU machine runs
workloads that compute the same thing on both sides, and that a machine without a GPU skips
them with the reason instead of failing.
"""

import numpy as np
import pytest

import bench
from bench import gpu
from engine.kernels.cuda import backend


def test_without_a_gpu_the_workload_is_skipped_with_the_reason():
    previous = backend.use(None)
    try:
        with pytest.raises(bench.Skipped, match="no CUDA GPU"):
            gpu.cases()
    finally:
        backend.use(previous)


def test_on_a_simulated_gpu_both_sides_agree_and_say_simulated():
    with backend.simulated_gpus(1):
        fused, op_by_op, pi_case, matmul_case = gpu.cases(
            pi_size=20000, matmul_size=48, chain_size=1000, chain_length=7)
        assert all("simulated" in case.name for case in (fused, op_by_op, pi_case, matmul_case))
        # The chain fused (remapping on) and op by op gives CuPy's sum.
        for chain_case in (fused, op_by_op):
            np.testing.assert_allclose(float(chain_case.engine()), chain_case.numpy(), rtol=1e-5)
        # Different generators (Philox vs CuPy's), the same estimate of pi.
        assert abs(float(pi_case.engine()) - np.pi) < 0.1
        assert abs(pi_case.numpy() - np.pi) < 0.1
        np.testing.assert_allclose(float(matmul_case.engine()), matmul_case.numpy(),
                                   rtol=1e-4)


def test_the_benchmark_graphs_are_placed_on_the_gpu():
    import engine as tf
    with backend.simulated_gpus(1):
        graph, pi = gpu.monte_carlo_pi(tf, 100)
        sess = tf.Session(graph=graph, config=tf.ConfigProto(device_count={"GPU": 1}))
        meta = tf.RunMetadata()
        sess.run(pi, options=tf.RunOptions(output_partition_graphs=True),
                 run_metadata=meta)
        devices = {p.node[0].device for p in meta.partition_graphs if p.node}
        assert "/job:localhost/replica:0/task:0/device:GPU:0" in devices
