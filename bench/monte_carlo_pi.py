"""Monte-Carlo pi (seed 001): uniform points in the unit square, the share inside the circle."""

import numpy as np

import bench

SIZES = (10**2, 10**4, 10**6)


def cases():
    import engine as tf
    from engine.kernels import compiled
    from engine.proto.rewriter_config_pb2 import RewriterConfig

    compiled.module("philox", wait=True)  # steady state: the first runs' NumPy path aside
    result = []
    for size in SIZES:
        graph = tf.Graph()
        with graph.as_default():
            tf.set_random_seed(1234)
            x = tf.random_uniform([size], seed=1)
            y = tf.random_uniform([size], seed=2)
            r = tf.sqrt(tf.add(tf.multiply(x, x), tf.multiply(y, y)))
            inside = tf.less_equal(r, tf.ones([size]))
            hits = tf.reduce_sum(tf.cast(inside, tf.int32))
            pi = tf.multiply(4.0, tf.cast(hits, tf.float32) / size)
        sess = tf.Session(graph=graph)
        rng = np.random.default_rng(1234)

        def numpy_pi(size=size, rng=rng):
            x = rng.random(size, dtype=np.float32)
            y = rng.random(size, dtype=np.float32)
            r = np.sqrt(x * x + y * y)
            hits = np.sum((r <= np.ones(size, dtype=np.float32)).astype(np.int32))
            return np.float32(4.0) * (np.float32(hits) / np.float32(size))

        big = size == SIZES[-1]
        if big:  # remapping DEFAULT fuses this chain (10^6 elements): its kernel compiled first
            for _ in range(3):
                sess.run(pi)
            fused = compiled.module("fused", wait=True)
            if fused is not None:
                fused.wait_idle()
        result.append(bench.Case(f"Monte-Carlo pi, n=10^{len(str(size)) - 1}",
                                 lambda sess=sess, pi=pi: sess.run(pi), numpy_pi,
                                 target=0.25 if big else None,
                                 note="TensorFlow's Philox streams vs NumPy's PCG64"
                                 + ("; remapping DEFAULT: the chain of 10^6 fused into one "
                                    "loop, Philox blocks drawn in registers, the int32 hits "
                                    "summed in it; nothing of 10^6 is written" if big else ""),
                                 tensorflow="0.30-0.64x" if big else ""))
        if big:  # the same graph op by op: TensorFlow's own partition graph, for reference
            config = tf.ConfigProto()
            config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
            unfused = tf.Session(graph=graph, config=config)
            result.append(bench.Case("Monte-Carlo pi, n=10^6, remapping OFF",
                                     lambda sess=unfused, pi=pi: sess.run(pi), numpy_pi,
                                     tensorflow="0.30-0.64x",
                                     note="op by op, TensorFlow's own graph: Philox compiled "
                                          "and threaded, the chain in NumPy's kernels"))
    return result

