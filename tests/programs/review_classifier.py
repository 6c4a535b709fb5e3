"""A TF1-era review classifier: bag of words by tf.string_split and a hash table, a sparse
matmul into embeddings (tf.sparse_tensor_dense_matmul, tf.nn.swish), a tf.log_sigmoid loss
trained by SGD, tf.metrics.auc as a streaming metric, seeded samples (tf.multinomial of the
classifier's logits, tf.random_gamma, tf.random.poisson), and text and special-math features
(tf.string_to_number, tf.searchsorted, tf.histogram_fixed_width, tf.unique_with_counts,
tf.substr, tf.as_string, tf.sets.intersection, tf.lgamma, tf.math.xlogy, tf.roll)."""
import numpy as np

import engine as tf

tf.reset_default_graph()
tf.set_random_seed(2018)

VOCAB = ["good", "bad", "great", "awful", "movie", "plot", "acting", "fine", "boring", "fun"]
REVIEWS = ["good movie great acting", "awful plot boring", "fine movie", "bad acting awful plot",
           "great fun", "boring movie bad plot", "good fun plot", "awful awful movie"]
LABELS = [1, 0, 1, 0, 1, 0, 1, 0]
RATINGS = ["4.5", "1.0", "3.5", " 2 ", "5", "1.5", "4.0", "0.5"]

sentences = tf.placeholder(tf.string, [None], name="sentences")
labels = tf.placeholder(tf.float32, [None], name="labels")
ratings = tf.placeholder(tf.string, [None], name="ratings")

words = tf.string_split(sentences)
table = tf.lookup.StaticHashTable(
    tf.lookup.KeyValueTensorInitializer(tf.constant(VOCAB), tf.range(len(VOCAB), dtype=tf.int64)),
    default_value=0)
ids = table.lookup(words.values)
rows = words.indices[:, 0]
bow = tf.SparseTensor(tf.stack([rows, ids], axis=1), tf.ones_like(words.values, tf.float32),
                      tf.stack([words.dense_shape[0], len(VOCAB)]))
embedding = tf.get_variable("embedding", [len(VOCAB), 4],
                            initializer=tf.random_normal_initializer(stddev=0.5))
weights = tf.get_variable("w", [4, 1], initializer=tf.glorot_uniform_initializer())
hidden = tf.nn.swish(tf.sparse_tensor_dense_matmul(bow, embedding))
logits = tf.squeeze(tf.matmul(hidden, weights), 1)
loss = -tf.reduce_mean(labels * tf.log_sigmoid(logits) + (1 - labels) * tf.log_sigmoid(-logits))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
probability = tf.sigmoid(logits)
auc, auc_update = tf.metrics.auc(tf.cast(labels, tf.bool), probability, num_thresholds=20)

# samples from the classifier and from a few distributions
samples = tf.multinomial(tf.stack([tf.zeros_like(logits), logits], 1), 5, seed=7)
gamma = tf.random_gamma([3], [0.8, 2.5], seed=3)
poisson = tf.random.poisson([1.5, 20.0], [4], seed=9)

# features of the text
stars = tf.string_to_number(ratings)
bucket = tf.searchsorted(tf.constant([1.0, 2.5, 4.0]), stars, side="right")
histogram = tf.histogram_fixed_width(probability, [0.0, 1.0], nbins=4)
vocab_seen, _, counts = tf.unique_with_counts(words.values)
prefixes = tf.substr(words.values, 0, 3)
report = tf.string_join([tf.as_string(probability, precision=3), " (",
                         tf.as_string(stars, shortest=True), " stars)"])
shared = tf.sets.intersection(tf.constant([["good", "movie", "fun"]]),
                              tf.constant([["fun", "plot", "good"]]))
prior = tf.reduce_sum(tf.lgamma(stars + 1.0) - tf.math.xlogy(stars, stars + 1.0))
rolled = tf.roll(tf.range(6), 2, 0)

feed = {sentences: REVIEWS, labels: LABELS, ratings: RATINGS}
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer(),
              tf.tables_initializer()])
    for step in range(6):
        _, value = sess.run([train, loss], feed)
        print("step", step, "loss %.6f" % value)
    sess.run(auc_update, feed)
    print("auc %.6f" % sess.run(auc))
    print("samples", sess.run(samples, feed).tolist())
    print("gamma", np.round(sess.run(gamma), 5).tolist())
    print("poisson", sess.run(poisson).tolist())
    print("stars", sess.run(stars, feed).tolist(), "buckets", sess.run(bucket, feed).tolist())
    print("histogram", sess.run(histogram, feed).tolist())
    seen, seen_counts = sess.run([vocab_seen, counts], feed)
    print("words", [w.decode() for w in seen], seen_counts.tolist())
    print("prefixes", [p.decode() for p in sess.run(prefixes, feed)][:6])
    print("report", [r.decode() for r in sess.run(report, feed)][:3])
    print("shared", [s.decode() for s in sess.run(shared).values])
    print("prior %.5f" % sess.run(prior, feed), "rolled", sess.run(rolled).tolist())
