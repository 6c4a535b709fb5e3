"""Write TensorFlow's values for the gradients ported after the first round and the ops they
needed (tests/fixtures/ops/grad_ops.npz, grad_shapes.npz, grad_values.npz).

Run with the TensorFlow venv:
`TF_ENABLE_ONEDNN_OPTS=0 .venv-tf/bin/python tools/make_grad_op_fixtures.py`.

- grad_ops.npz: kernel cases of MaxPoolGradGrad, MaxPoolGradGradV2, MaxPoolGradV2 and
  MirrorPadGrad in tools/make_op_fixtures.py's family form (NodeDef, inputs, outputs or
  TensorFlow's error), run by tests/engine/test_kernels_fixtures.py: max pools with ties,
  SAME and VALID, an orig_output no window holds; mirror pads REFLECT and SYMMETRIC.
- grad_shapes.npz: their static shapes, in shapes.npz's form
  (tests/engine/test_shape_inference.py).
- grad_values.npz: for each case of tests/engine/tf_grad_cases.py, tf.gradients of
  sum(f(inputs) * w) in tf.compat.v1 graph mode (float64), with the inputs and w, and in its
  manifest the nodes tf.gradients added (name, op, inputs), which
  tests/engine/test_tf_grad_values.py holds the engine's to.
"""

import json
import sys

import numpy as np

from fixture_common import npz_key, tf_v1  # sets TensorFlow's environment first

import make_op_fixtures  # noqa: E402  (tools/: Family, TensorFlow in graph mode)
import tf_grad_cases  # noqa: E402  (tests/engine: on sys.path through fixture_common)

OUT = make_op_fixtures.OUT
tf = make_op_fixtures.tf
R = tf.raw_ops
f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64

# Ties: the first maximum of a window (row-major) is the one TensorFlow picks.
TIES = np.array([[1, 3, 3, 0], [3, 2, 1, 3], [0, 0, 5, 5], [5, 1, 5, 2]]).reshape(1, 4, 4, 1)


def max_pool(x, ksize, strides, padding):
    """TensorFlow's max pool of `x` (graph mode: through a session)."""
    with tf.Graph().as_default():
        with make_op_fixtures.tf1.Session() as sess:
            return sess.run(tf.nn.max_pool2d(x, ksize, strides, padding))


