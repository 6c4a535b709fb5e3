"""TF1 graph-building snippets run on both TensorFlow (tools/make_api_fixtures.py) and the engine.

Each runs with `tf` and `np` bound, in a fresh default graph; what it prints and the GraphDef
it leaves behind must match. Error lines print the class name, and the message where the
engine promises TensorFlow's words.
"""

SNIPPETS = {
    "constants": """
a = tf.constant(1)
b = tf.constant(2.5, name="b")
c = tf.constant([1, 2, 3])
d = tf.constant([[1.0, 2.0], [3.0, 4.0]])
e = tf.constant(0.0, shape=[2, 3])
f = tf.constant([1, 2], shape=[2, 2])
g = tf.constant(7, dtype=tf.int64)
h = tf.constant([True, False])
i = tf.constant(b"bytes")
j = tf.constant(["a", "bc"])
k = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
l = tf.constant(np.float64(2.0))
m = tf.constant(1.5, dtype=tf.float16)
n = tf.constant([5, 5, 5, 5])
o = tf.constant(np.zeros((2, 2), np.int64))
p = tf.constant(3, dtype=tf.float32)
q = tf.constant([1.0, 2.0, 2.0])
r = tf.constant(np.array([1, 2], np.uint8))
s = tf.constant([], dtype=tf.float32)
for t in (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s):
    print(t, repr(t))
""",
    "name_scopes": """
c0 = tf.constant(0, name="c")
c1 = tf.constant(2, name="c")
with tf.name_scope("outer") as scope:
    print(repr(scope))
    c2 = tf.constant(2, name="c")
    with tf.name_scope("inner"):
        c3 = tf.constant(3, name="c")
    with tf.name_scope("inner") as s2:
        print(repr(s2))
        c5 = tf.constant(5, name="c")
    with tf.name_scope("outer/inner/"):
        c6 = tf.constant(6, name="c")
    with tf.name_scope(None) as s3:
        print(repr(s3))
        c7 = tf.constant(7, name="c")
    with tf.name_scope(""):
        c8 = tf.constant(7, name="c")
with tf.name_scope("outer") as s4:
    print(repr(s4))
a1 = tf.add(c0, c1)
a2 = tf.add(c0, c1)
a3 = tf.add(c0, c1, name="add")
a4 = tf.add(c0, c1, name="Add")
o = tf.constant(8, name="outer")
with tf.name_scope("add"):
    sc = tf.constant(9, name="c")
with tf.name_scope("Add"):
    sc2 = tf.constant(9)
with tf.name_scope("x/y"):
    xy = tf.constant(1)
g = tf.get_default_graph()
print(g.unique_name("foo"), g.unique_name("foo"), g.unique_name("foo", mark_as_used=False))
print(g.unique_name("Add"), g.unique_name("outer"))
z = tf.constant(1, name="foo_1")
z2 = tf.constant(1, name="foo")
print(z.name, z2.name)
w = tf.constant(1, name="w_1")
w2 = tf.constant(1, name="w")
w3 = tf.constant(1, name="w")
print(w.name, w2.name, w3.name)
print(g.get_name_scope())
with g.name_scope("gs"):
    print(g.get_name_scope())
for op in g.get_operations():
    print(op.name, op.type)
""",
    "variables": """
v = tf.Variable(0, name="counter")
w = tf.Variable([1.0, 2.0])
x = tf.Variable(tf.zeros([2, 3]), name="x", trainable=False)
with tf.name_scope("scope"):
    y = tf.Variable(tf.random_normal([3], seed=1), name="y")
z = tf.Variable(3.0, dtype=tf.float64)
u = tf.Variable(np.ones((2,), np.int64))
print(v, w, x, y, z, u)
print(v.name, v.op.name, v.dtype, v.shape, v.initializer.name, v.initial_value.name)
print(v.value().name, v.read_value().name, v._ref().name, v.graph is tf.get_default_graph())
print(tf.convert_to_tensor(v).name, v.get_shape(), y.initial_value.op.type)
print([t.name for t in tf.global_variables()])
print([t.name for t in tf.trainable_variables()])
print([t.name for t in tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES)])
a = tf.assign(v, 5)
b = tf.assign_add(v, 1)
c = tf.assign_sub(v, 2)
d = v.assign(1)
e = v.assign_add(1)
f = v.assign_sub(1)
print(a, b, c, d, e, f)
i1 = tf.global_variables_initializer()
i2 = tf.initialize_all_variables()
i3 = tf.variables_initializer([v, w], name="some")
i4 = tf.local_variables_initializer()
r = tf.report_uninitialized_variables()
print(i1.name, i1.type, [t.name for t in i1.control_inputs])
print(i2.name, i3.name, i4.name, r.name)
s = v + 1
print(s, v * 2.0 if False else v * 2)
print(tf.is_variable_initialized(v).name)
""",
    "resource_variables": """
v = tf.Variable(1.0, name="rv", use_resource=True)
print(v, type(v).__name__ in ("ResourceVariable", "RefVariable"))
print(v.name, v.handle.name, v.dtype, v.initializer.name, v.value().name, v.read_value().name)
a = v.assign(2.0)
b = v.assign_add(1.0)
c = tf.assign_sub(v, 1.0)
print(a.name, b.name, c.name)
with tf.variable_scope("vs"):
    g = tf.get_variable("g", [2], initializer=tf.zeros_initializer(), use_resource=True)
print(g.name, g.initializer.name)
i = tf.global_variables_initializer()
print(i.name, sorted(t.name for t in i.control_inputs))
print(tf.convert_to_tensor(v).name)
""",
    "get_variable": """
with tf.variable_scope("layer"):
    w = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.5))
    b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
    k = tf.get_variable("k", [2], dtype=tf.int32, initializer=tf.ones_initializer())
    u = tf.get_variable("u", [4, 4], initializer=tf.random_uniform_initializer(-1, 1, seed=3))
    n = tf.get_variable("n", [4], initializer=tf.random_normal_initializer(seed=4))
    t = tf.get_variable("t", [4], initializer=tf.truncated_normal_initializer(seed=5))
print(w, b, k)
with tf.variable_scope("layer", reuse=True):
    w2 = tf.get_variable("w")
print(w2 is w)
with tf.variable_scope("layer") as scope:
    scope.reuse_variables()
    b2 = tf.get_variable("b")
print(b2 is b)
try:
    with tf.variable_scope("layer"):
        tf.get_variable("w", [2, 3])
except ValueError as e:
    print("ValueError", str(e).splitlines()[0])
try:
    with tf.variable_scope("layer", reuse=True):
        tf.get_variable("nope", [1])
except ValueError as e:
    print("ValueError", str(e).splitlines()[0])
with tf.variable_scope("outer"):
    with tf.variable_scope("inner"):
        x = tf.get_variable("x", [1])
        y = tf.constant(1, name="c")
print(x.name, y.name)
with tf.variable_scope("outer"):
    z = tf.constant(1, name="c")
print(z.name)
with tf.variable_scope(None, default_name="dflt"):
    q = tf.get_variable("q", [])
with tf.variable_scope(None, default_name="dflt"):
    q2 = tf.get_variable("q", [])
print(q.name, q2.name)
""",
    "math_ops": """
x = tf.constant([[1.0, -2.0], [3.0, 4.0]], name="x")
y = tf.constant([[0.5, 2.0], [-1.0, 2.0]], name="y")
i = tf.constant([3, -7], name="i")
j = tf.constant([2, 2], name="j")
res = [
    tf.add(x, y), tf.add_n([x, y, x]), tf.subtract(x, y), tf.multiply(x, y), tf.divide(x, y),
    tf.truediv(x, y), tf.div(x, y), tf.div(i, j), tf.truediv(i, j), tf.divide(i, j),
    tf.floordiv(i, j), tf.mod(i, j), tf.maximum(x, y), tf.minimum(x, y), tf.negative(x),
    tf.abs(x), tf.square(x), tf.sqrt(x), tf.rsqrt(x), tf.exp(x), tf.log(x), tf.pow(x, y),
    tf.tanh(x), tf.sigmoid(x), tf.sign(x), tf.round(x), tf.floor(x), tf.ceil(x),
    tf.reciprocal(x), tf.matmul(x, y), tf.matmul(x, y, transpose_a=True, transpose_b=True),
    tf.reduce_sum(x), tf.reduce_sum(x, 0), tf.reduce_sum(x, axis=1, keepdims=True),
    tf.reduce_sum(x, reduction_indices=[0], keep_dims=True), tf.reduce_mean(x, [0, 1]),
    tf.reduce_max(x, -1), tf.reduce_min(x), tf.reduce_prod(x),
    tf.reduce_all(tf.constant([True, False])), tf.reduce_any(tf.constant([True, False])),
    tf.count_nonzero(x), tf.count_nonzero(x, axis=0, keepdims=True),
    tf.argmax(x, 1), tf.argmin(x, axis=0), tf.argmax(x, 0, output_type=tf.int32),
    tf.equal(x, y), tf.not_equal(x, y), tf.less(x, y), tf.less_equal(x, y),
    tf.greater(x, y), tf.greater_equal(x, y),
    tf.logical_and(tf.less(x, y), True), tf.logical_or(tf.less(x, y), False),
    tf.logical_not(tf.less(x, y)), tf.logical_xor(tf.less(x, y), True),
    tf.where(tf.less(x, y), x, y), tf.where(tf.less(x, y)), tf.cast(x, tf.int32),
    tf.to_float(i), tf.to_int32(x), tf.to_int64(x), tf.to_double(x), tf.cast(x, tf.float32),
    tf.add(x, 1.0), tf.multiply(2, i), tf.matmul(x, x, name="mm"),
    tf.scalar_mul(2.0, x), tf.squared_difference(x, y), tf.log1p(x), tf.expm1(x),
    tf.reduce_logsumexp(x), tf.cumsum(x), tf.sin(x), tf.cos(x), tf.is_nan(x),
    tf.clip_by_value(x, 0.0, 1.0), tf.range(5), tf.range(1, 10, 2), tf.range(0.0, 1.0, 0.25),
]
for t in res:
    print(t)
""",
    "operators": """
x = tf.constant([[1.0, -2.0], [3.0, 4.0]], name="x")
y = tf.constant(2.0, name="y")
i = tf.constant([3, -7], name="i")
b = tf.constant([True, False], name="b")
res = [x + y, x - y, x * y, x / y, x // y, x % y, x ** y, -x, abs(x), x < y, x <= y, x > y,
       x >= y, b & b, b | b, ~b, b ^ b, 1 + x, 1 - x, 2 * x, 1 / x, 2 // x, 2 % x, 2 ** x,
       i / 2, i // 2, x @ x, i + 1, 1.0 + y]
for t in res:
    print(t)
print(x == x, x != y, hash(x) == id(x) or True)
try:
    iter(x)
except TypeError as e:
    print("TypeError", e)
try:
    bool(x)
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])
try:
    x + tf.constant(1)
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    i + 1.5
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
""",
    "slicing": """
x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4), name="x")
res = [x[0], x[-1], x[0, 1], x[:, 1], x[0:1], x[..., 2], x[:, tf.newaxis], x[1:, :2, ::2],
       x[::-1], x[tf.newaxis, ..., 0], x[0, ..., 1:3], x[:], x[..., None, -2]]
for t in res:
    print(t)
    print(t.op.inputs[1].op.get_attr("value") if False else "",
          [t.op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                      "new_axis_mask", "shrink_axis_mask")])
y = tf.constant([1, 2, 3, 4])
n = tf.constant(1)
print(y[n], y[n:], y[:n])
""",
    "array_ops": """
x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="x")
v = tf.constant([1, 2, 3], name="v")
res = [
    tf.reshape(x, [3, 2]), tf.reshape(x, [-1]), tf.transpose(x), tf.transpose(x, [1, 0]),
    tf.concat([x, x], 0), tf.concat([x, x], axis=1), tf.stack([v, v]), tf.stack([v, v], axis=1),
    tf.slice(x, [0, 1], [2, 2]), tf.strided_slice(x, [0, 0], [2, 3], [1, 2]),
    tf.squeeze(tf.constant([[1], [2]])), tf.squeeze(tf.constant([[[1], [2]]]), [0]),
    tf.expand_dims(v, 0), tf.expand_dims(v, -1), tf.tile(v, [2]), tf.pad(x, [[1, 0], [0, 2]]),
    tf.fill([2, 2], 7), tf.zeros([2, 3]), tf.ones([3], dtype=tf.int32), tf.zeros_like(x),
    tf.ones_like(v), tf.zeros([2, 2], tf.int64), tf.ones((2,)), tf.gather(v, [0, 2]),
    tf.gather(x, [1], axis=1), tf.one_hot(v, 4), tf.one_hot([0, 1], 3, on_value=5, off_value=1),
    tf.shape(x), tf.size(x), tf.rank(x), tf.shape(x, out_type=tf.int64), tf.stop_gradient(x),
    tf.identity(x), tf.identity(x, name="ident"), tf.zeros_like(v, dtype=tf.float32),
    tf.reverse(x, [0]), tf.boolean_mask(v, [True, False, True]) if False else tf.identity(v),
    tf.placeholder_with_default(v, [3]), tf.placeholder_with_default(1.0, []),
    tf.concat([v], 0), tf.stack([x]), tf.identity_n([x, v])[1] if hasattr(tf, "identity_n") else v,
    tf.size(x, out_type=tf.int64), tf.zeros(tf.shape(x)), tf.ones_like(x, name="ol"),
]
for t in res:
    print(t)
sp = tf.split(x, 3, axis=1)
sp2 = tf.split(x, [1, 2], 1)
us = tf.unstack(x)
us2 = tf.unstack(x, axis=1)
for t in sp + sp2 + us + us2:
    print(t)
p = tf.placeholder(tf.float32)
p2 = tf.placeholder(tf.float32, shape=[None, 3], name="in")
p3 = tf.placeholder(tf.int32, [2])
p4 = tf.placeholder("float", name="f")
print(p, p2, p3, p4)
print(tf.reshape(p2, [-1]).shape, tf.shape(p2), tf.zeros(tf.shape(p2)).shape)
""",
    "nn_ops": """
x = tf.constant(np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4), name="x")
img = tf.constant(np.ones((1, 4, 4, 2), np.float32), name="img")
k = tf.constant(np.ones((3, 3, 2, 3), np.float32), name="k")
b = tf.constant([1.0, 2.0, 3.0, 4.0], name="b")
res = [tf.nn.relu(x), tf.nn.relu6(x), tf.nn.elu(x), tf.nn.softplus(x), tf.nn.sigmoid(x),
       tf.nn.tanh(x), tf.nn.bias_add(x, b), tf.nn.softmax(x), tf.nn.log_softmax(x),
       tf.nn.softmax(x, axis=0), tf.nn.conv2d(img, k, [1, 1, 1, 1], "SAME"),
       tf.nn.conv2d(img, k, strides=[1, 2, 2, 1], padding="VALID"),
       tf.nn.max_pool(img, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
       tf.nn.avg_pool(img, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="SAME"),
       tf.nn.leaky_relu(x), tf.nn.dropout(x, keep_prob=1.0) if False else x,
       tf.nn.relu(x, name="act")]
for t in res:
    print(t)
""",
    "random_ops": """
a = tf.random_uniform([2])
b = tf.random_uniform([2], seed=3)
tf.set_random_seed(5)
c = tf.random_uniform([2])
d = tf.random_normal([2, 2], mean=1.0, stddev=2.0, seed=7)
e = tf.truncated_normal([3])
f = tf.random_uniform([2], minval=0, maxval=10, dtype=tf.int32, seed=1)
g = tf.random_uniform([], -1.0, 1.0)
h = tf.random_normal([2], dtype=tf.float64)
for t in (a, b, c, d, e, f, g, h):
    print(t, [(k, t.op.get_attr(k)) for k in ("seed", "seed2") if k in t.op.node_def.attr])
print(tf.get_default_graph().seed)
""",
    "control": """
a = tf.constant(1, name="a")
b = tf.constant(2, name="b")
with tf.control_dependencies([a]):
    c = tf.add(a, b)
    with tf.control_dependencies([b.op]):
        d = tf.identity(c)
    with tf.control_dependencies(None):
        e = tf.identity(c)
    f = tf.constant(3)
n = tf.no_op()
n2 = tf.no_op(name="nothing")
g = tf.group(c, d, n)
g2 = tf.group(c, name="grp")
g3 = tf.group()
t = tf.tuple([c, d])
for x in (c, d, e, f):
    print(x.name, [o.name for o in x.op.control_inputs])
print(n.name, n2.name, g.name, g.type, [o.name for o in g.control_inputs])
print(g2.name, g3.name, [x.name for x in t], [o.name for o in t[0].op.control_inputs])
with tf.device("/cpu:0"):
    h = tf.constant(1.0, name="h")
    with tf.device("/job:worker/task:1"):
        i = tf.constant(1.0, name="i")
    with tf.device(None):
        j = tf.constant(1.0, name="j")
with tf.device("/device:GPU:1"):
    k = tf.constant(1.0, name="k")
with tf.device(lambda op: "/cpu:0" if op.type == "Const" else ""):
    l = tf.constant(1.0, name="l")
    m = tf.identity(l, name="m")
with tf.device("/gpu:0"):
    with tf.device("/cpu:0"):
        o = tf.constant(1.0, name="o")
for x in (h, i, j, k, l, m, o):
    print(x.name, repr(x.device), repr(x.op.device))
with tf.colocate_with(a):
    p = tf.constant(1, name="p")
with tf.colocate_with(a.op):
    with tf.device("/cpu:1"):
        q = tf.constant(1, name="q")
print(p.op.colocation_groups(), p.op.node_def.attr["_class"].list.s, q.device)
print(a.op.colocation_groups())
print([x.name for x in a.consumers()], a.op.outputs[0] is a, a.value_index)
""",
    "graph_api": """
g = tf.get_default_graph()
a = tf.constant(1, name="a")
b = tf.add(a, a, name="b")
print(g.get_operation_by_name("a") is a.op, g.get_tensor_by_name("b:0") is b)
print(g.as_graph_element("a") is a.op, g.as_graph_element("a:0") is a, g.as_graph_element(b) is b)
for bad in ("nope", "nope:0", "a:1", "a:x", "b:0:0"):
    for fn in (g.get_operation_by_name, g.get_tensor_by_name, g.as_graph_element):
        try:
            fn(bad)
        except (KeyError, ValueError, TypeError) as e:
            print(fn.__name__, bad, type(e).__name__, e)
try:
    g.get_operation_by_name(1)
except TypeError as e:
    print("TypeError", e)
tf.add_to_collection("mine", 1)
tf.add_to_collections(["mine", "yours"], a)
print(tf.get_collection("mine"), g.get_collection("yours")[0] is a, g.get_collection("none"))
ref = g.get_collection_ref("mine")
ref.append(3)
print(len(tf.get_collection("mine")), sorted(g.get_all_collection_keys()))
print(g.get_collection("mine", scope="a") if False else "", tf.GraphKeys.GLOBAL_VARIABLES,
      tf.GraphKeys.TRAINABLE_VARIABLES, tf.GraphKeys.LOCAL_VARIABLES, tf.GraphKeys.UPDATE_OPS)
g2 = tf.Graph()
with g2.as_default():
    c = tf.constant(1)
    print(tf.get_default_graph() is g2, c.graph is g2)
    try:
        tf.add(c, a)
    except ValueError as e:
        print("ValueError", str(e).split(" (graphs are")[0])
print(tf.get_default_graph() is g)
g2.finalize()
print(g2.finalized)
try:
    with g2.as_default():
        tf.constant(1)
except RuntimeError as e:
    print("RuntimeError", e)
print(g.version > 0 if hasattr(g, "version") else True, g.building_function)
print(len(g.get_operations()), [op.name for op in g.get_operations()])
print(b.op.get_attr("T"), a.op.get_attr("value") if False else a.op.get_attr("dtype"))
try:
    b.op.get_attr("nope")
except ValueError as e:
    print("ValueError", e)
print(b.op.values()[0] is b, b.op.num_inputs if hasattr(b.op, "num_inputs") else 2)
print(b.op.inputs[0] is a, list(b.op.inputs) == [a, a], len(b.op.inputs), b.op.graph is g)
""",
    "convert": """
for v in (1, 1.0, [1, 2], [1.0, 2], [[1, 2], [3, 4]], np.int64(3), np.array([1.5]), True,
          "s", [b"a", b"b"], 2**40, np.float16(1.0), [np.float32(1.0), 2.0]):
    t = tf.convert_to_tensor(v)
    print(t, t.op.type)
print(tf.convert_to_tensor(1, dtype=tf.float32), tf.convert_to_tensor(1.0, dtype=tf.float64))
print(tf.convert_to_tensor([1, 2], dtype=tf.int64, name="ci"))
c = tf.constant(1.0)
print(tf.convert_to_tensor(c) is c)
for v, dt in ((1.5, tf.int32), ("a", tf.float32), (2**40, tf.int32), ([1, "a"], None),
              (c, tf.int32), ([[1, 2], [3]], None), (None, None),
              (-1, tf.uint8)):
    try:
        tf.convert_to_tensor(v, dtype=dt)
        print("ok", v)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
""",
    "shapes": """
s = tf.TensorShape([2, None, 3])
print(s, repr(s), s.ndims, s.as_list(), s.is_fully_defined(), s[0], s[1], s[1:], s.num_elements())
print(tf.TensorShape(None), tf.TensorShape(None).ndims, tf.TensorShape([]), tf.TensorShape([]).num_elements())
print(s.merge_with([None, 4, 3]), s.is_compatible_with([2, 5, 3]), s.is_compatible_with([2, 5]))
print(s.concatenate([7]), tf.TensorShape([1, 2]) == [1, 2], tf.Dimension(3), tf.Dimension(None))
print(repr(tf.Dimension(3)), tf.Dimension(3) + 1, tf.Dimension(None) + 1, tf.Dimension(4) // 2)
print(tf.TensorShape([2, 3]).as_proto())
print(tf.TensorShape([None, 3]).as_proto(), tf.TensorShape(None).as_proto())
try:
    s.merge_with([3, 4, 3])
except ValueError as e:
    print("ValueError", e)
try:
    tf.TensorShape(None).as_list()
except ValueError as e:
    print("ValueError", e)
x = tf.placeholder(tf.float32, [None, 3])
x.set_shape([4, 3])
print(x, x.shape, x.get_shape())
try:
    x.set_shape([5, 3])
except ValueError as e:
    print("ValueError", e)
print(len(tf.TensorShape([1, 2])), [d for d in tf.TensorShape([1, None])], tf.TensorShape([5]).dims)
print(tf.TensorShape([1, 2]).rank, tf.TensorShape([2, 3]).with_rank(2), tf.TensorShape(None).with_rank(2))
""",
    "tensor_protos": """
from_np = [np.float32(1.0), np.array([1, 2, 3], np.int32), np.array([1.5, 1.5], np.float32),
           np.zeros((2, 2), np.float64), np.array([True, True]), np.array([1, 2], np.int64),
           np.array(["a", "bb"]), np.array([1.0], np.float16), np.array([1, 2], np.uint8),
           np.array([[1, 2], [3, 4]], np.int16), np.array(7, np.int64),
           np.array([1 + 2j], np.complex64)]
for v in from_np:
    print(tf.make_tensor_proto(v))
print(tf.make_tensor_proto(1.0, shape=[3]))
print(tf.make_tensor_proto([1, 2], dtype=tf.float32))
print(tf.make_tensor_proto(5, dtype=tf.int64, shape=[2, 2]))
print(tf.make_tensor_proto([1, 2, 2, 2], shape=[4]))
print(tf.make_tensor_proto([1, 2], shape=[4]))
print(tf.make_tensor_proto(b"x"))
print(tf.make_ndarray(tf.make_tensor_proto(np.arange(4.0).reshape(2, 2))))
print(tf.make_ndarray(tf.make_tensor_proto(3, shape=[2])))
try:
    tf.make_tensor_proto([1, 2, 3], shape=[2])
except ValueError as e:
    print("ValueError", e)
""",
    "import_export": """
a = tf.constant([1.0, 2.0], name="a")
p = tf.placeholder(tf.float32, [2], name="p")
b = tf.add(a, p, name="b")
with tf.control_dependencies([b]):
    c = tf.identity(a, name="c")
gd = tf.get_default_graph().as_graph_def()
print(type(gd).__name__, len(gd.node), gd.versions.producer > 0)
r = tf.import_graph_def(gd)
print(r)
r = tf.import_graph_def(gd, name="imp", return_elements=["b:0", "c", "a:0"])
print(r)
r = tf.import_graph_def(gd, input_map={"p:0": tf.constant([5.0, 5.0], name="five")},
                        return_elements=["b"], name="mapped")
print(r, [t.name for t in r[0].inputs])
r = tf.import_graph_def(gd, name="")
print([op.name for op in tf.get_default_graph().get_operations()])
print(tf.get_default_graph().get_operation_by_name("import/c").control_inputs)
with tf.name_scope("sc"):
    r = tf.import_graph_def(gd, return_elements=["b:0"])
print(r)
for kwargs in ({"return_elements": ["zz"]}, {"return_elements": ["b:3"]},
               {"input_map": {"zz:0": a}}):
    try:
        tf.import_graph_def(gd, name="bad", **kwargs)
    except (ValueError, KeyError, TypeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
bad = tf.GraphDef()
bad.node.add(name="x", op="NoSuchOp")
try:
    tf.import_graph_def(bad, name="bad2")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
bad = tf.GraphDef()
bad.node.add(name="x", op="Identity", input=["y"])
try:
    tf.import_graph_def(bad, name="bad3")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
""",
}
