"""A TF1-era wide & deep classifier on a small synthetic tabular set through tf.feature_column:
numeric and bucketized columns, a vocabulary list embedded (mean combiner), a hashed column and
a crossed column (age buckets x job) as indicators, identity ids embedded with sqrtn;
tf.feature_column.input_layer builds the wide and the deep inputs, trained by Adam. Also
tf.nn.embedding_lookup_sparse and tf.nn.safe_embedding_lookup_sparse on their own, the
checkpoint's keys (TensorFlow's variable names) and the error an identity id out of range
gives."""
# fixture threads: 1 2 4
import os
import tempfile

import numpy as np

import engine as tf

tf.reset_default_graph()
tf.set_random_seed(1234)

rng = np.random.RandomState(7)
N = 64
AGE = rng.uniform(18, 70, size=N).astype(np.float32)
HOURS = rng.uniform(10, 60, size=(N, 1)).astype(np.float32)
JOBS = np.array(["clerk", "engineer", "nurse", "teacher", "chef", "pilot"])
JOB = JOBS[rng.randint(0, len(JOBS), size=N)]
CITIES = np.array(["paris", "lyon", "nice", "lille", "nantes", "brest", "metz"])
CITY = CITIES[rng.randint(0, len(CITIES), size=N)]
DAY = rng.randint(0, 7, size=N).astype(np.int64)
LABEL = ((AGE > 40).astype(np.float32) * 0.6 + (HOURS[:, 0] > 35) * 0.5
         + np.isin(JOB, ["engineer", "pilot"]) * 0.7 > 0.9).astype(np.float32)

features = {
    "age": tf.placeholder(tf.float32, [None], name="age"),
    "hours": tf.placeholder(tf.float32, [None, 1], name="hours"),
    "job": tf.placeholder(tf.string, [None], name="job"),
    "city": tf.placeholder(tf.string, [None], name="city"),
    "day": tf.placeholder(tf.int64, [None], name="day"),
}
labels = tf.placeholder(tf.float32, [None], name="labels")
feed = {features["age"]: AGE, features["hours"]: HOURS, features["job"]: JOB,
        features["city"]: CITY, features["day"]: DAY, labels: LABEL}

fc = tf.feature_column
age = fc.numeric_column("age", normalizer_fn=lambda x: (x - 44.0) / 15.0)
hours = fc.numeric_column("hours", normalizer_fn=lambda x: x / 40.0)
age_buckets = fc.bucketized_column(fc.numeric_column("age"), boundaries=[25, 35, 45, 55, 65])
job = fc.categorical_column_with_vocabulary_list("job", ["clerk", "engineer", "nurse",
                                                         "teacher", "chef"], num_oov_buckets=1)
city = fc.categorical_column_with_hash_bucket("city", hash_bucket_size=10)
day = fc.categorical_column_with_identity("day", num_buckets=7)
wide_columns = [age_buckets, fc.indicator_column(city), fc.indicator_column(job),
                fc.indicator_column(fc.crossed_column([age_buckets, "job"], 16))]
deep_columns = [
    age, hours,
    fc.embedding_column(job, dimension=3,
                        initializer=tf.truncated_normal_initializer(stddev=0.5, seed=11)),
    fc.embedding_column(day, dimension=2, combiner="sqrtn",
                        initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=12)),
]

wide = tf.feature_column.input_layer(features, wide_columns)
with tf.variable_scope("deep"):
    deep = tf.compat.v1.feature_column.input_layer(features, deep_columns)
    hidden = tf.layers.dense(deep, 8, activation=tf.nn.relu,
                             kernel_initializer=tf.glorot_uniform_initializer(seed=13))
    deep_logit = tf.layers.dense(hidden, 1,
                                 kernel_initializer=tf.glorot_uniform_initializer(seed=14))
wide_logit = tf.layers.dense(wide, 1, kernel_initializer=tf.zeros_initializer(), name="wide")
logits = tf.squeeze(wide_logit + deep_logit, 1)
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(logits > 0, tf.float32), labels), tf.float32))

print(wide.name, wide.shape, deep.name, deep.shape)
for v in tf.global_variables():
    print(v.op.name, v.shape)

# the sparse embedding lookups on their own
params = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2) / 4.0)
sp_ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 2], [3, 1]], tf.constant([1, 4, 0, 2, 2],
                         tf.int64), [5, 3])
sp_weights = tf.SparseTensor(sp_ids.indices, [0.5, 2.0, 1.0, 3.0, 0.25], sp_ids.dense_shape)
lookups = [tf.nn.embedding_lookup_sparse(params, sp_ids, None, combiner=c) for c in
           ("sum", "mean", "sqrtn")]
lookups += [tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=c) for c in
            ("sum", "mean", "sqrtn")]
bad_ids = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([3, -1, 5], tf.int64), [3, 2])
safe = [tf.nn.safe_embedding_lookup_sparse(params, bad_ids, None, combiner="mean"),
        tf.nn.safe_embedding_lookup_sparse([params], bad_ids, None, default_id=2)]

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    print("wide", sess.run(wide, feed)[:3].tolist())
    print("deep", np.round(sess.run(deep, feed)[:3], 5).tolist())
    for step in range(40):
        _, value = sess.run([train, loss], feed)
        if step % 4 == 0 or step == 39:
            print("step", step, "loss %.6f" % value)
    print("accuracy %.4f" % sess.run(accuracy, feed))
    with tempfile.TemporaryDirectory() as directory:
        path = tf.train.Saver().save(sess, os.path.join(directory, "wide_deep"))
        print("checkpoint", [(name, shape) for name, shape in tf.train.list_variables(path)
                             if "input_layer" in name])
        table = tf.train.load_variable(path, "deep/input_layer/job_embedding/embedding_weights")
        print("job table", np.round(table, 4).tolist())
    print("lookups", [np.round(v, 5).tolist() for v in sess.run(lookups)])
    print("safe", [np.round(v, 5).tolist() for v in sess.run(safe)])
    try:
        sess.run(deep, {**feed, features["day"]: np.where(DAY == 3, 9, DAY)})
    except tf.errors.InvalidArgumentError as e:
        lines = e.message.split("\n")
        print("error", next(lines[i - 1] for i, line in enumerate(lines) if "[[{{node" in line))