def kernel_cases():
    fam = make_op_fixtures.Family("grad_ops")
    rnd = make_op_fixtures.rnd
    ties = np.concatenate([TIES, TIES.T.reshape(1, 4, 4, 1) * 2], axis=3)  # two channels
    windows = {"VALID_k2s2": ([1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
               "SAME_k3s2": ([1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
               "SAME_k2s1": ([1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
               "VALID_k3x2s1x2": ([1, 3, 2, 1], [1, 1, 2, 1], "VALID")}
    for label, (ksize, strides, padding) in windows.items():
        for dtype in (f32, f64):
            x = ties.astype(dtype)
            y = max_pool(x, ksize, strides, padding)
            g = (np.arange(x.size).reshape(x.shape) + 1).astype(dtype)
            fam.case("MaxPoolGradGrad", f"ties_{label}_{np.dtype(dtype).name}",
                     {"orig_input": x, "orig_output": y, "grad": g}, ksize=ksize,
                     strides=strides, padding=padding)
            if dtype is f64:
                continue  # the V2 ops run the same kernels: float32 is enough
            fam.case("MaxPoolGradGradV2", f"ties_{label}_{np.dtype(dtype).name}",
                     {"orig_input": x, "orig_output": y, "grad": g,
                      "ksize": np.array(ksize, i32), "strides": np.array(strides, i32)},
                     padding=padding)
            dy = (np.arange(y.size).reshape(y.shape) - 3.5).astype(dtype)
            fam.case("MaxPoolGradV2", f"ties_{label}_{np.dtype(dtype).name}",
                     {"orig_input": x, "orig_output": y, "grad": dy,
                      "ksize": np.array(ksize, i32), "strides": np.array(strides, i32)},
                     padding=padding)
    x = rnd(2, 7, 6, 3)
    y = max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
    fam.case("MaxPoolGradGrad", "random", {"orig_input": x, "orig_output": y,
                                           "grad": rnd(2, 7, 6, 3, seed=1)},
             ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
    fam.case("MaxPoolGradGrad", "output_in_no_window",
             {"orig_input": x, "orig_output": y + 0.25, "grad": rnd(2, 7, 6, 3, seed=1)},
             ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
    fam.case("MaxPoolGradGrad", "i32", {"orig_input": TIES.astype(i32),
                                        "orig_output": np.array([[3, 3], [5, 5]], i32)
                                        .reshape(1, 2, 2, 1),
                                        "grad": np.arange(16, dtype=i32).reshape(1, 4, 4, 1)},
             ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    good = {"orig_input": x, "orig_output": y, "grad": x}
    attrs = dict(ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
    fam.case("MaxPoolGradGrad", "bad_grad_shape", dict(good, grad=x[:, :5]), **attrs)
    fam.case("MaxPoolGradGrad", "bad_orig_output_shape", dict(good, orig_output=y[:, :2]),
             **attrs)
    fam.case("MaxPoolGradGrad", "rank3_input", dict(good, orig_input=x[0]), **attrs)
    fam.case("MaxPoolGradGrad", "depth_window", good, ksize=[1, 3, 3, 2],
             strides=[1, 2, 2, 1], padding="SAME")
    v2 = dict(good, grad=y, ksize=np.array([1, 3, 3, 1], i32),
              strides=np.array([1, 2, 2, 1], i32))
    fam.case("MaxPoolGradV2", "random", v2, padding="SAME")
    fam.case("MaxPoolGradV2", "ksize_of_3", dict(v2, ksize=np.array([1, 3, 3], i32)),
             padding="SAME")
    fam.case("MaxPoolGradV2", "strides_of_5", dict(v2, strides=np.ones(5, i32)),
             padding="SAME")
    fam.case("MaxPoolGradV2", "batch_window", dict(v2, ksize=np.array([2, 3, 3, 1], i32)),
             padding="SAME")
    fam.case("MaxPoolGradV2", "depth_stride", dict(v2, strides=np.array([1, 2, 2, 3], i32)),
             padding="SAME")
    fam.case("MaxPoolGradV2", "bad_grad_shape", dict(v2, grad=y[:, 1:]), padding="SAME")
    fam.case("MaxPoolGradV2", "bad_orig_output_shape", dict(v2, orig_output=y[:, 1:]),
             padding="SAME")
    fam.case("MaxPoolGradV2", "rank3_grad", dict(v2, grad=y[0]), padding="SAME")
    fam.case("MaxPoolGradV2", "rank3_orig_output", dict(v2, orig_output=y[0]), padding="SAME")
    fam.case("MaxPoolGradGrad", "rank3_grad", dict(good, grad=x[0]), **attrs)
    fam.case("MaxPoolGradGrad", "rank3_orig_output", dict(good, orig_output=y[0]), **attrs)
    fam.case("MaxPoolGradGradV2", "rank3_grad",
             dict(good, grad=x[0], ksize=np.array([1, 3, 3, 1], i32),
                  strides=np.array([1, 2, 2, 1], i32)), padding="SAME")
    fam.case("MaxPoolGradGradV2", "ksize_of_3",
             dict(good, ksize=np.array([1, 3, 3], i32), strides=np.array([1, 2, 2, 1], i32)),
             padding="SAME")
    fam.case("MaxPoolGradGradV2", "depth_window",
             dict(good, ksize=np.array([1, 3, 3, 3], i32),
                  strides=np.array([1, 2, 2, 1], i32)), padding="SAME")

    for mode, paddings in (("REFLECT", [[1, 2], [2, 1]]), ("SYMMETRIC", [[2, 3], [3, 0]])):
        for dtype in (f32, f64, i32):
            g = (rnd(7, 6, seed=4) * 10).astype(dtype)
            fam.case("MirrorPadGrad", f"{mode}_{np.dtype(dtype).name}",
                     {"input": g, "paddings": np.array(paddings, i32)}, mode=mode)
        fam.case("MirrorPadGrad", f"{mode}_3d_i64_paddings",
                 {"input": rnd(4, 5, 3, seed=6),
                  "paddings": np.array([[1, 0], [0, 0], [1, 1]], i64)}, mode=mode)
        fam.case("MirrorPadGrad", f"{mode}_no_padding",
                 {"input": rnd(2, 3, seed=7), "paddings": np.zeros((2, 2), i32)}, mode=mode)
    ones = np.ones((4, 4), f32)
    for label, mode, paddings in (
            ("reflect_past_output", "REFLECT", [[2, 0], [0, 0]]),
            ("total_past_input", "REFLECT", [[2, 2], [0, 0]]),
            ("symmetric_past_output", "SYMMETRIC", [[3, 0], [0, 0]]),
            ("negative", "SYMMETRIC", [[-1, 0], [0, 0]]),
            ("paddings_rows", "SYMMETRIC", [[1, 0]]),
            ("paddings_vector", "SYMMETRIC", [1, 0])):
        fam.case("MirrorPadGrad", label, {"input": ones, "paddings": np.array(paddings, i32)},
                 mode=mode)
    fam.write()


def shape_cases():
    """tools/make_op_fixtures.py's shape_cases form: placeholders ("ph", shape) and constants
    ("const", value), TensorFlow's static output shapes or its build-time error."""
    cases, arrays = [], {}
    tf1 = make_op_fixtures.tf1

    def case(op, label, inputs, **attrs):
        name = f"{op}.{label}"
        entry = {"name": name, "op": op, "inputs": [], "outputs": None, "error": None}
        graph = tf.Graph()
        with graph.as_default():
            kwargs = {arg: tf1.placeholder(spec[2] if len(spec) > 2 else tf.float32, spec[1])
                      if spec[0] == "ph" else tf.constant(spec[1]) for arg, spec in inputs.items()}
            try:
                getattr(R, op)(**kwargs, **attrs)
            except (ValueError, tf.errors.OpError) as error:
                entry["error"] = str(error).split(" for '{{node")[0]
                cases.append(entry)
                return
            node = [o for o in graph.get_operations() if o.type == op][-1]
        arrays[f"{name}/node_def"] = np.frombuffer(node.node_def.SerializeToString(), np.uint8)
        entry["outputs"] = [None if t.shape.rank is None else t.shape.as_list()
                            for t in node.outputs]
        for i, tensor in enumerate(node.inputs):
            const = tensor.op.type == "Const"
            entry["inputs"].append({"dtype": tensor.dtype.name, "shape": None
                                    if tensor.shape.rank is None else tensor.shape.as_list(),
                                    "const": const})
            if const:
                arrays[f"{name}/in{i}"] = tf.get_static_value(tensor)
        cases.append(entry)

    def ph(shape, dtype=tf.float32):
        return ("ph", shape, dtype)

    def c(value):
        return ("const", value)

    pool = dict(ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1])
    for padding in ("SAME", "VALID"):
        case("MaxPoolGradGrad", padding, {"orig_input": ph([None, 7, 6, 3]),
                                          "orig_output": ph(None), "grad": ph(None)},
             padding=padding, **pool)
        case("MaxPoolGradGradV2", padding, {
            "orig_input": ph([2, 7, None, 3]), "orig_output": ph([None, None, 3, None]),
            "grad": ph(None), "ksize": c(np.array(pool["ksize"], i32)),
            "strides": c(np.array(pool["strides"], i32))}, padding=padding)
    case("MaxPoolGradGrad", "from_orig_output", {"orig_input": ph(None),
                                                 "orig_output": ph([2, None, 3, 4]),
                                                 "grad": ph([None, 5, None, None])},
         padding="SAME", **pool)
    case("MaxPoolGradGradV2", "fed_window", {
        "orig_input": ph([2, 7, 6, 3]), "orig_output": ph([2, None, 3, None]),
        "grad": ph(None), "ksize": ph([4], tf.int32), "strides": ph([4], tf.int32)},
        padding="SAME")
    case("MaxPoolGradV2", "plain", {
        "orig_input": ph([None, 7, 6, 3]), "orig_output": ph(None), "grad": ph(None),
        "ksize": ph([4], tf.int32), "strides": ph([4], tf.int32)}, padding="SAME")
    case("MirrorPadGrad", "const", {"input": ph([None, 7, 5]),
                                    "paddings": c(np.array([[1, 1], [2, 1], [0, 2]], i32))},
         mode="REFLECT")
    case("MirrorPadGrad", "fed", {"input": ph([None, 7]), "paddings": ph([2, 2], tf.int32)},
         mode="SYMMETRIC")
    case("MirrorPadGrad", "fed_unknown_rank", {"input": ph(None),
                                               "paddings": ph([None, 2], tf.int32)},
         mode="SYMMETRIC")
    arrays["__manifest__"] = np.array(json.dumps(cases))
    np.savez_compressed(OUT / "grad_shapes.npz", **arrays)
    print(f"grad_shapes: {len(cases)} cases", file=sys.stderr)


def gradient_cases():
    """tf.gradients of each tf_grad_cases case, built as tests/engine/test_gradients.py's
    _build builds it (placeholders in<i> and w, loss = sum(f * w))."""
    tf1 = tf_v1()
    arrays, manifest = {}, {}
    names = list(tf_grad_cases.make_cases(tf1))
    for name in names:
        graph = tf1.Graph()
        with graph.as_default():
            case = tf_grad_cases.make_cases(tf1)[name]  # the same values at every call
            fn, values = case[0], [np.asarray(v, f64) for v in case[1]]
            shapes = case[2] if len(case) > 2 else [v.shape for v in values]
            inputs = [tf1.placeholder(tf1.float64, shape=s, name=f"in{i}")
                      for i, s in enumerate(shapes)]
            out = fn(*inputs)
            weights = tf1.placeholder(tf1.float64, shape=out.shape, name="w")
            loss = tf1.reduce_sum(out * weights)
            before = len(graph.get_operations())
            grads = tf1.gradients(loss, inputs)
            added = graph.get_operations()[before:]
            dense = [None if g is None else tf1.convert_to_tensor(g) for g in grads]
            with tf1.Session(graph=graph) as sess:
                out_value = sess.run(out, dict(zip(inputs, values)))
                w = np.random.RandomState(3).uniform(0.5, 1.5, size=np.shape(out_value))
                feed = {**dict(zip(inputs, values)), weights: w}
                got = sess.run([g for g in dense if g is not None], feed)
        key = npz_key(name)
        for i, value in enumerate(values):
            arrays[f"{key}/in{i}"] = value
        arrays[f"{key}/w"] = w
        got = iter(got)
        for i, g in enumerate(dense):
            if g is not None:
                arrays[f"{key}/grad{i}"] = next(got)
        manifest[name] = {"grads": [g is not None for g in dense],
                          "nodes": [[op.name, op.type, [t.name for t in op.inputs]
                                     + [f"^{c.name}" for c in op.control_inputs]]
                                    for op in added]}
    arrays["__manifest__"] = np.array(json.dumps(manifest, sort_keys=True))
    np.savez_compressed(OUT / "grad_values.npz", **arrays)
    print(f"grad_values: {len(manifest)} cases", file=sys.stderr)


if __name__ == "__main__":
    kernel_cases()
    shape_cases()
    gradient_cases()
