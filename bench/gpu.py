"""GPU workloads against plain CuPy: Monte-Carlo pi at 10^7, a 4096x4096 matmul, and a chain of
elementwise ops fused into one CuPy kernel (remapping on) and op by op (remapping off).

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
CHAIN_SIZE = 10**7
CHAIN_LENGTH = 30


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


def elementwise_chain(tf, size, length):
    """A float32 variable x of `size` on /gpu:0 and sum(... tanh(x*0.5) + 0.1 ...), `length`
    elementwise ops: (graph, x, the sum, the initializer)."""
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0"):
        x = tf.Variable(tf.random_uniform([size], -3.0, 3.0, seed=1))
        y = x.value()
        for i in range(length):
            y = [lambda v: v * 0.5, tf.tanh, lambda v: v + 0.1][i % 3](y)
        total = tf.reduce_sum(y)
        init = tf.global_variables_initializer()
    return graph, x, total, init


def _chain_on_cupy(xp, x, length):
    y = x
    for i in range(length):
        y = [lambda v: v * xp.float32(0.5), xp.tanh, lambda v: v + xp.float32(0.1)][i % 3](y)
    return float(xp.sum(y))


def cases(pi_size=PI_SIZE, matmul_size=MATMUL_SIZE, chain_size=CHAIN_SIZE,
          chain_length=CHAIN_LENGTH):
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

    from engine.proto.rewriter_config_pb2 import RewriterConfig

    chain_graph, chain_x, chain_total, chain_init = elementwise_chain(tf, chain_size, chain_length)
    chain_sessions = {}
    for name, mode in (("fused", RewriterConfig.ON), ("op by op", RewriterConfig.OFF)):
        chain_config = tf.ConfigProto(device_count={"GPU": 1})
        chain_config.graph_options.rewrite_options.remapping = mode
        chain_sessions[name] = tf.Session(graph=chain_graph, config=chain_config)
        chain_sessions[name].run(chain_init)
    chain_input = xp.asarray(chain_sessions["fused"].run(chain_x))

    def chain_case(name):
        session = chain_sessions[name]
        return bench.Case(
            f"GPU chain of {chain_length} elementwise ops on 10^{len(str(chain_size)) - 1}"
            f" float32, {name}{where}",
            lambda: session.run(chain_total),
            lambda: _chain_on_cupy(xp, chain_input, chain_length),
            target=1.0 if name == "fused" else None,
            note="remapping on: one ElementwiseKernel" if name == "fused"
            else "remapping off: a kernel per op, as plain CuPy")

    return [
        chain_case("fused"), chain_case("op by op"),
        bench.Case(f"GPU Monte-Carlo pi, n=10^{len(str(pi_size)) - 1}{where}",
                   lambda: pi_session.run(pi), cupy_pi,
                   note="Philox on the device vs CuPy's default generator"),
        bench.Case(f"GPU matmul {matmul_size}x{matmul_size} float32{where}",
                   lambda: matmul_session.run(total), cupy_matmul,
                   note="both end in the sum's copy to the host"),
    ]
