"""A matrix-factorisation recommender in TF 1.x (2017 style): user and item embeddings in
partitioned variables (tf.fixed_size_partitioner), biases, users described by the sparse bag of
items they rated (tf.sparse_placeholder, embedding_lookup_sparse with weights and the "sqrtn"
combiner, SVD++-like), tf.sparse_tensor_dense_matmul, Adagrad on the IndexedSlices gradients,
tf.metrics.root_mean_squared_error and top-k recommendations with tf.nn.top_k."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

USERS, ITEMS, DIM = 7, 9, 4


def main():
    tf.reset_default_graph()
    tf.set_random_seed(13)
    rng = np.random.RandomState(2)
    true_u, true_v = rng.randn(USERS, 2), rng.randn(ITEMS, 2)
    pairs = [(u, i) for u in range(USERS) for i in range(ITEMS) if rng.rand() < 0.5]
    ratings = np.array([3.0 + true_u[u] @ true_v[i] for u, i in pairs], np.float32)
    users = np.array([p[0] for p in pairs], np.int64)
    items = np.array([p[1] for p in pairs], np.int64)
    print("ratings", len(pairs), "mean %.4f" % ratings.mean())

    user_ids = tf.placeholder(tf.int64, [None], name="user_ids")
    item_ids = tf.placeholder(tf.int64, [None], name="item_ids")
    rated = tf.sparse_placeholder(tf.int64, name="rated")
    rated_weights = tf.sparse_placeholder(tf.float32, name="rated_weights")
    target = tf.placeholder(tf.float32, [None], name="target")
    init = tf.random_normal_initializer(stddev=0.1, seed=1)
    user_emb = tf.get_variable("user_emb", [USERS, DIM], initializer=init,
                               partitioner=tf.fixed_size_partitioner(2))
    item_emb = tf.get_variable("item_emb", [ITEMS, DIM], initializer=init,
                               partitioner=tf.fixed_size_partitioner(3))
    implicit = tf.get_variable("implicit", [ITEMS, DIM], initializer=init)
    item_bias = tf.get_variable("item_bias", [ITEMS], initializer=tf.zeros_initializer())
    global_bias = tf.Variable(3.0, name="global_bias")
    print("partitions", [v.name for v in tf.global_variables() if "emb" in v.name])

    u = tf.nn.embedding_lookup(user_emb, user_ids, partition_strategy="div")
    u += tf.nn.embedding_lookup_sparse(implicit, rated, rated_weights, combiner="sqrtn")
    v = tf.nn.embedding_lookup(item_emb, item_ids, partition_strategy="div")
    b = tf.gather(item_bias, item_ids)
    prediction = tf.reduce_sum(u * v, axis=1) + b + global_bias
    l2 = 0.01 * (tf.nn.l2_loss(u) + tf.nn.l2_loss(v))
    loss = tf.reduce_mean(tf.squared_difference(prediction, target)) + l2
    optimizer = tf.train.AdagradOptimizer(0.3, initial_accumulator_value=0.1)
    grads = optimizer.compute_gradients(loss)
    print("sparse gradients", [v.op.name for g, v in grads if isinstance(g, tf.IndexedSlices)])
    train = optimizer.apply_gradients(grads)
    rmse, rmse_update = tf.metrics.root_mean_squared_error(target, prediction)

    # the rated items as a users x items SparseTensor, times a dense matrix: counts per user
    by_item = tf.SparseTensor(tf.stack([rated.indices[:, 0], rated.values], axis=1),
                              rated_weights.values,
                              tf.stack([rated.dense_shape[0], ITEMS]))
    counts = tf.sparse_tensor_dense_matmul(tf.cast(by_item, tf.float64),
                                           tf.ones([ITEMS, 1], tf.float64))
    wrong = tf.sparse_tensor_dense_matmul(rated_weights, tf.ones([ITEMS, 1]))
    row_sums = tf.sparse_reduce_sum(by_item, axis=1)
    all_items = tf.range(ITEMS, dtype=tf.int64)
    one_user = tf.placeholder(tf.int64, [], name="one_user")
    scores = tf.matmul(tf.nn.embedding_lookup(user_emb, [one_user], partition_strategy="div"),
                       tf.concat(list(item_emb), axis=0), transpose_b=True)[0]
    scores += tf.gather(item_bias, all_items)
    top = tf.nn.top_k(scores, k=3)

    per_user = {}
    for uid, iid in pairs:
        per_user.setdefault(uid, []).append(iid)

    def sparse_rated(batch_users):
        idx, vals = [], []
        for row, uid in enumerate(batch_users):
            for col, iid in enumerate(per_user.get(uid, [])):
                idx.append([row, col])
                vals.append(iid)
        shape = [len(batch_users), max(len(per_user.get(x, [])) for x in batch_users)]
        return (tf.SparseTensorValue(np.array(idx, np.int64), np.array(vals, np.int64), shape),
                tf.SparseTensorValue(np.array(idx, np.int64), np.ones(len(vals), np.float32),
                                     shape))

    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        for epoch in range(12):
            order = rng.permutation(len(pairs))
            for start in range(0, len(order), 8):
                batch = order[start:start + 8]
                ids, weights = sparse_rated(users[batch])
                l, _ = sess.run([loss, train], {user_ids: users[batch], item_ids: items[batch],
                                                rated: ids, rated_weights: weights,
                                                target: ratings[batch]})
            if epoch % 4 == 3:
                print("epoch %d loss %.5f" % (epoch, l))
        ids, weights = sparse_rated(users)
        feed = {user_ids: users, item_ids: items, rated: ids, rated_weights: weights,
                target: ratings}
        sess.run(rmse_update, feed)
        print("rmse %.5f" % sess.run(rmse))
        print("counts", sess.run(counts, feed)[:5, 0].tolist(),
              sess.run(row_sums, feed)[:5].tolist())
        try:
            sess.run(wrong, feed)
        except tf.errors.InvalidArgumentError as e:
            print(type(e).__name__, [line for line in e.message.splitlines()
                                     if "Cannot multiply" in line])
        values, indices = sess.run(top, {one_user: 2})
        print("top items for user 2", indices.tolist(), np.round(values, 4).tolist())
        acc = [v for v in tf.global_variables() if "Adagrad" in v.name]
        print("accumulators", len(acc), acc[0].name)


if __name__ == "__main__":
    main()
