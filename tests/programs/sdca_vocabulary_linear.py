"""A linear classifier of string features trained by SDCA, TF 1.x style: tokens mapped to ids by
a StaticVocabularyTable (unknown tokens to hashed buckets), examples named by sdca_fprint, one
example a step through tf.train.sdca_optimizer (its dual state kept per example id), the
weight deltas added to the model's variable, and sdca_shrink_l1 at the end."""

import numpy as np

import engine as tf

VOCAB = ["good", "great", "fine", "bad", "awful", "poor"]
EXAMPLES = [("good great movie", 1.0), ("awful bad acting", 0.0), ("fine", 1.0),
            ("poor bad", 0.0), ("great fun", 1.0), ("meh", 0.0)]
BUCKETS = 3

tokens = tf.placeholder(tf.string, [None], name="tokens")
label = tf.placeholder(tf.float32, [], name="label")
state_in = tf.placeholder(tf.float32, [1, 4], name="state")
example_id = tf.placeholder(tf.string, [1], name="example_id")

table = tf.lookup.StaticVocabularyTable(
    tf.lookup.KeyValueTensorInitializer(VOCAB, tf.range(len(VOCAB), dtype=tf.int64)),
    num_oov_buckets=BUCKETS)
ids = table.lookup(tokens)
weights = tf.Variable(tf.zeros([len(VOCAB) + BUCKETS]), name="weights")
all_ids = tf.range(len(VOCAB) + BUCKETS, dtype=tf.int64)

step = tf.train.sdca_optimizer(
    sparse_example_indices=[tf.zeros_like(ids)], sparse_feature_indices=[ids],
    sparse_feature_values=[], dense_features=[], example_weights=tf.ones([1]),
    example_labels=tf.reshape(label, [1]), sparse_indices=[all_ids],
    sparse_weights=[weights.read_value()], dense_weights=[], example_state_data=state_in,
    loss_type="logistic_loss", l1=0.01, l2=1.0, num_loss_partitions=1,
    num_inner_iterations=1)
apply_delta = weights.assign_add(step.out_delta_sparse_weights[0])
fprint = tf.train.sdca_fprint(example_id)
shrink = tf.train.sdca_shrink_l1([weights], l1=0.01, l2=1.0)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    print("ids:", sess.run(ids, {tokens: "good meh awful zzz".split()}))
    states = {}
    for epoch in range(3):
        primal = dual = 0.0
        for text, y in EXAMPLES:
            key = tuple(sess.run(fprint, {example_id: [text]})[0])
            state = states.get(key, np.zeros([1, 4], np.float32))
            new_state, _ = sess.run([step.out_example_state_data, apply_delta],
                                    {tokens: text.split(), label: y, state_in: state})
            states[key] = new_state
            primal += new_state[0, 1]
            dual += new_state[0, 2]
        print(f"epoch {epoch}: primal {primal:.6f} dual {dual:.6f}")
    print("weights:", np.round(sess.run(weights), 6))
    sess.run(shrink)
    print("shrunk:", np.round(sess.run(weights), 6))
    print("fprint:", sess.run(fprint, {example_id: ["fine"]}))
