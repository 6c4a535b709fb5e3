"""A TF 1.x word2vec: skip-gram pairs from a text8-format corpus, embeddings trained with
tf.nn.nce_loss (log-uniform negative samples) and plain SGD, nearest words by cosine."""

import collections
import os

import numpy as np

import engine as tf

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                      "program_data", "text8")
VOCABULARY, EMBEDDING, SKIP_WINDOW, NUM_SKIPS, BATCH, NEGATIVES = 40, 16, 1, 2, 32, 8


def build_dataset(words, size):
    counts = [["UNK", -1]] + collections.Counter(words).most_common(size - 1)
    index = {word: i for i, (word, _) in enumerate(counts)}
    data = [index.get(word, 0) for word in words]
    counts[0][1] = data.count(0)
    return data, counts, [word for word, _ in counts]


def skipgram_batches(data, rng):
    """(centre word, one of its neighbours) pairs, NUM_SKIPS per centre, in corpus order."""
    position = SKIP_WINDOW
    while True:
        centres, contexts = [], []
        while len(centres) < BATCH:
            if position >= len(data) - SKIP_WINDOW:
                position = SKIP_WINDOW
            window = [position + offset for offset in range(-SKIP_WINDOW, SKIP_WINDOW + 1)
                      if offset]
            for target in rng.choice(window, NUM_SKIPS, replace=False):
                centres.append(data[position])
                contexts.append(data[target])
            position += 1
        yield np.array(centres, np.int32), np.array(contexts, np.int64).reshape(-1, 1)


def main():
    with open(CORPUS) as f:
        words = f.read().split()
    data, counts, reverse = build_dataset(words, VOCABULARY)
    print("words", len(words), "most common", counts[:5])
    print("sample", data[:8], [reverse[i] for i in data[:8]])

    tf.set_random_seed(1)
    train_inputs = tf.placeholder(tf.int32, [BATCH])
    train_labels = tf.placeholder(tf.int64, [BATCH, 1])
    embeddings = tf.Variable(tf.random_uniform([VOCABULARY, EMBEDDING], -1.0, 1.0))
    embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    nce_weights = tf.Variable(tf.truncated_normal([VOCABULARY, EMBEDDING],
                                                  stddev=1.0 / np.sqrt(EMBEDDING)))
    nce_biases = tf.Variable(tf.zeros([VOCABULARY]))
    loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases,
                                         labels=train_labels, inputs=embed,
                                         num_sampled=NEGATIVES, num_classes=VOCABULARY))
    optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keep_dims=True))
    normalized = embeddings / norm
    valid = tf.constant([1, 2, 3], tf.int32)
    similarity = tf.matmul(tf.nn.embedding_lookup(normalized, valid), normalized,
                           transpose_b=True)

    batches = skipgram_batches(data, np.random.RandomState(7))
    with tf.Session() as sess:
        tf.global_variables_initializer().run()
        average = 0.0
        for step in range(1, 61):
            centres, contexts = next(batches)
            _, value = sess.run([optimizer, loss], {train_inputs: centres,
                                                    train_labels: contexts})
            average += value
            if step % 20 == 0:
                print("average loss at step", step, ":", average / 20)
                average = 0.0
        sims = similarity.eval()
        for row, word in enumerate([reverse[i] for i in (1, 2, 3)]):
            nearest = (-sims[row]).argsort()[1:4]
            print("nearest to", word, [reverse[i] for i in nearest],
                  np.round(sims[row][nearest], 4))


if __name__ == "__main__":
    main()
