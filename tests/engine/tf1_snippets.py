"""TF1-era API snippets (renamed names, schedules, metrics, clipping, gfile, flags, logging).

Run like api_snippets.py: on TensorFlow by tools/make_api_fixtures.py, on the engine by
tests/engine/test_tf1_snippets.py; both the printed output and the GraphDef must match.
"""

# Snippets whose printed output is compared but not their GraphDef, and why.
OUTPUT_ONLY = {
    "monitored_session_hooks": "TensorFlow's Scaffold also builds ready ops over variables "
                               "and resources, a table initializer and a sharded Saver",
}

SNIPPETS = {
    "renamed_keywords": """
x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
i = tf.constant([[1, 5, 3], [7, 2, 9]])
picked = [tf.arg_max(x, 1), tf.arg_min(i, 0), tf.argmax(x, dimension=0),
          tf.to_float(i), tf.to_int32(x), tf.to_int64(i), tf.to_double(x),
          tf.div(i, 2), tf.div(x, 2.0),
          tf.reduce_sum(x, reduction_indices=[1], keep_dims=True),
          tf.reduce_mean(x, reduction_indices=0), tf.reduce_max(i, 1, keep_dims=True),
          tf.reduce_min(x, keep_dims=True), tf.reduce_prod(x, reduction_indices=[0, 1]),
          tf.reduce_logsumexp(x, reduction_indices=1, keep_dims=True),
          tf.count_nonzero(i - 1, reduction_indices=1, keep_dims=True),
          tf.reduce_any(x > 4, reduction_indices=1), tf.reduce_all(x > 0, keep_dims=True),
          tf.nn.softmax(x, dim=0), tf.nn.log_softmax(x, dim=-1), tf.expand_dims(i, dim=1),
          tf.squeeze(tf.expand_dims(x, 0), squeeze_dims=[0])]
v = tf.Variable(1.0, name="v")
w = tf.Variable(2.0, name="w", collections=[tf.GraphKeys.LOCAL_VARIABLES])
inits = [tf.initialize_all_variables(), tf.initialize_local_variables(),
         tf.initialize_variables([v])]
print([var.op.name for var in tf.all_variables()])
with tf.Session() as sess:
    sess.run(inits[:2])
    for value in sess.run(picked):
        print(value.dtype, (np.round(value, 5) if value.dtype.kind == "f" else value).tolist())
""",
    "norms": """
x = tf.constant([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], name="x")
results = [tf.norm(x), tf.norm(x, axis=1), tf.norm(x, axis=0, keep_dims=True),
           tf.norm(x, ord=1, axis=1), tf.norm(x, ord=np.inf, axis=-1, keepdims=True),
           tf.norm(x, ord=3, axis=1), tf.norm(x, ord="fro", axis=[0, 1]),
           tf.norm(x, ord=1, axis=(0, 1)), tf.norm(x, ord=np.inf, axis=(0, 1), name="inf"),
           tf.nn.l2_normalize(x, dim=1), tf.nn.l2_normalize(x, axis=0, epsilon=1.0),
           tf.nn.l2_normalize(x)]
print([r.name for r in results])
with tf.Session() as sess:
    for value in sess.run(results):
        print(value.shape, np.round(value, 5).tolist())
""",
    "empty_floor_division": """
x = tf.constant(3.0)
grad = tf.gradients(tf.reduce_sum(x), x)
empty = tf.zeros([0], tf.int32)
zero = tf.zeros([0], tf.int32)
results = [tf.floormod(empty, zero), tf.floor_div(empty, zero),
           tf.floormod(tf.zeros([0, 3], tf.int64), tf.zeros([3], tf.int64)),
           tf.truncatediv(empty, tf.constant(0)), tf.truncatemod(empty, tf.constant(0))]
with tf.Session() as sess:
    print(sess.run(grad))
    for r in sess.run(results):
        print(r.dtype, r.shape)
    try:
        sess.run(tf.floormod(tf.constant([1, 2]), tf.constant([1, 0])))
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__)
""",
    "learning_rate_schedules": """
step = tf.placeholder(tf.int64, [], name="step")
gs = tf.train.get_or_create_global_step()
rates = [tf.train.exponential_decay(0.1, step, 10, 0.5),
         tf.train.exponential_decay(0.1, gs, 10, 0.5, staircase=True, name="stairs"),
         tf.train.natural_exp_decay(0.2, step, 5, 0.3),
         tf.train.natural_exp_decay(0.2, step, 5, 0.3, staircase=True),
         tf.train.inverse_time_decay(0.5, step, 4, 0.25),
         tf.train.inverse_time_decay(0.5, step, 4, 0.25, staircase=True),
         tf.train.polynomial_decay(0.1, step, 20, 0.01, power=2.0),
         tf.train.polynomial_decay(0.1, step, 8, cycle=True),
         tf.train.cosine_decay(1.0, step, 25),
         tf.train.cosine_decay(1.0, step, 25, alpha=0.1),
         tf.train.piecewise_constant(step, [np.int64(3), np.int64(12)], [1.0, 0.5, 0.25]),
         tf.train.piecewise_constant(tf.to_int32(step), [5], [0.3, 0.03])]
print([r.name for r in rates])
print(gs.name, gs.dtype, tf.train.get_global_step() is gs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for s in (0, 1, 3, 7, 12, 30):
        print(s, ["%.6g" % r for r in sess.run(rates, {step: s})])
""",
    "clip_by_global_norm": """
a = tf.constant([[3.0, 4.0], [0.0, 12.0]], name="a")
b = tf.constant([1.0, -2.0], name="b")
clipped, norm = tf.clip_by_global_norm([a, None, b], 5.0)
loose, same = tf.clip_by_global_norm([a, b], 100.0, name="loose")
by_norm = tf.clip_by_norm(a, 2.0, axes=[1])
whole = tf.clip_by_norm(b, 1.0)
print([c if c is None else c.name for c in clipped], norm.name, tf.global_norm([b]).name)
with tf.Session() as sess:
    for value in sess.run([clipped[0], clipped[2], norm, loose[0], same, by_norm, whole]):
        print(np.round(value, 5).tolist())
""",
    "metrics": """
labels = tf.placeholder(tf.int64, [None], name="labels")
predictions = tf.placeholder(tf.int64, [None], name="predictions")
values = tf.placeholder(tf.float32, [None, 1], name="values")
acc, acc_update = tf.metrics.accuracy(labels, predictions)
mean, mean_update = tf.metrics.mean(values)
acc2, acc2_update = tf.metrics.accuracy(tf.expand_dims(labels, 1), predictions, name="acc2")
print(acc.name, acc_update.name, mean.name, mean_update.name, acc2.name)
print([v.op.name for v in tf.local_variables()], tf.global_variables())
print([v.op.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)])
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    print(sess.run([acc, mean]))
    for l, p, v in (([1, 2, 3], [1, 0, 3], [[1.0], [2.0]]), ([4], [4], [[6.0]])):
        print(sess.run([acc_update, mean_update, acc2_update],
                       {labels: l, predictions: p, values: v}))
    print(sess.run([acc, mean, acc2]))
""",
    "gfile": """
import os, tempfile
root = tempfile.mkdtemp()
def rel(paths):
    return sorted(os.path.relpath(p, root) for p in paths)
def attempt(fn, *args):
    try:
        fn(*args)
        print("ok")
    except tf.errors.OpError as e:
        print(type(e).__name__)
d = os.path.join(root, "a", "b")
tf.gfile.MakeDirs(d)
tf.gfile.MakeDirs(d)
print(tf.gfile.Exists(d), tf.gfile.IsDirectory(d), tf.gfile.Exists(d + "x"))
with tf.gfile.GFile(os.path.join(d, "f.txt"), "w") as f:
    f.write("line one\\nline two\\n")
with tf.gfile.GFile(os.path.join(d, "f.txt")) as f:
    print(repr(f.read()))
with tf.gfile.GFile(os.path.join(d, "f.txt"), "rb") as f:
    print(repr(f.read(4)), f.tell())
with tf.gfile.Open(os.path.join(d, "f.txt")) as f:
    print([line for line in f])
print(tf.gfile.GFile(os.path.join(d, "f.txt")).size())
missing = tf.gfile.GFile(os.path.join(d, "missing"))
attempt(missing.read)
tf.gfile.Copy(os.path.join(d, "f.txt"), os.path.join(d, "g.txt"))
attempt(tf.gfile.Copy, os.path.join(d, "f.txt"), os.path.join(d, "g.txt"))
tf.gfile.Copy(os.path.join(d, "f.txt"), os.path.join(d, "g.txt"), True)
tf.gfile.Rename(os.path.join(d, "g.txt"), os.path.join(d, "h.txt"))
attempt(tf.gfile.Rename, os.path.join(d, "h.txt"), os.path.join(d, "f.txt"))
print(sorted(tf.gfile.ListDirectory(d)), sorted(tf.gfile.ListDirectory(os.path.join(root, "a"))))
print(rel(tf.gfile.Glob(os.path.join(root, "a", "*", "*.txt"))))
print([(os.path.relpath(top, root), sorted(dirs), sorted(files))
       for top, dirs, files in tf.gfile.Walk(root)])
print(tf.gfile.Stat(os.path.join(d, "f.txt")).length, tf.gfile.Stat(d).is_directory)
tf.gfile.Remove(os.path.join(d, "h.txt"))
attempt(tf.gfile.Remove, os.path.join(d, "h.txt"))
attempt(tf.gfile.MkDir, d)
attempt(tf.gfile.MkDir, os.path.join(root, "a", "c"))
attempt(tf.gfile.ListDirectory, os.path.join(root, "nowhere"))
tf.gfile.DeleteRecursively(os.path.join(root, "a"))
attempt(tf.gfile.DeleteRecursively, os.path.join(root, "a"))
print(tf.gfile.Exists(d), os.listdir(root))
os.rmdir(root)
""",
    "flags_and_logging": """
fv = tf.flags.FlagValues()
tf.flags.DEFINE_string("data_dir", "/tmp/data", "Where the data is.", flag_values=fv)
tf.flags.DEFINE_integer("max_steps", 100, "Steps to train.", flag_values=fv)
tf.flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.", flag_values=fv)
tf.flags.DEFINE_boolean("fake_data", False, "Use fake data.", flag_values=fv)
tf.app.flags.DEFINE_bool("verbose", True, "Talk.", flag_values=fv)
rest = fv(["prog", "--max_steps=7", "--fake_data", "--learning_rate", "0.5", "--noverbose",
           "extra"])
print(rest, fv.data_dir, fv.max_steps, fv.learning_rate, fv.fake_data, fv.verbose)
print(sorted(fv.flag_values_dict().items()))
try:
    fv(["prog", "--max_steps=many"])
except tf.flags.Error as e:
    print(type(e).__name__, e)
print(tf.app.flags is tf.flags, tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN,
      tf.logging.ERROR, tf.logging.FATAL)
before = tf.logging.get_verbosity()
tf.logging.set_verbosity(tf.logging.INFO)
print(tf.logging.get_verbosity())
tf.logging.set_verbosity(before)
""",
    "monitored_session_hooks": """
loss = tf.placeholder(tf.float32, [], name="loss")
step = tf.train.get_or_create_global_step()
advance = tf.assign_add(step, 2)
hooks = [tf.train.StopAtStepHook(num_steps=5), tf.train.NanTensorHook(loss, False)]
with tf.train.MonitoredSession(hooks=hooks) as sess:
    while not sess.should_stop():
        print(sess.run(advance, {loss: 1.0}))
print(tf.get_default_graph().finalized)
try:
    tf.constant(1)
except RuntimeError as e:
    print(e)
with tf.train.SingularMonitoredSession(hooks=[tf.train.NanTensorHook(loss, False)]) as sess:
    print(sess.run(step, {loss: 0.5}), sess.should_stop())
    print(sess.run(step, {loss: float("nan")}), sess.should_stop())
try:
    with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss)]) as sess:
        sess.run(advance, {loss: float("nan")})
except tf.train.NanLossDuringTrainingError as e:
    print(type(e).__name__, e)
try:
    with tf.train.MonitoredSession() as sess:
        print(sess.run(step))
        raise tf.errors.OutOfRangeError(None, None, "end of data")
except tf.errors.OutOfRangeError:
    print("not suppressed")
print("after")
""",
}

