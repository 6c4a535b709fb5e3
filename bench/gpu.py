"""GPU workloads against plain CuPy: Monte-Carlo pi at 10^7 and a 4096x4096 matmul.

Both sides run on the same device in one process: the engine's session with the graph placed
on /gpu:0 (CuPy kernels; the fetch crosses back to the client CPU through _Send/_Recv), and
the same arithmetic written directly in CuPy, each ending in a host copy of its scalar so a
call measures finished GPU work. Needs CuPy and a CUDA GPU; without them the workload is
skipped with the reason. Under GRAPH_INSPECTOR_SIMULATED_GPUS the cases run on the simulated
GPU (NumPy): good for checking the workload, meaningless as GPU timings, and said so.
"""

import bench

PI_SIZE = 10**7
MATMUL_SIZE = 4096


def _backend():
    from engine.kernels.cuda import backend
    current = backend.current()
    if current is None:
        raise bench.Skipped("no CUDA GPU with CuPy on this machine (pip install .[cuda])")
    return current


def monte_carlo_pi(tf, size):
    """The seed's Monte-Carlo pi graph on /gpu:0: (graph, the pi tensor)."""
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0"):
        tf.set_random_seed(1234)
        x = tf.random_uniform([size], seed=1)
        y = tf.random_uniform([size], seed=2)
        inside = tf.less_equal(tf.sqrt(x * x + y * y), 1.0)
        hits = tf.reduce_sum(tf.cast(inside, tf.int32))
        pi = 4.0 * tf.cast(hits, tf.float32) / size
    return graph, pi


def matmul_sum(tf, size):
    """Two size x size float32 variables on /gpu:0 and the sum of their product."""
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0"):
        a = tf.Variable(tf.random_normal([size, size], seed=1))
        b = tf.Variable(tf.random_normal([size, size], seed=2))
        total = tf.reduce_sum(tf.matmul(a, b))
        init = tf.global_variables_initializer()
    return graph, total, init, (a, b)


def cases(pi_size=PI_SIZE, matmul_size=MATMUL_SIZE):
    import engine as tf

    current = _backend()
    xp = current.xp
    where = " (simulated GPU: NumPy times)" if current.simulated else ""
    config = tf.ConfigProto(device_count={"GPU": 1})

    graph, pi = monte_carlo_pi(tf, pi_size)
    pi_session = tf.Session(graph=graph, config=config)

    def cupy_pi():
        x = xp.random.random(pi_size, dtype=xp.float32)
        y = xp.random.random(pi_size, dtype=xp.float32)
        hits = xp.sum(xp.sqrt(x * x + y * y) <= 1.0, dtype=xp.int32)
        return float(4.0 * hits.astype(xp.float32) / pi_size)

    graph, total, init, variables = matmul_sum(tf, matmul_size)
    matmul_session = tf.Session(graph=graph, config=config)
    matmul_session.run(init)
    a, b = (xp.asarray(v) for v in matmul_session.run(variables))

    def cupy_matmul():
        return float(xp.matmul(a, b).sum())

    return [
        bench.Case(f"GPU Monte-Carlo pi, n=10^{len(str(pi_size)) - 1}{where}",
                   lambda: pi_session.run(pi), cupy_pi,
                   note="Philox on the device vs CuPy's default generator"),
        bench.Case(f"GPU matmul {matmul_size}x{matmul_size} float32{where}",
                   lambda: matmul_session.run(total), cupy_matmul,
                   note="both end in the sum's copy to the host"),
    ]
