"""Times single convolution-family ops on TensorFlow or the engine, whichever `engine` is.

Run as a program, `import engine as tf` is the engine, or TensorFlow 2.21 when tools/tf_shim
is on PYTHONPATH: the same graphs, the same inputs (Variables, so nothing is fed or folded),
each op run as a target (`sess.run(op)`: no fetch copies) in one session per op. It serves
timing requests on stdin (`serve`), so a driver can interleave the two sides' samples.
`python conv_ops.py [THREADS]`"""

import json
import sys
import time

import numpy as np

import engine as tf


def _cases():
    """(name, op, inputs as name -> shape or constant value, attrs): the ops of the two CNN
    programs (bench/programs) at their shapes, batch 128 (the raw conv net) and 50, and a
    depthwise convolution's three ops."""
    cases = []
    same = {"padding": "SAME", "data_format": "NHWC"}
    pool = dict(same, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1])
    conv = dict(same, strides=[1, 1, 1, 1])
    for batch in (128, 50):
        for size, cin, cout in ((28, 1, 32), (14, 32, 64)):
            x, f, y = [batch, size, size, cin], [5, 5, cin, cout], [batch, size, size, cout]
            tag = f"{batch}x{size}x{size}x{cin}->{cout}"
            cases.append((f"Conv2D {tag}", "Conv2D", {"input": x, "filter": f}, conv))
            cases.append((f"Conv2DBackpropFilter {tag}", "Conv2DBackpropFilter",
                          {"input": x, "filter_sizes": np.array(f, np.int32),
                           "out_backprop": y}, conv))
            if cin > 1:
                cases.append((f"Conv2DBackpropInput {tag}", "Conv2DBackpropInput",
                              {"input_sizes": np.array(x, np.int32), "filter": f,
                               "out_backprop": y}, conv))
            half = [batch, size // 2, size // 2, cout]
            tag = f"{batch}x{size}x{size}x{cout}"
            cases.append((f"MaxPool {tag}", "MaxPool", {"input": y}, pool))
            cases.append((f"MaxPoolGrad {tag}", "MaxPoolGrad",
                          {"orig_input": y, "orig_output": "MaxPool", "grad": half}, pool))
            cases.append((f"BiasAdd {tag}", "BiasAdd", {"value": y, "bias": [cout]},
                          {"data_format": "NHWC"}))
            cases.append((f"BiasAddGrad {tag}", "BiasAddGrad", {"out_backprop": y},
                          {"data_format": "NHWC"}))
            cases.append((f"Relu {tag}", "Relu", {"features": y}, {}))
            cases.append((f"ReluGrad {tag}", "ReluGrad", {"gradients": y, "features": y}, {}))
    # A depthwise layer as MobileNet has them: 3x3, one filter per channel.
    x, f = [32, 28, 28, 64], [3, 3, 64, 1]
    op, tag = "DepthwiseConv2dNative", "32x28x28x64 3x3"
    cases.append((f"{op} {tag}", op, {"input": x, "filter": f}, conv))
    cases.append((f"{op}BackpropInput {tag}", op + "BackpropInput",
                  {"input_sizes": np.array(x, np.int32), "filter": f, "out_backprop": x}, conv))
    cases.append((f"{op}BackpropFilter {tag}", op + "BackpropFilter",
                  {"input": x, "filter_sizes": np.array(f, np.int32), "out_backprop": x}, conv))
    return cases


CASES = _cases()


def _op(op_type, inputs, attrs):
    """The op on whichever `engine` this is: tf.raw_ops on TensorFlow, apply_op here."""
    raw_ops = getattr(tf, "raw_ops", None)
    if raw_ops is not None:
        return getattr(raw_ops, op_type)(**inputs, **attrs)
    from engine.ops.op_def_library import apply_op
    return apply_op(op_type, **inputs, **attrs)


class _Runner:
    """One case's graph and session, built once, run on request."""

    def __init__(self, op_type, shapes, attrs, threads):
        rng = np.random.RandomState(0)
        self.graph = tf.Graph()
        with self.graph.as_default():
            inputs, assign = {}, None
            for name, shape in shapes.items():
                if isinstance(shape, np.ndarray):
                    inputs[name] = tf.constant(shape)
                elif shape == "MaxPool":  # MaxPoolGrad's orig_output: MaxPool of orig_input
                    pooled = _op("MaxPool", {"input": inputs["orig_input"]}, attrs)
                    inputs[name] = tf.Variable(tf.zeros_like(pooled), validate_shape=False)
                    assign = tf.assign(inputs[name], pooled, validate_shape=False)
                else:
                    inputs[name] = tf.Variable(rng.standard_normal(shape).astype(np.float32))
            target = _op(op_type, inputs, attrs)
            self.target = getattr(target, "op", target)
            init = tf.global_variables_initializer()
        config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                                inter_op_parallelism_threads=1)
        self.session = tf.Session(graph=self.graph, config=config)
        self.session.run(init)
        if assign is not None:
            self.session.run(assign)
        self.session.run(self.target)

    def seconds(self, number):
        """(wall, CPU) seconds per run, over `number` runs; CPU time is the process's, all
        its threads: what the run cost the machine, whatever else was running on it."""
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            self.session.run(self.target)
        return ((time.perf_counter() - start) / number, (time.process_time() - cpu) / number)


def runners(threads, only=""):
    return {name: _Runner(op_type, shapes, attrs, threads)
            for name, op_type, shapes, attrs in CASES if only in name}


def serve(threads):
    """Answers requests on stdin, one JSON line each ({"case": NAME, "number": N}), with the
    seconds per run as one JSON line; the sessions are built first, then "ready" is printed."""
    built = runners(threads)
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(built[request["case"]].seconds(request["number"])), flush=True)


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
