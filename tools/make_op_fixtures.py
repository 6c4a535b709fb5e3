"""Write tests/fixtures/ops/*.npz: real TensorFlow's values and static shapes, op by op.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_op_fixtures.py`.
Each family file holds a JSON manifest ("__manifest__") and, per case, the NodeDef TensorFlow
built ("<case>/node_def", serialized bytes: attrs with TensorFlow's defaults filled in), the
inputs in OpDef order ("<case>/in<i>") and the outputs ("<case>/out<i>") or the error class and
message. `--ops A,B` remakes only those ops' cases and keeps every other case of the files as
it is (TensorFlow's float sums and some error texts vary from run to run in their last digits,
so remaking everything churns the committed files). Kernel cases feed every input through a placeholder of unknown shape, so errors come
from the kernel, not from graph building. Shape cases ("shapes.npz") record input static
shapes, constant inputs, and TensorFlow's static output shapes.
"""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
tf1.disable_eager_execution()
R = tf.raw_ops
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "ops"

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


ONLY_OPS = set()  # --ops: remake only these ops' cases


def write_npz(path, arrays):
    """Writes a family file; with --ops, over the file's other cases as they were."""
    if ONLY_OPS and path.exists():
        old = np.load(path, allow_pickle=False)
        new_cases = json.loads(str(arrays["__manifest__"]))
        cases = [c for c in json.loads(str(old["__manifest__"])) if c["op"] not in ONLY_OPS]
        kept = {c["name"] for c in cases}
        merged = {k: old[k] for k in old.files if k.split("/")[0] in kept}
        merged.update((k, v) for k, v in arrays.items() if k != "__manifest__")
        merged["__manifest__"] = np.array(json.dumps(cases + new_cases))
        arrays = merged
    np.savez_compressed(path, **arrays)


def a(values, dtype=f32):
    return np.array(values, dtype=dtype)


def rnd(*shape, dtype=f32, seed=0, low=-3.0, high=3.0):
    rng = np.random.default_rng(seed + sum(shape))
    return rng.uniform(low, high, shape).astype(dtype)


def core_message(error):
    message = error.message.split("\n\t [[")[0]
    return message.split("\nNode: ")[-1].split("\n", 1)[-1] if "\nNode: " in message \
        else message


class Family:
    def __init__(self, name):
        self.name, self.cases, self.arrays = name, [], {}

    def case(self, op, label, inputs, runs=1, **attrs):
        """One kernel case: `inputs` maps the raw op's arg names to arrays or lists."""
        name = f"{op}.{label}"
        if ONLY_OPS and op not in ONLY_OPS:
            return
        graph = tf.Graph()
        with graph.as_default():
            feeds, kwargs = {}, {}
            for arg, value in inputs.items():
                if isinstance(value, list):
                    kwargs[arg] = [self._placeholder(v, feeds) for v in value]
                else:
                    kwargs[arg] = self._placeholder(value, feeds)
            try:
                getattr(R, op)(**kwargs, **attrs)
            except (TypeError, ValueError) as error:  # TensorFlow has no such kernel signature
                print(f"skipped {name}: {str(error).splitlines()[0]}", file=sys.stderr)
                return
            node = [o for o in graph.get_operations() if o.type == op][-1]
            entry = {"name": name, "op": op, "inputs": len(node.inputs),
                     "outputs": len(node.outputs), "error": None, "runs": runs}
            self.arrays[f"{name}/node_def"] = np.frombuffer(
                node.node_def.SerializeToString(), np.uint8)
            for i, tensor in enumerate(node.inputs):
                self.arrays[f"{name}/in{i}"] = feeds[tensor.op.name][1]
            with tf1.Session(graph=graph) as session:
                feed_dict = {graph.get_tensor_by_name(k + ":0"): v for k, (_, v) in feeds.items()}
                try:
                    for run in range(runs):
                        values = session.run(list(node.outputs), feed_dict)
                        for i, value in enumerate(values):
                            suffix = f"/out{i}" if run == 0 else f"/run{run}/out{i}"
                            self.arrays[name + suffix] = np.asarray(value)
                except tf.errors.OpError as error:
                    entry["error"] = [type(error).__name__, core_message(error)]
        self.cases.append(entry)

    @staticmethod
    def _placeholder(value, feeds):
        value = np.asarray(value)
        placeholder = tf1.placeholder(tf.as_dtype(value.dtype), shape=None)
        feeds[placeholder.op.name] = (placeholder, value)
        return placeholder

    def write(self):
        OUT.mkdir(parents=True, exist_ok=True)
        arrays = dict(self.arrays, __manifest__=np.array(json.dumps(self.cases)))
        write_npz(OUT / f"{self.name}.npz", arrays)
        print(f"{self.name}: {len(self.cases)} cases", file=sys.stderr)


