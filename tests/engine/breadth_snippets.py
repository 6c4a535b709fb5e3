"""TF1 APIs of issue 15's probe list: graph_util, debug ops, everyday ops, optimizers, queues.

Run like api_snippets.py: on TensorFlow by tools/make_api_fixtures.py breadth_snippets, on
the engine by tests/engine/test_breadth_snippets.py; the printed output and the GraphDef
must match.
"""

# Snippets whose printed output is compared but not their GraphDef, and why.
OUTPUT_ONLY = {
    "moving_averages": "TensorFlow's RefVariable guards an initial value that reads other "
                       "variables (copies of the shadow's init cond named '<op>_<variable>'); "
                       "the engine's Variable initialises from the cond itself",
    "singular_monitored_session": "TensorFlow's Scaffold also builds ready ops over variables "
                                  "and resources, a table initializer and a sharded Saver",
    "static_rnn_sequence_length": "the values are TensorFlow's, the graph not yet node for node: "
                                  "the backward GRU's zero-output constants and the cond "
                                  "switches' colocation names differ",
}

# Prints a GraphDef node by node: name, op, inputs and each attr's deterministic bytes (text
# format's attr order differs between protobuf builds, the bytes do not).
SHOW_GRAPH = """
def show(graph_def):
    for node in graph_def.node:
        print(node.name, node.op, list(node.input), node.device)
        for key in sorted(node.attr):
            print("   ", key, node.attr[key].SerializeToString(deterministic=True).hex())
    print("versions", graph_def.versions.producer > 0, len(graph_def.library.function))
"""

# Runs fetches and prints each value rounded (and its dtype); errors as class and first line.
SHOW_VALUES = """
import re

def values(sess, fetches, feed_dict=None):
    for value in sess.run(fetches, feed_dict):
        value = np.asarray(value)
        # Rounded, and -0.0 shown as 0.0 (Eigen's and NumPy's signs of zero differ).
        shown = np.round(value, 4) + 0.0 if value.dtype.kind in "fc" else value
        print(value.dtype, value.shape, shown.tolist())

def error(sess, fetch, feed_dict=None):
    try:
        sess.run(fetch, feed_dict)
        print("no error")
    except tf.errors.OpError as e:
        # TensorFlow's message opens with where the node was made; its own text follows "Node:".
        text = e.message.split("\\nNode: ", 1)[-1].split("\\n", 1)[-1] \\
            if "\\nNode: " in e.message else e.message
        # A py_func's token is numbered per process ("pyfunc_<n>").
        print(type(e).__name__, re.sub("pyfunc_[0-9]+", "pyfunc_N", text.split("\\n")[0]))
"""

# Runs fn with file descriptor 2 sent to a file and prints what was written there (tf.Print
# writes to the process's stderr, as C++'s std::cerr does).
SHOW_STDERR = """
import os, tempfile

def stderr_of(fn):
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            fn()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        print("stderr:", sorted(f.read().decode().splitlines()))  # one run's prints: any order
"""