# The summaries' values: run and printed as the Summary protos they serialize to (text format),
# with each PNG as its decoded pixels, since zlib's bytes may differ where the pixels do not.
SUMMARY_SNIPPETS = {
    "histogram_summaries": """
rng = np.random.RandomState(7)
# Python's float power (libm's), not NumPy's: NumPy's vectorised power rounds differently
# from one release to the next, and the two venvs need not hold one release.
scales = np.array([10.0 ** e for e in rng.uniform(-14, 22, 500).tolist()])
wide = tf.constant(np.concatenate([rng.standard_normal(500) * scales,
                                   [0.0, 0.0, -0.0, 1e-12, -1e-12, 1.1e-12, 1e20, -1e20]]))
h = [tf.summary.histogram("weights", tf.constant(rng.standard_normal((30, 4)).astype(np.float32))),
     tf.summary.histogram("wide", wide, family="spread"),
     tf.summary.histogram("ints", tf.constant([[1, 2, 2], [3, 3, 3]])),
     tf.summary.histogram("one", tf.constant(5.0)),
     tf.summary.histogram("empty", tf.zeros([0])),
     tf.summary.histogram("layer 1/bias", tf.constant([0.5, -0.25], tf.float64))]
merged = tf.summary.merge_all()
print([t.name for t in h], merged.name)
with tf.Session() as sess:
    for value in sess.run(h + [merged]):
        print_summary(value)
    try:
        sess.run(tf.summary.histogram("bad", tf.constant([1.0, np.nan])))
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, [line for line in e.message.splitlines() if "summary" in line])
""",
    "image_summaries": """
rng = np.random.RandomState(3)
images = [tf.summary.image("gray", tf.constant(rng.uniform(0, 3, (2, 5, 4, 1)).astype(np.float32))),
          tf.summary.image("signed", tf.constant(rng.uniform(-2, 1, (4, 3, 3, 3)).astype(np.float32)),
                           max_outputs=2),
          tf.summary.image("rgba", tf.constant(rng.randint(0, 256, (1, 2, 6, 4)).astype(np.uint8)),
                           max_outputs=1),
          tf.summary.image("zeros", tf.zeros([1, 2, 2, 3]), family="blank"),
          tf.summary.image("halves", tf.constant(rng.uniform(0, 1, (1, 3, 2, 3)).astype(np.float16))),
          tf.summary.image("bad", tf.constant([[[[1.0, np.inf, 2.0], [0.5, 0.25, 3.0]]]]))]
print([t.name for t in images])
with tf.Session() as sess:
    for value in sess.run(images):
        print_summary(value)
""",
    "audio_and_text_summaries": """
rng = np.random.RandomState(5)
mono = tf.constant(rng.uniform(-1.2, 1.2, (3, 40)).astype(np.float32))
stereo = tf.constant(np.array([[[0.0, 1.0], [-1.0, 0.5], [1 / 65536, -3 / 65536], [0.25, -0.75]]],
                              np.float32))
out = [tf.summary.audio("mono", mono, 8000),
       tf.summary.audio("stereo", stereo, 22050.5, max_outputs=1),
       tf.summary.text("notes", tf.constant("**bold** text")),
       tf.summary.text("table", tf.constant([["a", "b"], ["c", "d"]]))]
print([t.name for t in out])
with tf.Session() as sess:
    for value in sess.run(out):
        print_summary(value)
""",
}

PRINT_SUMMARY = r'''
import zlib, struct
def png_pixels(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, bits, color_type = header[:4]
    channels = {0: 1, 4: 2, 2: 3, 6: 4}[color_type]
    raw, stride, rows, prev, i = zlib.decompress(idat), width * channels, [], None, 0
    for _ in range(height):
        kind, line, i = raw[i], bytearray(raw[i + 1:i + 1 + stride]), i + 1 + stride
        prev = prev or bytearray(stride)
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(list(line))
        prev = line
    return bits, channels, rows
def print_summary(serialized):
    summary = tf.summary.Summary.FromString(serialized)
    for value in summary.value:
        if value.HasField("image"):
            image = value.image
            print(value.tag, image.height, image.width, image.colorspace,
                  png_pixels(image.encoded_image_string))
        elif value.HasField("audio"):
            audio = value.audio
            print(value.tag, audio.sample_rate, audio.num_channels, audio.length_frames,
                  audio.content_type, audio.encoded_audio_string.hex())
        else:
            print(str(value).replace("\n", " | "))
'''
SUMMARY_SNIPPETS = {name: PRINT_SUMMARY + code for name, code in SUMMARY_SNIPPETS.items()}
SNIPPETS.update(SUMMARY_SNIPPETS)