def math_cases():
    fam = Family("math")
    x = a([-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7])
    pos = a([0.1, 0.5, 1.0, 2.0, 4.0, 100.0])
    special = a([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0])
    unary_f = ["Neg", "Abs", "Square", "Exp", "Expm1", "Tanh", "Sigmoid", "Relu", "Relu6",
               "Elu", "Selu", "Softplus", "Softsign", "Sign", "Round", "Floor", "Ceil",
               "Sin", "Cos", "Atan", "Erf", "Erfc", "IsNan", "IsInf", "IsFinite",
               "Reciprocal"]
    for op in unary_f:
        arg = "features" if op in ("Relu", "Relu6", "Elu", "Selu", "Softplus",
                                   "Softsign") else "x"
        fam.case(op, "f32", {arg: x})
        fam.case(op, "special", {arg: special})
    fam.case("Softplus", "large", {"features": a([-100, -20, 20, 100, 0.001])})
    for op in ("Sqrt", "Rsqrt", "Log", "Log1p"):
        fam.case(op, "f32", {"x": pos})
        fam.case(op, "f64", {"x": pos.astype(f64)})
    for op in ("Neg", "Abs", "Square", "Sign"):
        fam.case(op, "i32", {"x": a([-3, -1, 0, 2, 7], i32)})
    fam.case("Round", "f64", {"x": x.astype(f64)})
    fam.case("Round", "i32", {"x": a([-3, 0, 5], i32)})
    fam.case("LogicalNot", "bool", {"x": a([True, False], bool)})
    fam.case("LeakyRelu", "alpha", {"features": x}, alpha=0.3)
    fam.case("Relu", "empty", {"features": np.zeros((0, 3), f32)})
    m23, v3 = rnd(2, 3), rnd(3, seed=1)
    ints_x, ints_y = a([7, -7, 7, -7, 0, 5], i32), a([2, 2, -2, -2, 3, 5], i32)
    binary = ["Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod",
              "Maximum", "Minimum", "Pow", "SquaredDifference", "Atan2", "DivNoNan",
              "TruncateDiv", "TruncateMod", "Less", "LessEqual", "Greater", "GreaterEqual",
              "Equal", "NotEqual"]
    for op in binary:
        xs, ys = (m23, np.abs(v3) + 0.5) if op == "Pow" else (m23, v3)
        if op in ("TruncateDiv", "TruncateMod"):
            xs, ys = ints_x, ints_y
        args = ("y", "x") if op == "Atan2" else ("x", "y")
        fam.case(op, "broadcast", {args[0]: xs, args[1]: ys})
        if op not in ("Atan2", "Pow", "TruncateDiv", "TruncateMod", "RealDiv"):
            fam.case(op, "i32", {args[0]: ints_x, args[1]: ints_y})
        fam.case(op, "scalar", {args[0]: np.float32(2.5), args[1]: v3 if op != "Pow"
                                else np.abs(v3)})
    for op in ("FloorDiv", "FloorMod", "RealDiv", "Div", "DivNoNan", "TruncateDiv"):
        fam.case(op, "f32_edges", {"x": a([1.0, -1.0, 0.0, 1.0, 5.0, -5.0, 5.5, -5.5]),
                                   "y": a([0.0, 0.0, 0.0, 0.1, -3.0, 3.0, 2.0, -2.0])})
    fam.case("FloorDiv", "i64", {"x": ints_x.astype(i64), "y": ints_y.astype(i64)})
    fam.case("Maximum", "nan", {"x": a([np.nan, 1, 2]), "y": a([1, np.nan, 1])})
    fam.case("Minimum", "nan", {"x": a([np.nan, 1, 2]), "y": a([1, np.nan, 1])})
    fam.case("Pow", "i32", {"x": a([2, -3, 0, 5], i32), "y": a([3, 3, 0, 2], i32)})
    for op in ("FloorDiv", "FloorMod", "Div", "TruncateMod"):
        fam.case(op, "zero_error", {"x": a([1, 2], i32), "y": a([0, 1], i32)})
    fam.case("Pow", "negative_error", {"x": a([1, 2], i32), "y": a([-1, 1], i32)})
    fam.case("AddV2", "incompatible", {"x": rnd(2, 3), "y": rnd(4)})
    fam.case("Mul", "incompatible", {"x": rnd(2, 3), "y": rnd(2)})
    fam.case("AddV2", "empty", {"x": np.zeros((0, 3), f32), "y": v3})
    fam.case("AddV2", "i32_scalar", {"x": np.int32(3), "y": np.int32(4)})
    fam.case("LogicalAnd", "bool", {"x": a([True, True, False], bool), "y": a([True, False, False], bool)})
    fam.case("LogicalOr", "bool", {"x": a([True, True, False], bool), "y": a([True, False, False], bool)})
    fam.case("Equal", "nan", {"x": special, "y": special})
    fam.case("AddN", "three", {"inputs": [m23, m23 * 2, m23 - 1]})
    fam.case("AddN", "one", {"inputs": [m23]})
    fam.case("Select", "same_shape", {"condition": m23 > 0, "x": m23, "y": -m23})
    fam.case("Select", "vector_rows", {"condition": a([True, False], bool), "x": m23, "y": -m23})
    fam.case("Select", "scalar", {"condition": np.bool_(False), "x": m23, "y": -m23})
    fam.case("Select", "bad_rows", {"condition": a([True, False, True], bool), "x": m23, "y": -m23})
    fam.case("SelectV2", "broadcast", {"condition": v3 > 0, "t": m23, "e": np.float32(0)})
    fam.case("SelectV2", "incompatible", {"condition": a([True, False, True], bool),
                                          "t": rnd(2, 4), "e": rnd(2, 4)})
    casts = [(special, tf.int32), (a([3e9, -3e9, -2.7, 2.7, 0.5]), tf.int32),
             (a([np.nan, 300, -1, 255.9]), tf.uint8), (x, tf.bool), (x, tf.float64),
             (a([True, False], bool), tf.float32), (a([-3, 7], i64), tf.int32),
             (a([2**31 + 5, -1], i64), tf.int32), (x.astype(f64), tf.int64),
             (a([1.5, 2.5, 1e-40, 70000.0]), tf.float16)]
    for i, (value, dst) in enumerate(casts):
        fam.case("Cast", f"c{i}_{value.dtype}_to_{dst.name}", {"x": value}, DstT=dst)
    fam.case("ClipByValue", "scalars", {"t": x, "clip_value_min": np.float32(-1),
                                        "clip_value_max": np.float32(2)})
    fam.write()


