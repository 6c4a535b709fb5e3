"""A bag-of-words sentiment model over RaggedTensors, as a TF 1.15 text program wrote it:
sentences split into ragged tokens (tf.strings.split, result_type="RaggedTensor"), hashed,
embedded with tf.nn.embedding_lookup of the ragged ids, averaged per sentence (reduce_mean
over the ragged axis) and trained with gradient descent; prints the ragged values Session.run
gives, the losses and the predictions."""

import numpy as np

import engine as tf

SENTENCES = ["a great fun movie", "terrible plot", "great acting great story",
             "boring and terrible", "fun", "a boring movie with a terrible end"]
LABELS = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
BUCKETS, DIM = 32, 4


def build():
    rng = np.random.RandomState(7)
    sentences = tf.placeholder(tf.string, [None], name="sentences")
    labels = tf.placeholder(tf.float32, [None], name="labels")
    tokens = tf.strings.split(sentences, result_type="RaggedTensor")
    ids = tf.strings.to_hash_bucket_fast(tokens, BUCKETS)
    embeddings = tf.Variable(rng.uniform(-0.5, 0.5, [BUCKETS, DIM]).astype(np.float32),
                             name="embeddings")
    vectors = tf.nn.embedding_lookup(embeddings, ids)
    mean = tf.reduce_mean(vectors, axis=1)
    weights = tf.Variable(rng.uniform(-0.5, 0.5, [DIM, 1]).astype(np.float32), name="w")
    logits = tf.squeeze(tf.matmul(mean, weights), axis=1)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                  logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    padded = tokens.to_tensor(default_value="<pad>")
    return dict(sentences=sentences, labels=labels, tokens=tokens, ids=ids, loss=loss,
                train=train, prediction=tf.sigmoid(logits), lengths=tokens.row_lengths(),
                padded=padded)


def main():
    g = build()
    feed = {g["sentences"]: SENTENCES, g["labels"]: LABELS}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tokens, ids = sess.run([g["tokens"], g["ids"]], feed)
        print(type(tokens).__name__, tokens.to_list()[:2])
        print("ids", ids.to_list()[1], "splits", tokens.row_splits.tolist())
        print("lengths", sess.run(g["lengths"], feed).tolist())
        print("padded", sess.run(g["padded"], feed)[1].tolist())
        for step in range(30):
            _, loss = sess.run([g["train"], g["loss"]], feed)
            if step % 5 == 0:
                print("step %d loss %.5f" % (step, loss))
        print("predictions", np.round(sess.run(g["prediction"], feed), 4).tolist())


if __name__ == "__main__":
    main()