SNIPPETS = {
    "graph_util_freeze": SHOW_GRAPH + """
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.Variable([[1.0], [2.0]], name="w")
b = tf.get_variable("b", [1], initializer=tf.ones_initializer())
steps = tf.Variable(3, name="steps")
unused = tf.Variable(tf.zeros([4]), name="unused")
with tf.name_scope("model"):
    y = tf.add(tf.matmul(x, w), b, name="y")
    checked = tf.check_numerics(y, "y is bad", name="checked")
    z = tf.identity(checked * tf.cast(steps, tf.float32), name="z")
train = tf.assign_add(steps, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train)
    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["model/z"])
    show(frozen)
    only_w = tf.graph_util.convert_variables_to_constants(
        sess, sess.graph_def, ["model/z"], variable_names_whitelist=["w"])
    print([(n.name, n.op) for n in only_w.node])
    no_b = tf.graph_util.convert_variables_to_constants(
        sess, sess.graph_def, ["model/z", "unused"], variable_names_blacklist=["b"])
    print([(n.name, n.op) for n in no_b.node])
sub = tf.graph_util.extract_sub_graph(tf.get_default_graph().as_graph_def(), ["model/y"])
print([n.name for n in sub.node])
pruned = tf.graph_util.remove_training_nodes(frozen)
show(pruned)
kept = tf.graph_util.remove_training_nodes(frozen, protected_nodes=["model/checked", "w/read"])
print([(n.name, list(n.input)) for n in kept.node])
print(tf.graph_util.tensor_shape_from_node_def_name(tf.get_default_graph(), "model/y"))
for bad in (lambda: tf.graph_util.extract_sub_graph(frozen, "model/z"),
            lambda: tf.graph_util.extract_sub_graph(frozen.node[0], ["x"])):
    try:
        bad()
    except TypeError as e:
        print("TypeError", str(e).split(" type ")[0])
try:
    tf.graph_util.extract_sub_graph(frozen, ["nowhere"])
except AssertionError as e:
    print("AssertionError", e)
with tf.Graph().as_default():
    tf.import_graph_def(frozen, name="")
    with tf.Session() as sess:
        print(sess.run("model/z:0", {"x:0": [[1.0, 1.0], [2.0, -1.0]]}).tolist())
""",
    "print_op": SHOW_STDERR + SHOW_VALUES + """
x = tf.constant([[1.5, -2.0, 3.25], [4.0, 5.0, 6.0]], name="x")
i = tf.constant([7, 8, 9, 10, 11], name="i")
p = tf.Print(x, [x, i, "words", tf.constant(True)], message="x and i: ")
q = tf.Print(i, [i], summarize=2, first_n=2, name="twice")
r = tf.Print(x, [tf.constant(2.5, tf.float64), tf.zeros([0])], summarize=-1)
loss = tf.reduce_sum(p * p)
grad = tf.gradients(loss, x)[0]
print(p.name, q.name, r.name, p.shape, q.dtype)
with tf.Session() as sess:
    stderr_of(lambda: values(sess, [p]))
    for _ in range(3):
        stderr_of(lambda: values(sess, [q]))
    stderr_of(lambda: values(sess, [r, grad]))
with tf.Session() as sess:
    stderr_of(lambda: values(sess, [q]))
""",
    "asserts": SHOW_VALUES + """
x = tf.placeholder(tf.float32, [None], name="x")
n = tf.placeholder(tf.int32, [None], name="n")
checks = [tf.assert_equal(x, [1.0, 2.0]), tf.assert_equal(n, n),
          tf.assert_positive(x), tf.assert_non_negative(n, message="counts"),
          tf.assert_less(x, 5.0, summarize=1), tf.assert_less_equal(n, 3),
          tf.assert_greater(x, 0.5, message="above half"), tf.assert_greater_equal(n, 0),
          tf.assert_negative(-x), tf.assert_non_positive(-n), tf.assert_none_equal(x, 7.0),
          tf.debugging.assert_equal(n, [1, 2], name="named"),
          tf.assert_rank(x, 1), tf.assert_rank_at_least(n, 1),
          tf.assert_rank(tf.placeholder(tf.float32), 2),
          tf.assert_type(n, tf.int32), tf.assert_integer(n)]
print([c.name for c in checks])
print(tf.assert_scalar(tf.constant(3.0)).name)
with tf.control_dependencies([tf.assert_positive(x, data=[x, "custom"], name="guard")]):
    y = tf.identity(x * 2, name="y")
with tf.Session() as sess:
    ok = {x: [1.0, 2.0], n: [1, 2]}
    sess.run(checks[:14], ok)
    print(sess.run(y, ok).tolist())
    error(sess, checks[0], {x: [1.0, 3.0], n: [1, 2]})
    error(sess, checks[2], {x: [-1.0, 3.0, -4.0, 5.0, 0.0], n: [1]})
    error(sess, checks[3], {x: [1.0], n: [1, -2]})
    error(sess, checks[4], {x: [1.0, 7.0, 8.0], n: [1]})
    error(sess, checks[6], {x: [0.1, 0.2], n: [1]})
    error(sess, checks[9], {x: [1.0], n: [-1, 2]})
    error(sess, checks[11], {x: [1.0], n: [2, 2]})
    error(sess, checks[14], {tf.get_default_graph().get_tensor_by_name("Placeholder:0"): [1.0]})
    error(sess, y, {x: [-1.0], n: [1]})
for bad in (lambda: tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])),
            lambda: tf.assert_less(3, 2, message="static"),
            lambda: tf.assert_rank(tf.constant([1.0]), 2),
            lambda: tf.assert_rank_at_least(tf.constant(1.0), 1, message="m"),
            lambda: tf.assert_type(x, tf.int32),
            lambda: tf.assert_integer(x),
            lambda: tf.assert_scalar(x)):
    try:
        bad()
        print("no error")
    except (tf.errors.InvalidArgumentError, ValueError, TypeError) as e:
        print(type(e).__name__, str(e).replace("\\n", " | "))
""",
    "numerics_and_py_func": SHOW_VALUES + """
x = tf.placeholder(tf.float32, [3], name="x")
checked = tf.verify_tensor_all_finite(x * 2.0, "x went bad")
checked2 = tf.check_numerics(tf.log(x), "log of x")
y = tf.reduce_sum(checked * x, name="y")
all_checks = tf.add_check_numerics_ops()
print(checked.name, checked2.name, all_checks.name, all_checks.type)
print(sorted(set(i.name for i in all_checks.control_inputs)))

def clipped_cube(a, limit):
    return np.clip(a, -limit, limit) ** 3, np.int64(a.size)

def fails(a):
    raise ValueError("cannot take %d values" % a.size)

def fails_other(a):
    raise KeyError("nope")

def words(a):
    return np.array(["v%d" % int(v) for v in a])

cube, size = tf.py_func(clipped_cube, [x, 1.5], [tf.float32, tf.int64], name="cube")
one = tf.py_func(lambda a: a + 1, [x], tf.float32, stateful=False)
text = tf.py_func(words, [x], tf.string)
side = tf.py_func(lambda: None, [], [])
bad = tf.py_func(fails, [x], tf.float32)
other = tf.py_func(fails_other, [x], tf.float32)
wrong_type = tf.py_func(lambda a: a.astype(np.float64), [x], tf.float32)
wrong_count = tf.py_func(lambda a: (a, a), [x], tf.float32)
print(cube.name, size.name, one.op.type, text.dtype, side.type, cube.shape)
print(tf.gradients(tf.reduce_sum(cube), x))
with tf.Session() as sess:
    feed = {x: [0.5, -2.0, 3.0]}
    values(sess, [checked, y, cube, size, one, text], feed)
    print(sess.run(side, feed))
    sess.run(all_checks, {x: [0.5, 2.0, 3.0]})
    error(sess, checked, {x: [1.0, np.inf, 0.0]})
    try:  # several checks fail (log's NaN flows on): which reports first varies, in TF too
        sess.run(all_checks, {x: [1.0, -1.0, 0.0]})
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, e.message.split(" : ")[-1].split("\\n")[0])
    for t in (bad, other, wrong_type, wrong_count):
        error(sess, t, feed)
""",
    "segment_and_set_ops": SHOW_VALUES + """
data = tf.constant([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [-7.0, 8.0], [9.0, 0.5]], name="data")
ids = tf.constant([0, 0, 1, 3, 3], name="ids")
x = tf.constant([4, 1, 4, 2, 1, 7, 7, 0], name="x")
lengths = tf.placeholder(tf.int32, [None], name="lengths")
results = [tf.segment_sum(data, ids), tf.segment_mean(data, ids), tf.segment_max(data, ids),
           tf.segment_min(data, ids, name="low"), tf.segment_prod(data, ids),
           tf.unsorted_segment_sum(data, [2, 0, -1, 2, 1], 4),
           tf.unsorted_segment_max(data, [2, 0, 2, 2, 1], 4),
           tf.unsorted_segment_min(data, [1, 0, 1, 1, 0], 2),
           tf.unsorted_segment_prod(data, [1, 0, 1, 1, 0], 3),
           tf.sequence_mask(lengths), tf.sequence_mask([1, 3], 4, dtype=tf.float32),
           tf.sequence_mask(tf.constant([[2], [0]]), 3, name="mask2"),
           tf.bincount(x), tf.bincount(x, minlength=10),
           tf.bincount(x, weights=tf.constant([0.5] * 8), maxlength=5)]
y, idx = tf.unique(x)
y64, idx64 = tf.unique(x, out_idx=tf.int64, name="uniq")
diff, where = tf.setdiff1d(x, [1, 7])
top, top_idx = tf.nn.top_k(tf.constant([[3.0, 1.0, 4.0, 1.5], [9.0, 2.0, 6.0, 5.0]]), 2)
top1 = tf.nn.top_k(data[:, 0], name="best")
grid = tf.meshgrid([1, 2, 3], [4, 6])
grid_ij = tf.meshgrid(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]), indexing="ij")
space = [tf.linspace(0.0, 1.0, 5), tf.lin_space(-2.0, 2.0, 3, name="three"),
         tf.linspace(tf.constant(1.0, tf.float64), 4.0, tf.constant(4))]
grads = tf.gradients(tf.reduce_sum(results[2] * results[1]) + tf.reduce_sum(top),
                     [data])
print([r.name for r in results + [y, idx, y64, diff, top, top_idx, top1.values]])
print([t.name for t in grid + grid_ij + space])
# TensorFlow's C++ shape inference evaluates constant subgraphs (bincount's size, linspace's
# slice size) to static shapes; the engine folds fewer ops, so those shapes are left out.
print([str(t.shape) for t in results[:12] + grid + grid_ij + [y, idx, top]])
with tf.Session() as sess:
    values(sess, results + [y, idx, y64, idx64, diff, where, top, top_idx, top1.indices]
           + grid + grid_ij + space + grads, {lengths: [2, 0, 3]})
    error(sess, tf.segment_sum(data, [1, 0, 0, 2, 2]))
    error(sess, tf.unsorted_segment_max(data, [1, 0, 5, 0, 0], 2))
try:
    tf.unique(tf.constant([[1, 2]]))
except ValueError as e:
    print("ValueError", str(e).split(" for ")[0])
""",
    "linalg_ops": SHOW_VALUES + """
a = tf.constant([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], name="a")
b = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0, name="b")
v = tf.constant([1.0, -2.0, 3.0], name="v")
p = tf.placeholder(tf.float32, [None, 3], name="p")
results = [tf.matrix_inverse(a), tf.matrix_inverse(a, adjoint=True, name="inv_t"),
           tf.matrix_determinant(a), tf.matrix_determinant(tf.stack([a, 2 * a])),
           tf.cholesky(a), tf.diag(v), tf.diag_part(tf.diag(v)), tf.matrix_diag(v),
           tf.matrix_diag(tf.stack([v, -v])), tf.matrix_diag_part(b),
           tf.matrix_set_diag(b, tf.ones([2, 3])), tf.matrix_band_part(b, 1, 0),
           tf.matrix_band_part(a, 0, -1, name="upper"), tf.trace(a), tf.trace(b),
           tf.einsum("ij,jk->ik", a, a), tf.einsum("bij,bkj->bik", b, b),
           tf.einsum("ij,j", a, v), tf.einsum("ii", a), tf.einsum("ij->ji", a, name="tr"),
           tf.einsum("...ij,...jk->...ik", b, tf.ones([4, 2])),
           tf.tensordot(a, v, 1), tf.tensordot(b, a, [[1], [0]]),
           tf.tensordot(b, b, [[0, 1], [0, 1]], name="dot"), tf.tensordot(p, a, [[1], [0]]),
           tf.tensordot(a, a, 0)]
grads = tf.gradients(tf.reduce_sum(results[0]) + results[2] + tf.reduce_sum(results[9])
                     + tf.reduce_sum(results[11]), [a, b])
print([r.name for r in results])
print([str(r.shape) for r in results])
with tf.Session() as sess:
    values(sess, results + grads, {p: [[1.0, 0.0, 2.0]]})
    error(sess, tf.matrix_inverse(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
    error(sess, tf.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])))
""",
    "nn_extras": SHOW_VALUES + """
x = tf.constant(np.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).astype(np.float32), name="x")
w = tf.constant(np.linspace(-0.5, 0.5, 2 * 3 * 4).reshape(2, 3, 4).astype(np.float32), name="w")
img = tf.constant(np.linspace(-1, 1, 1 * 3 * 3 * 2).reshape(1, 3, 3, 2).astype(np.float32))
k = tf.constant(np.linspace(-1, 1, 3 * 3 * 4 * 2).reshape(3, 3, 4, 2).astype(np.float32))
m = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="m")
logits = tf.constant([[0.5, -1.0, 2.0], [-0.3, 0.0, 1.5]], name="logits")
labels = tf.constant([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]], name="labels")
results = [tf.nn.xw_plus_b(m, m, [0.5, -0.5]), tf.nn.xw_plus_b(m, m, [1.0, 1.0], name="dense"),
           tf.nn.conv1d(x, w, 1, "SAME"), tf.nn.conv1d(x, w, stride=2, padding="VALID"),
           tf.nn.conv2d_transpose(img, k, [1, 6, 6, 4], [1, 2, 2, 1]),
           tf.nn.conv2d_transpose(img, k, tf.constant([1, 7, 7, 4]), 2, padding="VALID",
                                  name="up"),
           tf.nn.crelu(m), tf.nn.crelu(logits, axis=0, name="cr"),
           tf.nn.weighted_cross_entropy_with_logits(labels, logits, 2.0),
           tf.nn.weighted_cross_entropy_with_logits(targets=labels, logits=logits,
                                                    pos_weight=0.5, name="wce")]
pred = tf.constant([[0.5, 2.0], [3.5, -1.0]])
truth = tf.constant([[0.0, 1.0], [1.0, -1.5]])
huber = [tf.losses.huber_loss(truth, pred), tf.losses.huber_loss(truth, pred, delta=2.0,
                                                                 weights=[[1.0], [0.0]]),
         tf.losses.huber_loss(truth, pred, reduction=tf.losses.Reduction.NONE,
                              loss_collection=None)]
tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, tf.nn.l2_loss(m))
total = tf.losses.get_total_loss()
only_losses = tf.losses.get_total_loss(add_regularization_losses=False, name="data_loss")
grads = tf.gradients(tf.reduce_sum(results[2]) + tf.reduce_sum(results[4]) + total,
                     [x, w, img, k, pred])
print([r.name for r in results + huber + [total, only_losses]])
print([str(r.shape) for r in results + huber])
with tf.Session() as sess:
    values(sess, results + huber + [total, only_losses] + grads)
""",
    "queues": SHOW_VALUES + """
q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
enq = q.enqueue([[1.0, 2.0], 7])
enq_many = q.enqueue_many([[[3.0, 4.0], [5.0, 6.0]], [8, 9]], name="fill")
deq = q.dequeue()
deq_many = q.dequeue_many(2)
size, closed = q.size(), q.is_closed()
close = q.close()
single = tf.FIFOQueue(10, tf.string, name="words")
put = single.enqueue_many([["a", "b", "c"]])
take = single.dequeue_up_to(2)
print(q.name, [t.name for t in deq], [str(t.shape) for t in deq + deq_many])
print(enq.name, enq_many.name, size.name, close.name, take.name, single.dtypes)
with tf.Session() as sess:
    sess.run(enq)
    sess.run(enq_many)
    print(sess.run(size), sess.run(closed))
    values(sess, deq)
    values(sess, deq_many)
    sess.run(enq)
    sess.run(close)
    print(sess.run([size, closed]))
    values(sess, deq)
    error(sess, deq)
    error(sess, enq)
    sess.run(put)
    sess.run(single.close())
    error(sess, take)
    print(sess.run(single.dequeue()), sess.run(single.size()))
""",
    # A shuffle queue's draws in TensorFlow's Philox order; a dequeue_many that waits takes
    # what is there beyond min_after_dequeue and the rest as enqueues arrive, and a close
    # puts back what it took (a thread holds the waiting dequeue; the sleeps let it wait).
    "shuffle_queue": SHOW_VALUES + """
import threading, time
q = tf.RandomShuffleQueue(10, 2, [tf.int32, tf.float32], shapes=[[], [2]], seed=5)
ids = tf.placeholder(tf.int32, [None])
enq = q.enqueue_many([ids, tf.stack([tf.cast(ids, tf.float32)] * 2, axis=1)])
deq, deq3, deq5, upto = q.dequeue(), q.dequeue_many(3), q.dequeue_many(5), q.dequeue_up_to(4)
size, close = q.size(), q.close()
print(q.name, deq3[0].shape, upto[0].shape)

def waiting(fetch, result):
    thread = threading.Thread(target=lambda: result.append(run(fetch)))
    thread.start()
    time.sleep(0.5)
    return thread

def run(fetch):
    try:
        return sess.run(fetch)[0].tolist()
    except tf.errors.OutOfRangeError as e:
        # The queue's name is left out: its "_<id>_" counts queues per process in TensorFlow.
        text = [line for line in e.message.split("\\n") if "insufficient" in line][0]
        return text.split("' ", 1)[1]

with tf.Session() as sess:
    sess.run(enq, {ids: list(range(8))})
    values(sess, deq3)
    values(sess, deq)
    print(sess.run(size))
    result = []
    thread = waiting(deq3, result)
    for i in (100, 101, 102):
        sess.run(enq, {ids: [i]})
    thread.join()
    print(result, sess.run(size))
    result = []
    thread = waiting(deq5, result)
    print(sess.run(size))
    sess.run(close)
    thread.join()
    print(result, sess.run(size))
    values(sess, upto)
    print(run(deq3))
    print(run(upto))
    print(run(deq))
""",
    # TF 1.x's readers over a queue of file names (a missing file among them), then
    # decode_raw's endianness and its errors. Keys name the temporary directory: shown as D.
    "readers": SHOW_VALUES + """
import os, tempfile
d = tempfile.mkdtemp()
def shown(value):
    return [v.replace(d.encode(), b"D") for v in np.atleast_1d(value).tolist()]
gzip = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
for name, options in (("a.tfr", None), ("b.tfr.gz", gzip)):
    with tf.python_io.TFRecordWriter(os.path.join(d, name), options) as writer:
        for i in range(3):
            writer.write(("%s-%d" % (name, i)).encode() * (i + 1))
with open(os.path.join(d, "t.csv"), "wb") as f:
    f.write(b"x,y\\r\\n1,2\\r\\n\\n3,4")
names = tf.placeholder(tf.string, [None])
files = tf.FIFOQueue(10, tf.string, shapes=[[]])
put, close = files.enqueue_many([names]), files.close()
plain, gzipped = tf.TFRecordReader(), tf.TFRecordReader(name="gz", options=gzip)
lines = tf.TextLineReader(skip_header_lines=1)
key, value = plain.read(files)
up_keys, up_values = plain.read_up_to(files, 2)
gz_key, gz_value = gzipped.read(files.queue_ref)
line_key, line = lines.read(files)
produced, completed = plain.num_records_produced(), plain.num_work_units_completed()
reset = plain.reset()
raw = tf.constant([b"\\x01\\x00\\x02\\x00", b"\\xff\\xff\\x00\\x01"])
little, big = tf.decode_raw(raw, tf.int16), tf.decode_raw(raw, tf.uint16, little_endian=False)
floats = tf.decode_raw(tf.constant([[b"\\x00\\x00\\x80\\x3f"]]), tf.float32)
odd = tf.decode_raw(tf.constant([b"abc"]), tf.int16, name="odd")
unequal = tf.io.decode_raw(tf.constant([b"ab", b"abcd"]), tf.uint8)
print(plain.reader_ref.name, plain.supports_serialize, key.shape, up_keys.shape)
print(little.shape, floats.shape)
print(gzipped.reader_ref.op.name, lines.reader_ref.op.name, reset.name, produced.dtype)
with tf.Session() as sess:
    order = ("a.tfr", "a.tfr", "b.tfr.gz", "t.csv", "t.csv")
    sess.run(put, {names: [os.path.join(d, n) for n in order]})
    for _ in range(4):
        print(*[shown(v) for v in sess.run([key, value])])
    print(*[shown(v) for v in sess.run([up_keys, up_values])], sess.run([produced, completed]))
    print(*[shown(v) for v in sess.run([gz_key, gz_value])])
    for _ in range(4):
        print(*[shown(v) for v in sess.run([line_key, line])])
    sess.run(put, {names: [os.path.join(d, "a.tfr"), os.path.join(d, "missing.tfr")]})
    sess.run(close)
    print(*[shown(v) for v in sess.run([up_keys, up_values])], sess.run([produced, completed]))
    sess.run(reset)
    print(sess.run([produced, completed]))
    try:
        sess.run(key)
    except tf.errors.NotFoundError as e:
        print(type(e).__name__, [line.replace(d, "D") for line in e.message.split("\\n")
                                 if "No such file" in line][0])
    try:
        sess.run(key)
    except tf.errors.OutOfRangeError as e:
        # Not the queue's name: its "_<id>_" counts queues per process in TensorFlow.
        print(type(e).__name__, [line.split("' ", 1)[1] for line in e.message.split("\\n")
                                 if "insufficient" in line][0])
    values(sess, [little, big, floats])
    error(sess, odd)
    error(sess, unequal)
""",
    "queue_pipeline": SHOW_VALUES + """
features = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2), name="features")
labels = tf.constant([0, 1, 0, 1, 1, 0], name="labels")
x, y = tf.train.slice_input_producer([features, labels], num_epochs=2, shuffle=False)
xb, yb = tf.train.batch([x, y], batch_size=4, allow_smaller_final_batch=True)
loss = tf.reduce_sum(xb)
print(x.name, y.name, xb.name, yb.name, xb.shape, yb.shape)
print([qr.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)])
print([qr.close_op.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)])
print([v.op.name for v in tf.local_variables()])
print([s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)])
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    print(len(threads))
    steps = 0
    try:
        while not coord.should_stop():
            xs, ys, total = sess.run([xb, yb, loss])
            print(xs.tolist(), ys.tolist(), total)
            steps += 1
    except tf.errors.OutOfRangeError as e:
        print("done after", steps, type(e).__name__)
    finally:
        coord.request_stop()
    coord.join(threads)
    print(coord.should_stop(), coord.joined)
coord = tf.train.Coordinator()
with coord.stop_on_exception():
    raise ValueError("boom")
try:
    coord.join([])
except ValueError as e:
    print("join re-raised", e)
""",
    "tf1_optimizers": SHOW_VALUES + """
x = tf.constant([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], name="x")
y = tf.constant([[1.0], [-1.0], [2.0]], name="y")
optimizers = [tf.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6),
              tf.train.FtrlOptimizer(0.5), tf.train.FtrlOptimizer(
                  0.3, learning_rate_power=-0.7, l1_regularization_strength=0.01,
                  l2_regularization_strength=0.1, name="FtrlL1L2"),
              tf.train.FtrlOptimizer(0.3, l2_shrinkage_regularization_strength=0.05,
                                     name="FtrlShrink"),
              tf.train.ProximalGradientDescentOptimizer(0.1),
              tf.train.ProximalGradientDescentOptimizer(
                  0.1, l1_regularization_strength=0.05, l2_regularization_strength=0.2,
                  name="ProxL1")]
trains, weights = [], []
for i, opt in enumerate(optimizers):
    w = tf.Variable([[0.5], [-0.25]], name="w%d" % i)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    trains.append(opt.minimize(loss))
    weights.append(w)
print([t.name for t in trains])
print([v.op.name for v in tf.global_variables()])
print(optimizers[1].get_slot_names(), optimizers[0].get_slot(weights[0], "accum").op.name)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        sess.run(trains)
    values(sess, weights + [optimizers[1].get_slot(weights[1], "linear"),
                            optimizers[0].get_slot(weights[0], "accum_update")])
""",
    "moving_averages": SHOW_VALUES + """
w = tf.Variable([1.0, 2.0], name="w")
b = tf.get_variable("b", [], initializer=tf.constant_initializer(0.5))
step = tf.Variable(0, trainable=False, name="step")
ema = tf.train.ExponentialMovingAverage(0.9)
maintain = ema.apply([w, b])
ema_steps = tf.train.ExponentialMovingAverage(0.99, num_updates=step, name="slow")
maintain_slow = ema_steps.apply([w])
update = tf.group(tf.assign_add(w, [1.0, -1.0]), tf.assign_add(b, 2.0), tf.assign_add(step, 1))
print(maintain.name, maintain_slow.name, ema.average(w).op.name, ema.average_name(b))
print(ema.average(step), ema.average_name(step), ema_steps.average_name(w))
print(sorted(ema.variables_to_restore()))
print(sorted(ema_steps.variables_to_restore([w])))
print([v.op.name for v in tf.moving_average_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(update)
        sess.run([maintain, maintain_slow])
        values(sess, [ema.average(w), ema.average(b), ema_steps.average(w)])
""",
    "random_shuffle": SHOW_VALUES + """
tf.set_random_seed(7)
x = tf.constant(np.arange(10), name="x")
m = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2), name="m")
shuffled = [tf.random_shuffle(x), tf.random_shuffle(m, seed=3), tf.random.shuffle(x, seed=5),
            tf.random_shuffle(tf.constant([4.0]))]
words = tf.train.string_input_producer(["a", "b", "c", "d"], num_epochs=2, seed=11)
word = words.dequeue()
print([t.name for t in shuffled], word.name)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    for _ in range(2):
        values(sess, shuffled)
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    seen = []
    try:
        while True:
            seen.append(sess.run(word))
    except tf.errors.OutOfRangeError:
        print(seen)
    coord.request_stop()
    coord.join(threads)
""",
    "string_join": """
names = tf.constant([b"train", b"test", b"eval"], name="names")
joined = tf.string_join([b"/data/", names, tf.constant(b".tfrecord")], separator="", name="joined")
pairs = tf.strings.join([names, names], separator="-")
grid = tf.string_join([tf.constant([[b"a", b"b"], [b"c", b"d"]]), b"!"])
fed = tf.placeholder(tf.string, [None], name="fed")
loose = tf.string_join([names, fed], separator=":", name="loose")
print(joined.shape, pairs.shape, grid.shape, loose.shape)
try:
    tf.string_join([names, tf.constant([b"x", b"y"])])
except ValueError as error:
    print("ValueError", str(error).split(" for ")[0])
with tf.Session() as sess:
    print(sess.run([joined, pairs, grid]))
    print(sess.run(loose, {fed: [b"1", b"2", b"3"]}))
    try:
        sess.run(loose, {fed: [b"1", b"2"]})
    except tf.errors.InvalidArgumentError as error:
        print(type(error).__name__, [line for line in error.message.splitlines() if "shapes" in line])
""",
    "cast_sparse_and_slices": """
sp = tf.SparseTensor([[0, 1], [2, 0]], [3, 7], [3, 2])
wide = tf.cast(sp, tf.float64, name="wide")
same = tf.cast(sp, tf.int32)
rows = tf.IndexedSlices(tf.constant([[1, 2], [3, 4]]), tf.constant([0, 2]), tf.constant([3, 2]))
half = tf.cast(rows, tf.float16)
print(type(wide).__name__, wide.values.name, wide.values.dtype, wide.indices.name)
print(type(same).__name__, same.values.name, type(half).__name__, half.values.name,
      half.indices.name, half.dense_shape.name)
with tf.Session() as sess:
    print(sess.run(tf.sparse_tensor_dense_matmul(wide, tf.ones([2, 1], tf.float64))).tolist())
    print(sess.run(half).values.tolist(), sess.run(tf.convert_to_tensor(half)).tolist())
""",
    "custom_getters": """
calls = []
def outer_getter(getter, name, *args, **kwargs):
    calls.append(("outer", name))
    return getter(name, *args, **kwargs)
def fp16_getter(getter, name, shape=None, dtype=None, trainable=True, **kwargs):
    calls.append(("fp16", name, dtype.name, trainable, sorted(kwargs)))
    var = getter(name, shape, tf.float32, trainable=trainable, **kwargs)
    return tf.cast(var, tf.float16) if dtype == tf.float16 else var
def scale_getter(getter, *args, **kwargs):
    return getter(*args, **kwargs) * 2.0
with tf.variable_scope("net", custom_getter=outer_getter) as net:
    with tf.variable_scope("inner", custom_getter=fp16_getter):
        w = tf.get_variable("w", [2, 2], tf.float16, initializer=tf.ones_initializer())
    b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.5))
    d = tf.get_variable("d", [2], initializer=tf.ones_initializer(), custom_getter=scale_getter)
print(calls)
print(w.dtype, w.name, b.name, d.name, net.custom_getter is outer_getter)
with tf.variable_scope(net, reuse=True):
    again = tf.get_variable("b", [2])
print(calls[-1], again.name)
print([v.name for v in tf.global_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([w, b, d]))
""",
    "make_template": """
tf.set_random_seed(1)
def scale(x, name_of_var, init=1.0):
    var = tf.get_variable(name_of_var, [], initializer=tf.constant_initializer(init))
    with tf.variable_scope("proj"):
        kernel = tf.get_variable("kernel", [3, 2], initializer=tf.constant_initializer(0.5))
    return tf.matmul(x, kernel) * var
x = tf.ones([1, 3])
scale_by_y = tf.make_template("scale_by_y", scale, name_of_var="y", init=3.0)
first = scale_by_y(x)
second = scale_by_y(x + 1.0)
other = tf.make_template("scale_by_y", scale, name_of_var="y")
third = other(x)
now = tf.make_template("now", scale, create_scope_now_=True, name_of_var="z")
with tf.variable_scope("later"):
    fourth = now(x)
    fifth = now(x)
fixed = tf.make_template("ignored", scale, unique_name_="fixed", name_of_var="q")
sixth = fixed(x)
print(scale_by_y.name, scale_by_y.variable_scope_name, other.variable_scope_name,
      now.variable_scope_name, fixed.variable_scope_name)
print([v.name for v in scale_by_y.trainable_variables], [v.name for v in now.variables])
print(first.name, second.name, third.name, fourth.name, fifth.name, sixth.name)
print([v.name for v in tf.global_variables()])
def bad(x):
    return x * tf.Variable(1.0, name="bad")
bad_template = tf.make_template("bad", bad)
bad_template(x)
try:
    bad_template(x)
except ValueError as error:
    print("ValueError", str(error).splitlines()[0][:72])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a, b = sess.run([first, second])
    print(np.round(a, 4).tolist(), np.round(b, 4).tolist(), sess.run(scale_by_y.variables[0]))
""",
    "while_loop_structure": """
def body(i, pair):
    return i + 1, [pair[0] * 2.0, pair[1] + 1]
def tuple_body(i, pair):
    return i + 1, (pair[0] * 2.0, pair[1] + 1)
i, pair = tf.while_loop(lambda i, pair: i < 3, body, [0, [tf.constant(1.0), tf.constant(0)]])
print(type(pair).__name__, i.name, pair[0].name)
for limit in (None, 5):
    try:
        tf.while_loop(lambda i, pair: i < 3, tuple_body, [0, [tf.constant(1.0), tf.constant(0)]],
                      maximum_iterations=limit)
        print(limit, "built")
    except (TypeError, ValueError) as error:
        lines = str(error).splitlines()
        print(limit, type(error).__name__, lines[0], lines[-4:])
j, t = tf.while_loop(lambda j, t: j < 4, lambda j, t: [j + 1, (t[0] + 1,)], (0, (1,)))
for loop_vars in [(0, (1,))]:
    try:
        tf.while_loop(lambda j, t: j < 4, lambda j, t: [j + 1, (t[0] + 1,)], loop_vars,
                      maximum_iterations=2)
        print(type(loop_vars).__name__, "built")
    except (TypeError, ValueError) as error:
        print(type(error).__name__, str(error).splitlines()[-3:])
with tf.Session() as sess:
    print(sess.run([i, pair, j, t]))
""",
    "feedable_iterator": """
train = tf.data.Dataset.from_tensor_slices(({"x": np.arange(6.0, dtype=np.float32)},
                                            np.arange(6))).batch(2).repeat()
val = tf.data.Dataset.from_tensor_slices(({"x": -np.arange(3.0, dtype=np.float32)},
                                          np.arange(3) * 10)).batch(2)
handle = tf.placeholder(tf.string, shape=[], name="handle")
feedable = tf.data.Iterator.from_string_handle(handle, train.output_types, train.output_shapes)
features, label = feedable.get_next()
train_it = train.make_initializable_iterator()
val_it = val.make_initializable_iterator()
print(feedable.output_types, feedable.output_shapes, features["x"].shape, label.name)
untyped = tf.data.Iterator.from_string_handle(handle, tf.int64)
print(untyped.output_shapes, untyped.get_next().shape)
with tf.Session() as sess:
    train_handle, val_handle = sess.run([train_it.string_handle(), val_it.string_handle()])
    print(type(train_handle).__name__, train_handle != val_handle)
    sess.run([train_it.initializer, val_it.initializer])
    for h in [train_handle, train_handle, val_handle, train_handle, val_handle]:
        f, l = sess.run([features, label], {handle: h})
        print(f["x"].tolist(), l.tolist())
    try:
        sess.run(label, {handle: val_handle})
    except tf.errors.OutOfRangeError as error:
        print(type(error).__name__, error.message.splitlines()[0])
    sess.run(val_it.initializer)
    print(sess.run(label, {handle: val_handle}).tolist())
""",
    "graph_build_shape_errors": """
x = tf.zeros([2, 8, 8, 3], name="x")
pending = tf.placeholder(tf.float32, [None, 8, 8, 3], name="pending")
builders = [
    lambda: tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]), name="mm"),
    lambda: tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 3]), transpose_b=True, name="mm_t"),
    lambda: tf.add_n([tf.zeros([2, 3]), tf.zeros([]), tf.zeros([2, 3])], name="sum"),
    lambda: tf.add_n([tf.zeros([2, 3]), tf.zeros([2, 4])]),
    lambda: tf.concat([tf.zeros([2, 3]), tf.zeros([4])], 0),
    lambda: tf.nn.depthwise_conv2d(x, tf.zeros([11, 11, 3, 1]), [1] * 4, "VALID"),
    lambda: tf.nn.conv2d(pending, tf.zeros([11, 11, 3, 1]), [1] * 4, "VALID"),
    lambda: tf.nn.conv2d(x, tf.zeros([3, 3, 3, 1]), [1] * 4, "VALID", dilations=[1, 4, 4, 1]),
    lambda: tf.nn.conv2d(x, tf.zeros([3, 3, 4, 1]), [1] * 4, "VALID"),
    lambda: tf.nn.conv2d(x, tf.zeros([9, 3, 3, 1]), [1] * 4, [[0, 0], [0, 0], [0, 0], [0, 0]]),
    lambda: tf.nn.max_pool(x, [1, 9, 9, 1], [1, 1, 1, 1], "VALID"),
    lambda: tf.nn.avg_pool(x, [1, 2, 9, 1], [1, 1, 1, 1], "VALID", name="pooled"),
    lambda: tf.nn.max_pool(x, [1, 8, 8, 1], [1, 2, 2, 1], "VALID"),
    lambda: tf.nn.conv2d(x, tf.zeros([8, 8, 3, 2]), [1] * 4, "VALID"),
    lambda: tf.nn.conv2d(x, tf.zeros([11, 11, 3, 1]), [1] * 4, "SAME"),
    lambda: tf.nn.conv3d(tf.zeros([1, 4, 6, 6, 2]), tf.zeros([5, 3, 3, 2, 1]), [1] * 5, "VALID"),
    lambda: tf.nn.max_pool3d(tf.zeros([1, 4, 6, 6, 2]), [1, 2, 7, 2, 1], [1] * 5, "VALID"),
    lambda: tf.nn.avg_pool3d(tf.zeros([1, 4, 6, 6, 2]), [1, 4, 6, 6, 1], [1, 2, 2, 2, 1],
                             "VALID"),
]
for build in builders:
    try:
        print(build().shape)
    except ValueError as error:
        print(type(error).__name__, str(error))
""",
    "reshape_static_shapes": """
x = tf.zeros([2, 8, 3], name="x")
p = tf.placeholder(tf.float32, [None, 4], name="p")
q = tf.placeholder(tf.float32, [None, None], name="q")
builders = [
    lambda: tf.reshape(x, [5, -1]),
    lambda: tf.reshape(x, [5, 10]),
    lambda: tf.reshape(x, [-1, -1]),
    lambda: tf.reshape(x, [-1, 6]),
    lambda: tf.reshape(p, [3, -1]),
    lambda: tf.reshape(p, [-1, 3]),
    lambda: tf.reshape(p, [-1, 2, 2]),
    lambda: tf.reshape(p, [6, 2]),
    lambda: tf.reshape(p, [6, 5]),
    lambda: tf.reshape(q, [6, -1]),
    lambda: tf.reshape(x, tf.stack([5, tf.shape(p)[0]])),
    lambda: tf.reshape(x, tf.stack([tf.shape(p)[0], 16])),
    lambda: tf.reshape(x, [0, -1]),
    lambda: tf.reshape(tf.zeros([0, 3]), [-1, 0]),
    lambda: tf.reshape(tf.zeros([0, 3]), [-1, 5]),
    lambda: tf.reshape(x, [7, 7]),
    lambda: tf.reshape(x, tf.placeholder(tf.int32, [3])),
    lambda: tf.reshape(x, tf.placeholder(tf.int32)),
]
for build in builders:
    try:
        print(build().shape)
    except ValueError as error:
        print(type(error).__name__, str(error))
with tf.Session() as sess:
    print(sess.run(tf.shape(tf.reshape(p, [-1, 2, 2])), {p: np.zeros([3, 4])}).tolist())
""",
    "array_shape_errors": """
x = tf.zeros([2, 3], name="x")
builders = [
    lambda: tf.tile(x, [2, 3, 4]),
    lambda: tf.tile(x, [2, 3]),
    lambda: tf.expand_dims(x, 5),
    lambda: tf.expand_dims(x, -4),
    lambda: tf.expand_dims(x, -3),
    lambda: tf.split(x, 2, axis=1),
    lambda: tf.transpose(x, [0, 2]),
    lambda: tf.transpose(x, [0, 1, 2]),
    lambda: tf.transpose(x, [-1, 0]),
    lambda: tf.reduce_sum(x, axis=2),
    lambda: tf.reduce_mean(x, axis=[0, -3]),
    lambda: tf.argmax(x, 2),
    lambda: tf.strided_slice(x, [0, 0, 0], [1, 1, 1], [1, 1, 1]),
    lambda: tf.concat([tf.zeros([2, 3, 1]), tf.zeros([2])], 1),
]
for build in builders:
    try:
        print(build().shape)
    except ValueError as error:
        print(type(error).__name__, str(error))
""",
    "checked_shape_errors": """
x = tf.zeros([2, 3], name="x")
v = tf.Variable(tf.zeros([2]), name="v")
loose = tf.Variable(tf.zeros([2]), name="loose", validate_shape=False)
builders = [
    lambda: tf.pad(x, [[1, 1]]),
    lambda: tf.pad(x, [[1, 1], [0, 2]]),
    lambda: tf.nn.bias_add(x, tf.zeros([4])),
    lambda: tf.nn.bias_add(tf.zeros([2, 4, 5, 5]), tf.zeros([3]), data_format="NCHW"),
    lambda: tf.nn.bias_add(tf.placeholder(tf.float32, [None, None]), tf.zeros([4])),
    lambda: tf.assign(v, tf.zeros([3])),
    lambda: tf.assign(v, tf.zeros([3]), validate_shape=False),
    lambda: tf.assign(v, tf.placeholder(tf.float32)),
    lambda: tf.assign(loose, tf.zeros([5, 2]), validate_shape=False),
    lambda: tf.gather(x, [[0, 1]], axis=2),
    lambda: tf.gather(x, [[0, 1]], axis=-3),
    lambda: tf.gather(x, [[0, 1]], axis=-1),
    lambda: tf.broadcast_to(x, [4, 3]),
    lambda: tf.broadcast_to(x, [3]),
    lambda: tf.broadcast_to(tf.zeros([1, 3]), [5, 3]),
    lambda: tf.broadcast_to(tf.placeholder(tf.float32, [None, 3]), [4, 3]),
    lambda: tf.gather_nd(x, [[0, 0, 0]]),
    lambda: tf.gather_nd(x, [[0, 1]]),
    lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros([3], tf.int32),
                                                           logits=x),
    lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.placeholder(tf.int32, [None]), logits=x),
]
for build in builders:
    try:
        print(build().shape)
    except ValueError as error:
        print(type(error).__name__, str(error))
""",
    "singular_monitored_session": """
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.get_variable("w", [2, 1], initializer=tf.ones_initializer())
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
step = tf.train.get_or_create_global_step()
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
final = tf.train.FinalOpsHook([loss, w], {x: np.ones([1, 2])})
hooks = [tf.train.StopAtStepHook(num_steps=3), tf.train.NanTensorHook(loss),
         tf.train.FeedFnHook(lambda: {x: np.ones([4, 2], np.float32)}), final]
with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
    print(type(sess.raw_session()).__name__, sess.raw_session().graph is tf.get_default_graph())
    while not sess.should_stop():
        print(round(float(sess.run(loss)), 5), sess.run(train), sess.raw_session().run(step))
print(round(float(final.final_ops_values[0]), 5), final.final_ops_values[1].ravel().tolist())
""",
    "static_rnn_sequence_length": """
tf.set_random_seed(3)
steps = tf.unstack(tf.constant(np.random.RandomState(0).randn(3, 4, 2).astype(np.float32)),
                   axis=1)
lengths = tf.constant([4, 1, 3])
with tf.variable_scope("uni"):
    outputs, state = tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(3), steps, dtype=tf.float32,
                                      sequence_length=lengths)
with tf.variable_scope("bi"):
    both, fw, bw = tf.nn.static_bidirectional_rnn(
        tf.nn.rnn_cell.LSTMCell(2), tf.nn.rnn_cell.GRUCell(2), steps, dtype=tf.float32,
        sequence_length=lengths)
print(len(outputs), outputs[0].shape, state.shape, both[0].shape, fw.c.shape, bw.shape)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(np.round(sess.run(tf.stack(outputs)), 4).tolist())
    print(np.round(sess.run(state), 4).tolist())
    print(np.round(sess.run(tf.stack(both)), 4).tolist())
    print(np.round(sess.run(fw.h), 4).tolist(), np.round(sess.run(bw), 4).tolist())
""",
    "image_summary_png": """
pixels = tf.constant((np.arange(2 * 4 * 5 * 3) * 7 % 251).reshape(2, 4, 5, 3).astype(np.uint8))
floats = tf.constant(np.linspace(-1.0, 1.0, 2 * 3 * 3).reshape(2, 3, 3, 1).astype(np.float32))
merged = tf.summary.merge([tf.summary.image("pics", pixels), tf.summary.image("gray", floats)])
with tf.Session() as sess:
    summary = tf.Summary.FromString(sess.run(merged))
for value in summary.value:
    print(value.tag, value.image.height, value.image.width, value.image.colorspace,
          value.image.encoded_image_string.hex())
""",
    "saver_restore_errors": """
import os, shutil, tempfile
directory = tempfile.mkdtemp()
a = tf.get_variable("a", [2], initializer=tf.ones_initializer())
b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    path = tf.train.Saver([a, b]).save(sess, os.path.join(directory, "m"))
c = tf.get_variable("c", [3])
wide = tf.get_variable("wide", [4])
for var_list in [[a], [a, c], {"b": wide}]:
    with tf.Session() as sess:
        try:
            tf.train.Saver(var_list).restore(sess, path)
            print("restored", sess.run(a).tolist())
        except tf.errors.OpError as error:
            print(type(error).__name__, error.message.splitlines()[0])
            print([line for line in error.message.splitlines()
                   if "not found in checkpoint" in line or "Assign requires" in line])
late = tf.assign(tf.get_variable("late", [2]), tf.placeholder(tf.float32, name="fed"))
with tf.Session() as sess:
    try:
        sess.run(late, {"fed:0": [1.0, 2.0, 3.0]})
    except tf.errors.InvalidArgumentError as error:
        print([line for line in error.message.splitlines() if "Assign requires" in line])
shutil.rmtree(directory)
""",
}