def reduce_cases():
    fam = Family("reduce")
    x = rnd(2, 3, 4)
    ints = np.arange(-7, 17, dtype=i32).reshape(2, 3, 4)
    bools = x > 0
    for op in ("Sum", "Mean", "Max", "Min", "Prod"):
        for label, axis in (("all", a([0, 1, 2], i32)), ("axis1", np.int32(1)),
                            ("neg", np.int32(-1)), ("two", a([0, 2], i32)),
                            ("none", np.zeros(0, i32))):
            fam.case(op, label, {"input": x, "axis": axis})
            fam.case(op, label + "_keep", {"input": x, "axis": axis}, keep_dims=True)
        fam.case(op, "i32", {"input": ints, "axis": a([1], i32)})
        fam.case(op, "empty", {"input": np.zeros((0, 3), f32), "axis": np.int32(0)})
        fam.case(op, "bad_axis", {"input": x, "axis": np.int32(3)})
    fam.case("Mean", "i32_trunc", {"input": a([-7, 0], i32), "axis": np.int32(0)})
    fam.case("Mean", "i32_empty", {"input": np.zeros(0, i32), "axis": np.int32(0)})
    fam.case("Max", "i32_empty", {"input": np.zeros(0, i32), "axis": np.int32(0)})
    fam.case("Max", "nan", {"input": a([1, np.nan, 2]), "axis": np.int32(0)})
    fam.case("Sum", "i64_axis", {"input": x, "axis": np.int64(1)})
    fam.case("Sum", "scalar_bad", {"input": np.float32(1), "axis": np.int32(0)})
    for op in ("All", "Any"):
        fam.case(op, "axis1", {"input": bools, "axis": np.int32(1)})
        fam.case(op, "keep", {"input": bools, "axis": a([0, 2], i32)}, keep_dims=True)
    for op in ("ArgMax", "ArgMin"):
        fam.case(op, "axis0", {"input": x, "dimension": np.int32(0)})
        fam.case(op, "axis2_i32", {"input": x, "dimension": np.int32(2)},
                 output_type=tf.int32)
        fam.case(op, "ints", {"input": ints, "dimension": np.int32(-1)})
        fam.case(op, "ties", {"input": a([1, 3, 3, 1]), "dimension": np.int32(0)})
        fam.case(op, "nan", {"input": a([np.nan, 1, 2]), "dimension": np.int32(0)})
        fam.case(op, "empty", {"input": np.zeros((0, 3), f32), "dimension": np.int32(0)})
        fam.case(op, "bad_axis", {"input": rnd(2, 3), "dimension": np.int32(3)})
    for exclusive in (False, True):
        for reverse in (False, True):
            fam.case("Cumsum", f"e{int(exclusive)}r{int(reverse)}",
                     {"x": x, "axis": np.int32(1)}, exclusive=exclusive, reverse=reverse)
            fam.case("Cumprod", f"e{int(exclusive)}r{int(reverse)}",
                     {"x": ints, "axis": np.int32(-1)}, exclusive=exclusive, reverse=reverse)
    fam.case("L2Loss", "f32", {"t": x})
    fam.write()


