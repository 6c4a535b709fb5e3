"""engine.runtime.threads.parallel_for for the convolution, pooling and bias kernels, with the
pieces' function released by the caller.

threads.parallel_for returns once every piece is done, but a helper thread that started late
(or took the last piece) holds the pieces' function, and every array it closes over, until
its own loop ends. A kernel's caller that has dropped the result by then (a target op's value,
a padded temporary) leaves the helper thread to free it, after the caller's next run has
already allocated its own: two such buffers live at once, so the heap grows into fresh pages
(faulted in, NumPy's large arrays as 2 MB huge pages) and is trimmed again, run after run.
Measured 2026-11-28 on bench.conv_ops' sessions at two threads: BiasAdd 128x28x28x32 (a 12.8
MB result) took 38-77 page faults a run and 0.63-0.77 ms, with the function released here
none and 0.40-0.45; ReluGrad 128x28x28x32 86-121 faults and 0.97-1.16 ms against none and
0.67-0.73. The same fix in threads.parallel_for itself would serve every kernel it splits.
"""

from engine.runtime import threads


def parallel_for(fn, total, min_per_piece):
    """threads.parallel_for(fn, total, min_per_piece), a late helper left holding nothing."""
    holder = [fn]
    try:
        threads.parallel_for(lambda start, end: holder[0](start, end), total, min_per_piece)
    finally:
        holder.clear()