def array_cases():
    fam = Family("array")
    x = rnd(2, 3, 4)
    m = rnd(2, 3)
    for op in ("Shape", "Size"):
        fam.case(op, "i32", {"input": x})
        fam.case(op, "i64", {"input": x}, out_type=tf.int64)
    fam.case("Shape", "scalar", {"input": np.float32(1)})
    fam.case("Rank", "r3", {"input": x})
    for label, shape in (("plain", a([4, 6], i32)), ("minus1", a([-1, 2], i32)),
                         ("scalar", a([], i32)), ("bad_size", a([4, 2], i32)),
                         ("bad_multiple", a([-1, 5], i32)), ("two_minus1", a([-1, -1], i32))):
        fam.case("Reshape", label, {"tensor": rnd(24) if label != "scalar" else a([3.0]),
                                    "shape": shape})
    fam.case("Reshape", "empty", {"tensor": np.zeros((0, 3), f32), "shape": a([-1, 3], i32)})
    for label, perm in (("021", a([0, 2, 1], i32)), ("210", a([2, 1, 0], i64)),
                        ("short", a([0, 1], i32)), ("dup", a([0, 0, 1], i32))):
        fam.case("Transpose", label, {"x": x, "perm": perm})
    fam.case("ConcatV2", "axis0", {"values": [m, rnd(1, 3)], "axis": np.int32(0)})
    fam.case("ConcatV2", "axis_neg", {"values": [m, rnd(2, 1), m], "axis": np.int32(-1)})
    fam.case("ConcatV2", "rank_mismatch", {"values": [m, rnd(3)], "axis": np.int32(0)})
    fam.case("ConcatV2", "dim_mismatch", {"values": [m, rnd(2, 4)], "axis": np.int32(0)})
    fam.case("ConcatV2", "bad_axis", {"values": [m, m], "axis": np.int32(2)})
    fam.case("ConcatV2", "scalars", {"values": [np.float32(1), np.float32(2)],
                                     "axis": np.int32(0)})
    for axis in (0, 1, -1):
        fam.case("Pack", f"axis{axis}", {"values": [m, m + 1, m * 2]}, axis=axis)
        fam.case("Unpack", f"axis{axis}", {"value": x}, num=x.shape[axis], axis=axis)
    fam.case("Pack", "mismatch", {"values": [m, rnd(2, 4)]})
    fam.case("Pack", "scalars", {"values": [np.int32(1), np.int32(2)]})
    fam.case("Split", "axis1", {"axis": np.int32(1), "value": rnd(2, 6)}, num_split=3)
    fam.case("Split", "uneven", {"axis": np.int32(1), "value": rnd(2, 5)}, num_split=3)
    fam.case("SplitV", "sizes", {"value": rnd(2, 6), "size_splits": a([1, -1, 2], i32),
                                 "axis": np.int32(1)}, num_split=3)
    for label, begin, size in (("plain", [0, 1, 1], [2, 1, 3]), ("minus1", [1, 0, 2],
                               [-1, -1, -1]), ("bad", [0, 3, 0], [1, 3, 1]),
                               ("empty", [0, 0, 0], [0, 2, 2])):
        fam.case("Slice", label, {"input": x, "begin": a(begin, i32), "size": a(size, i32)})
    big = np.arange(2 * 3 * 4 * 5, dtype=f32).reshape(2, 3, 4, 5)
    ss = [  # (label, begin, end, strides, masks)
        ("basic", [0, 1], [2, 3], [1, 1], {}),
        ("neg_stride", [-1, -1], [-3, 0], [-1, -2], {}),
        ("begin_mask", [1, 1], [2, 3], [1, 1], {"begin_mask": 3}),
        ("end_mask", [1, 1], [0, 0], [1, 1], {"end_mask": 2}),
        ("shrink", [1, 2], [2, 3], [1, 1], {"shrink_axis_mask": 1}),
        ("shrink_neg", [-1, -1], [0, 0], [1, 1], {"shrink_axis_mask": 3}),
        ("ellipsis", [0, 1], [0, 3], [1, 2], {"ellipsis_mask": 1}),
        ("ellipsis_mid", [1, 0, 1], [2, 0, 3], [1, 1, 1], {"ellipsis_mask": 2}),
        ("new_axis", [0, 0, 1], [0, 2, 2], [1, 1, 1], {"new_axis_mask": 1}),
        ("new_axis_after_ellipsis", [0, 0, 1], [0, 0, 3], [1, 1, 1],
         {"ellipsis_mask": 1, "new_axis_mask": 2}),
        ("all_masks", [0, 0, 0, 1], [1, 0, 0, 3], [1, 1, 1, -1],
         {"begin_mask": 8, "end_mask": 8, "ellipsis_mask": 2, "new_axis_mask": 4,
          "shrink_axis_mask": 1}),
        ("clamp", [-100, 1], [100, 100], [1, 3], {}),
        ("rev_all", [0], [0], [-1], {"begin_mask": 1, "end_mask": 1}),
        ("empty_range", [3, 0], [1, 5], [1, 1], {}),
        ("shrink_out_of_range", [5], [6], [1], {"shrink_axis_mask": 1}),
        ("zero_stride", [0], [1], [0], {}),
        ("too_many", [0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], {}),
        ("two_ellipses", [0, 0], [1, 1], [1, 1], {"ellipsis_mask": 3}),
    ]
    for label, begin, end, strides, masks in ss:
        fam.case("StridedSlice", label, {"input": big, "begin": a(begin, i32),
                                         "end": a(end, i32), "strides": a(strides, i32)},
                 **masks)
    fam.case("Squeeze", "all", {"input": rnd(1, 3, 1)})
    fam.case("Squeeze", "dims", {"input": rnd(1, 3, 1)}, axis=[-1])
    fam.case("Squeeze", "bad", {"input": rnd(1, 3, 1)}, axis=[1])
    for dim in (0, -1, 2):
        fam.case("ExpandDims", f"d{dim}", {"input": m, "axis": np.int32(dim)})
    fam.case("ExpandDims", "bad", {"input": m, "axis": np.int32(4)})
    fam.case("Tile", "plain", {"input": m, "multiples": a([2, 3], i32)})
    fam.case("Tile", "bad", {"input": m, "multiples": a([2], i32)})
    fam.case("Pad", "plain", {"input": m, "paddings": a([[1, 0], [2, 1]], i32)})
    fam.case("PadV2", "value", {"input": m, "paddings": a([[1, 1], [0, 2]], i32),
                                "constant_values": np.float32(-1)})
    for mode in ("REFLECT", "SYMMETRIC"):
        fam.case("MirrorPad", mode, {"input": m, "paddings": a([[1, 1], [2, 2]], i32)},
                 mode=mode)
    fam.case("Fill", "plain", {"dims": a([2, 3], i32), "value": np.float32(7)})
    fam.case("Fill", "int64", {"dims": a([0, 3], i64), "value": np.int64(7)})
    for label, args in (("i32", (0, 10, 3)), ("neg", (10, 1, -3)), ("f32", (0.0, 1.0, 0.1)),
                        ("f32b", (-1.5, 2.2, 0.3)), ("f64", (0.0, 1.0, 0.1)),
                        ("empty", (3, 3, 1)), ("bad", (5, 1, 1)), ("zero", (0, 5, 0))):
        dtype = f64 if label == "f64" else (f32 if "f32" in label else i32)
        fam.case("Range", label, {"start": dtype(args[0]), "limit": dtype(args[1]),
                                  "delta": dtype(args[2])})
    params = rnd(3, 4)
    for label, indices, axis in (("axis0", a([2, 0, 2], i32), 0), ("axis1", a([[3, 1],
                                 [0, 0]], i64), 1), ("scalar", np.int32(1), -1),
                                 ("bad", a([0, 4], i32), 0), ("bad2d", a([[0, 1], [5, 0]],
                                 i32), 1)):
        fam.case("GatherV2", label, {"params": params, "indices": indices,
                                     "axis": np.int32(axis)})
    fam.case("GatherV2", "batch_dims", {"params": rnd(2, 3, 4), "indices": a([[0, 2],
             [1, 1]], i32), "axis": np.int32(2)}, batch_dims=1)
    for label, axis in (("last", -1), ("first", 0)):
        fam.case("OneHot", label, {"indices": a([[0, 2], [-1, 5]], i32),
                                   "depth": np.int32(4), "on_value": np.float32(5),
                                   "off_value": np.float32(-1)}, axis=axis)
    for op in ("Identity", "StopGradient", "PreventGradient", "ZerosLike", "OnesLike"):
        fam.case(op, "f32", {"input" if op not in ("ZerosLike", "OnesLike") else "x": m})
    fam.case("IdentityN", "two", {"input": [m, a([1, 2], i32)]})
    fam.case("PlaceholderWithDefault", "plain", {"input": m}, shape=[None, 3])
    fam.case("Where", "bool", {"condition": m > 0})
    fam.case("ReverseV2", "axes", {"tensor": x, "axis": a([0, -1], i32)})
    fam.case("BroadcastTo", "plain", {"input": rnd(3), "shape": a([2, 3], i32)})
    fam.case("BroadcastTo", "bad", {"input": rnd(3), "shape": a([2, 4], i32)})
    fam.case("InvertPermutation", "plain", {"x": a([2, 0, 1], i32)})
    fam.write()


def nn_cases():
    fam = Family("nn")
    fam.case("MatMul", "plain", {"a": rnd(2, 3), "b": rnd(3, 4)})
    fam.case("MatMul", "ta_tb", {"a": rnd(3, 2), "b": rnd(4, 3)}, transpose_a=True,
             transpose_b=True)
    fam.case("MatMul", "i32", {"a": a([[1, 2], [3, 4]], i32), "b": a([[5], [6]], i32)})
    fam.case("MatMul", "bad", {"a": rnd(2, 3), "b": rnd(4, 2)})
    fam.case("BatchMatMulV2", "broadcast", {"x": rnd(2, 1, 2, 3), "y": rnd(3, 3, 4)})
    fam.case("BatchMatMulV2", "adj", {"x": rnd(2, 3, 2), "y": rnd(2, 4, 3)}, adj_x=True,
             adj_y=True)
    fam.case("BatchMatMulV2", "bad_batch", {"x": rnd(2, 2, 3), "y": rnd(3, 3, 2)})
    fam.case("BatchMatMulV2", "bad_inner", {"x": rnd(2, 2, 3), "y": rnd(2, 4, 2)})
    fam.case("BiasAdd", "nhwc", {"value": rnd(2, 3, 4), "bias": rnd(4)})
    fam.case("BiasAdd", "nchw", {"value": rnd(2, 3, 4, 5), "bias": rnd(3)},
             data_format="NCHW")
    fam.case("BiasAdd", "bad", {"value": rnd(2, 3), "bias": rnd(4)})
    fam.case("Softmax", "2d", {"logits": rnd(3, 5)})
    fam.case("Softmax", "large", {"logits": a([[1000, 1001, 999], [-1e4, 0, 1e4]])})
    fam.case("LogSoftmax", "2d", {"logits": rnd(3, 5)})
    fam.case("LogSoftmax", "3d", {"logits": rnd(2, 3, 4)})
    fam.case("SoftmaxCrossEntropyWithLogits", "plain",
             {"features": rnd(3, 4), "labels": np.abs(rnd(3, 4, seed=5))})
    fam.case("SparseSoftmaxCrossEntropyWithLogits", "plain",
             {"features": rnd(3, 4), "labels": a([0, 3, 1], i32)})
    image, image_odd = rnd(2, 7, 6, 3), rnd(1, 5, 5, 2)
    for padding in ("SAME", "VALID"):
        for label, strides, dilations in (("s1", [1, 1, 1, 1], [1, 1, 1, 1]),
                                          ("s2", [1, 2, 2, 1], [1, 1, 1, 1]),
                                          ("s21", [1, 2, 1, 1], [1, 1, 1, 1]),
                                          ("d2", [1, 1, 1, 1], [1, 2, 2, 1])):
            fam.case("Conv2D", f"{padding}_{label}", {"input": image, "filter": rnd(3, 2, 3, 4)},
                     strides=strides, padding=padding, dilations=dilations)
        for label, ksize, strides in (("k2s2", [1, 2, 2, 1], [1, 2, 2, 1]),
                                      ("k3s2", [1, 3, 3, 1], [1, 2, 2, 1]),
                                      ("k3s1", [1, 3, 2, 1], [1, 1, 1, 1])):
            for op in ("MaxPool", "AvgPool"):
                arg = "value" if op == "AvgPool" else "input"
                fam.case(op, f"{padding}_{label}", {arg: image_odd if "k3" in label
                                                    else image}, ksize=ksize,
                         strides=strides, padding=padding)
    fam.case("Conv2D", "explicit", {"input": image_odd, "filter": rnd(2, 2, 2, 3)},
             strides=[1, 1, 1, 1], padding="EXPLICIT",
             explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0])
    fam.case("Conv2D", "bad_depth", {"input": image, "filter": rnd(3, 3, 2, 4)},
             strides=[1, 1, 1, 1], padding="SAME")
    fam.case("MaxPool", "i32", {"input": np.arange(32, dtype=i32).reshape(1, 4, 4, 2)},
             ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    fam.case("TopKV2", "plain", {"input": a([[1, 3, 2, 3], [0, -1, 5, 4]]), "k": np.int32(3)})
    scores = a([[0.1, 0.7, 0.2, 0.7], [0.5, 0.5, 0.5, 0.5], [3.0, -1.0, 2.0, 1.0]])
    fam.case("InTopKV2", "k1_ties", {"predictions": scores, "targets": a([1, 2, 2], i32),
                                     "k": np.int32(1)})
    fam.case("InTopKV2", "k2", {"predictions": scores, "targets": a([2, 0, 3], i32),
                                "k": np.int32(2)})
    fam.case("InTopKV2", "k0", {"predictions": scores, "targets": a([1, 2, 0], i32),
                                "k": np.int32(0)})
    fam.case("InTopKV2", "k_past_classes", {"predictions": scores,
                                            "targets": a([0, 1, 1], i64), "k": np.int64(9)})
    fam.case("InTopKV2", "out_of_range_and_nan",
             {"predictions": a([[0.1, np.nan, 0.3], [0.2, 0.1, np.inf], [1.0, 2.0, 3.0]]),
              "targets": a([5, 1, -1], i32), "k": np.int32(3)})
    fam.case("InTopKV2", "nan_elsewhere",
             {"predictions": a([[np.nan, 0.5, 0.1], [np.inf, 0.5, 0.6]]),
              "targets": a([1, 2], i32), "k": np.int32(1)})
    fam.case("InTopKV2", "bad_batch", {"predictions": scores, "targets": a([0, 1], i32),
                                       "k": np.int32(1)})
    fam.case("InTopKV2", "bad_rank", {"predictions": a([0.1, 0.2]), "targets": a([0], i32),
                                      "k": np.int32(1)})
    fam.case("InTopKV2", "bad_k", {"predictions": scores, "targets": a([0, 1, 2], i32),
                                   "k": a([1, 2], i32)})
    fam.write()


def random_cases():
    fam = Family("random")
    for dtype in (tf.float32, tf.float64, tf.float16):
        for op in ("RandomUniform", "RandomStandardNormal", "TruncatedNormal"):
            if dtype == tf.float16 and op != "RandomUniform":
                continue
            fam.case(op, f"{dtype.name}_7_11", {"shape": a([3, 67], i32)}, runs=2,
                     dtype=dtype, seed=7, seed2=11)
    fam.case("RandomStandardNormal", "seed_only", {"shape": a([5], i32)}, runs=2,
             dtype=tf.float32, seed=87654321, seed2=3)
    fam.case("TruncatedNormal", "odd", {"shape": a([2, 3], i64)}, runs=3,
             dtype=tf.float32, seed=1, seed2=2)
    fam.case("RandomUniformInt", "i32", {"shape": a([201], i32), "minval": np.int32(-5),
                                         "maxval": np.int32(17)}, runs=2, seed=7, seed2=11)
    fam.case("RandomUniformInt", "i64", {"shape": a([51], i32), "minval": np.int64(-5),
                                         "maxval": np.int64(2**40)}, runs=2, seed=3, seed2=4)
    fam.case("RandomUniformInt", "bad", {"shape": a([3], i32), "minval": np.int32(5),
                                         "maxval": np.int32(5)}, seed=1, seed2=1)
    fam.write()


def shape_cases():
    """Static shapes: (op, label, {arg: ("ph", shape) | ("const", value)}, attrs)."""
    cases, arrays = [], {}

    def case(op, label, inputs, **attrs):
        name = f"{op}.{label}"
        if ONLY_OPS and op not in ONLY_OPS:
            return
        graph = tf.Graph()
        entry = {"name": name, "op": op, "inputs": [], "outputs": None, "error": None}
        with graph.as_default():
            kwargs = {}
            specs = []
            for arg, spec in inputs.items():
                items = spec if isinstance(spec, list) else [spec]
                made = []
                for kind, payload, *dtype in items:
                    dtype = dtype[0] if dtype else tf.float32
                    if kind == "ph":
                        made.append(tf1.placeholder(dtype, shape=payload))
                    else:
                        made.append(tf.constant(payload))
                    specs.append((kind, payload, dtype))
                kwargs[arg] = made if isinstance(spec, list) else made[0]
            try:
                getattr(R, op)(**kwargs, **attrs)
            except (ValueError, tf.errors.OpError) as error:
                entry["error"] = str(error).split(" for '{{node")[0]
                node = None
            else:
                node = [o for o in graph.get_operations() if o.type == op][-1]
        if node is not None:
            arrays[f"{name}/node_def"] = np.frombuffer(node.node_def.SerializeToString(),
                                                       np.uint8)
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

    ph = lambda shape, dtype=tf.float32: ("ph", shape, dtype)  # noqa: E731
    c = lambda value: ("const", value)  # noqa: E731
    for op in ("AddV2", "Mul", "Less", "FloorDiv"):
        case(op, "unknown_dims", {"x": ph([None, 3, 1]), "y": ph([4, 1, 5])})
        case(op, "unknown_rank", {"x": ph(None), "y": ph([4])})
        case(op, "scalar", {"x": ph([]), "y": ph([2, None])})
        case(op, "ones", {"x": ph([1, None]), "y": ph([None, 1])})
    case("AddV2", "incompatible", {"x": ph([2, 3]), "y": ph([4])})
    case("Relu", "partial", {"features": ph([None, 3])})
    case("AddN", "merge", {"inputs": [ph([None, 3]), ph([2, None])]})
    for op in ("Sum", "Mean", "Max", "All"):
        dtype = tf.bool if op == "All" else tf.float32
        case(op, "axis1", {"input": ph([2, None, 4], dtype), "axis": c(np.int32(1))})
        case(op, "keep", {"input": ph([2, None, 4], dtype), "axis": c(a([0, -1], i32))},
             keep_dims=True)
        case(op, "unknown_axis", {"input": ph([2, None, 4], dtype),
                                  "axis": ph([1], tf.int32)})
        case(op, "unknown_axis_keep", {"input": ph([2, None, 4], dtype),
                                       "axis": ph([1], tf.int32)}, keep_dims=True)
    case("ArgMax", "axis", {"input": ph([2, None, 4]), "dimension": c(np.int32(-1))})
    case("MatMul", "plain", {"a": ph([None, 3]), "b": ph([3, 5])})
    case("MatMul", "transposed", {"a": ph([3, 2]), "b": ph([None, 3])}, transpose_a=True,
         transpose_b=True)
    case("MatMul", "bad", {"a": ph([2, 3]), "b": ph([4, 5])})
    case("BatchMatMulV2", "broadcast", {"x": ph([None, 1, 2, 3]), "y": ph([5, 3, 4])})
    for padding in ("SAME", "VALID"):
        case("Conv2D", padding, {"input": ph([None, 7, 6, 3]), "filter": ph([3, 2, 3, 8])},
             strides=[1, 2, 2, 1], padding=padding)
        case("MaxPool", padding, {"input": ph([None, 7, None, 3])}, ksize=[1, 3, 3, 1],
             strides=[1, 2, 2, 1], padding=padding)
        case("AvgPool", padding, {"value": ph([4, 5, 5, 3])}, ksize=[1, 2, 2, 1],
             strides=[1, 2, 2, 1], padding=padding)
    case("Shape", "partial", {"input": ph([None, 3])})
    case("Shape", "unknown", {"input": ph(None)})
    case("Size", "plain", {"input": ph([None, 3])})
    case("Rank", "plain", {"input": ph([None, 3])})
    case("Reshape", "const", {"tensor": ph([2, 3, 4]), "shape": c(a([-1, 4], i32))})
    case("Reshape", "partial", {"tensor": ph([None, 3]), "shape": c(a([-1, 3, 1], i32))})
    case("Reshape", "unknown_shape_value", {"tensor": ph([None, 3]),
                                            "shape": ph([3], tf.int32)})
    case("Reshape", "bad", {"tensor": ph([2, 3]), "shape": c(a([4, 2], i32))})
    case("Transpose", "const", {"x": ph([2, None, 4]), "perm": c(a([2, 0, 1], i32))})
    case("Transpose", "unknown_perm", {"x": ph([2, None, 4]), "perm": ph([3], tf.int32)})
    case("ConcatV2", "const_axis", {"values": [ph([2, None]), ph([None, 3]), ph([2, 4])],
                                    "axis": c(np.int32(1))})
    case("ConcatV2", "unknown_axis", {"values": [ph([2, 3]), ph([2, 3])],
                                      "axis": ph([], tf.int32)})
    case("Pack", "axis1", {"values": [ph([2, None]), ph([None, 3])]}, axis=1)
    case("Unpack", "axis0", {"value": ph([3, None, 2])}, num=3)
    case("Split", "const", {"axis": c(np.int32(1)), "value": ph([None, 6])}, num_split=3)
    case("SplitV", "const", {"value": ph([None, 6]), "size_splits": c(a([1, -1, 2], i32)),
                             "axis": c(np.int32(1))}, num_split=3)
    case("Slice", "const", {"input": ph([5, None, 4]), "begin": c(a([1, 0, 2], i32)),
                            "size": c(a([2, -1, -1], i32))})
    for label, begin, end, strides, masks in (
            ("basic", [0, 1], [2, 3], [1, 1], {}),
            ("shrink", [1], [2], [1], {"shrink_axis_mask": 1}),
            ("ellipsis_newaxis", [0, 0], [0, 0], [1, 1], {"ellipsis_mask": 1,
                                                         "new_axis_mask": 2}),
            ("unknown_dim", [0, 1], [0, 3], [1, 1], {"begin_mask": 1, "end_mask": 1}),
            ("neg", [-1], [0], [-1], {"end_mask": 1})):
        case("StridedSlice", label, {"input": ph([4, None, 6]), "begin": c(a(begin, i32)),
                                     "end": c(a(end, i32)), "strides": c(a(strides, i32))},
             **masks)
    case("Squeeze", "all", {"input": ph([1, 3, 1])})
    case("Squeeze", "dims", {"input": ph([1, None, 1])}, axis=[0])
    case("ExpandDims", "neg", {"input": ph([2, None]), "axis": c(np.int32(-1))})
    case("Tile", "const", {"input": ph([2, None]), "multiples": c(a([3, 2], i32))})
    case("Pad", "const", {"input": ph([2, None]), "paddings": c(a([[1, 1], [0, 2]], i32))})
    case("Fill", "const", {"dims": c(a([2, 3], i32)), "value": ph([])})
    case("Fill", "unknown", {"dims": ph([3], tf.int32), "value": ph([])})
    case("Range", "const", {"start": c(np.int32(1)), "limit": c(np.int32(10)),
                            "delta": c(np.int32(4))})
    case("Range", "float", {"start": c(np.float32(0)), "limit": c(np.float32(1)),
                            "delta": c(np.float32(0.3))})
    case("Range", "unknown", {"start": c(np.int32(1)), "limit": ph([], tf.int32),
                              "delta": c(np.int32(4))})
    case("GatherV2", "axis1", {"params": ph([3, None, 5]), "indices": ph([2, 7], tf.int32),
                               "axis": c(np.int32(1))})
    case("OneHot", "axis0", {"indices": ph([None, 2], tf.int32), "depth": c(np.int32(4)),
                             "on_value": c(np.float32(1)), "off_value": c(np.float32(0))},
         axis=0)
    case("Placeholder", "partial", {}, dtype=tf.float32, shape=[None, 3])
    case("Placeholder", "unknown", {}, dtype=tf.float32, shape=None)
    case("PlaceholderWithDefault", "plain", {"input": c(rnd(2, 3))}, shape=[None, 3])
    case("RandomUniform", "const", {"shape": c(a([2, 5], i32))}, dtype=tf.float32)
    case("Softmax", "plain", {"logits": ph([None, 10])})
    case("BiasAdd", "plain", {"value": ph([None, 10]), "bias": ph([10])})
    case("Cast", "plain", {"x": ph([None, 2])}, DstT=tf.int32)
    case("SelectV2", "broadcast", {"condition": ph([3], tf.bool), "t": ph([2, 1]),
                                   "e": ph([])})
    case("Where", "plain", {"condition": ph([2, None], tf.bool)})
    # Control flow v1, and the ops whose shape functions came with the op registry.
    case("Switch", "plain", {"data": ph([None, 3]), "pred": ph([], tf.bool)})
    case("Merge", "agree", {"inputs": [ph([2, 3]), ph([2, 3])]})
    case("Merge", "differ", {"inputs": [ph([2, 3]), ph([2, 4]), ph([None, 3])]})
    case("Merge", "ranks", {"inputs": [ph([2, 3]), ph([2])]})
    case("Merge", "unknown", {"inputs": [ph(None), ph([2])]})
    case("Enter", "plain", {"data": ph([2, 3])}, frame_name="f")
    case("Enter", "constant", {"data": ph([2, 3])}, frame_name="f", is_constant=True)
    case("Exit", "plain", {"data": ph([None, 3])})
    case("NextIteration", "plain", {"data": ph([4])})
    case("LoopCond", "plain", {"input": ph([], tf.bool)})
    case("EnsureShape", "merge", {"input": ph([None, 3])}, shape=[2, None])
    case("BroadcastArgs", "plain", {"s0": ph([3], tf.int32), "s1": ph([1], tf.int32)})
    case("BroadcastArgs", "unknown", {"s0": ph([None], tf.int32), "s1": ph([1], tf.int32)})
    case("ConcatOffset", "plain", {"concat_dim": c(np.int32(1)),
                                   "shape": [ph([3], tf.int32), ph([3], tf.int32)]})
    case("DynamicStitch", "const", {"indices": [c(a([0, 2], i32)), c(a([[1], [4]], i32))],
                                    "data": [ph([2, 5]), ph([2, 1, 5])]})
    case("DynamicStitch", "fed", {"indices": [ph([None], tf.int32)],
                                  "data": [ph([None, 7])]})
    case("ParallelDynamicStitch", "const", {"indices": [c(a([1, 0], i32))],
                                            "data": [ph([2, None])]})
    case("ListDiff", "plain", {"x": ph([5], tf.int32), "y": ph([2], tf.int32)})
    case("TopKV2", "const_k", {"input": ph([None, 6]), "k": c(np.int32(2))})
    case("TopKV2", "fed_k", {"input": ph([4, 6]), "k": ph([], tf.int32)})
    case("MaxPoolV2", "const", {"input": ph([2, 8, 8, 3]), "ksize": c(a([1, 2, 2, 1], i32)),
                                "strides": c(a([1, 2, 2, 1], i32))}, padding="VALID")
    case("MaxPoolV2", "fed", {"input": ph([2, 8, 8, 3]), "ksize": ph([4], tf.int32),
                              "strides": ph([4], tf.int32)}, padding="SAME")
    case("InTopKV2", "plain", {"predictions": ph([None, 10]), "targets": ph([4], tf.int32),
                               "k": c(np.int32(3))})
    case("InTopKV2", "bad", {"predictions": ph([3, 10]), "targets": ph([4], tf.int32),
                             "k": c(np.int32(3))})
    case("StackPopV2", "unknown", {"handle": ph([2], tf.resource)}, elem_type=tf.float32)
    case("ReadVariableOp", "unknown", {"resource": ph([], tf.resource)}, dtype=tf.float32)
    case("TemporaryVariable", "plain", {}, shape=[3, None], dtype=tf.float32)
    arrays["__manifest__"] = np.array(json.dumps(cases))
    write_npz(OUT / "shapes.npz", arrays)
    print(f"shapes: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--ops"]:
        ONLY_OPS.update(sys.argv[2].split(","))
    for make in (math_cases, reduce_cases, array_cases, nn_cases, random_cases, shape_cases):
        make()
