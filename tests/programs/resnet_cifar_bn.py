"""A small ResNet for CIFAR-10 as 2018 tutorials wrote it in TF 1.x: tf.layers.conv2d with an
l2 kernel_regularizer, tf.layers.batch_normalization (momentum 0.99, training placeholder) whose
moving averages run through the UPDATE_OPS collection, residual blocks with a strided projection,
weight decay from tf.losses.get_regularization_loss, a piecewise_constant learning rate with
MomentumOptimizer, and tf.train.MonitoredTrainingSession with StopAtStepHook, a
LoggingTensorHook-style after_run hook and summaries written to a checkpoint directory."""
# fixture threads: 1 2 4
import os
import shutil
import tempfile

import numpy as np

import engine as tf



def regularizer(weight):
    return tf.multiply(1e-3, tf.nn.l2_loss(weight))


def block(x, filters, stride, training, name):
    with tf.variable_scope(name):
        shortcut = x
        if stride != 1 or x.shape[-1].value != filters:
            shortcut = tf.layers.conv2d(x, filters, 1, stride, use_bias=False,
                                        kernel_regularizer=regularizer, name="projection")
        h = tf.layers.conv2d(x, filters, 3, stride, padding="same", use_bias=False,
                             kernel_regularizer=regularizer, name="conv1")
        h = tf.layers.batch_normalization(h, momentum=0.99, training=training, name="bn1")
        h = tf.nn.relu(h)
        h = tf.layers.conv2d(h, filters, 3, 1, padding="same", use_bias=False,
                             kernel_regularizer=regularizer, name="conv2")
        h = tf.layers.batch_normalization(h, momentum=0.99, training=training, name="bn2")
        return tf.nn.relu(h + shortcut)


class PrintHook(tf.train.SessionRunHook):
    def __init__(self, tensors):
        self.tensors = tensors

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self.tensors)

    def after_run(self, run_context, run_values):
        step, loss, reg, lr = run_values.results
        if step % 3 == 0:
            print("step %d loss %.5f reg %.6f lr %.3f" % (step, loss, reg, lr))


def main():
    tf.reset_default_graph()
    tf.set_random_seed(21)
    rng = np.random.RandomState(3)
    images = rng.rand(24, 8, 8, 3).astype(np.float32)
    labels = rng.randint(0, 10, 24).astype(np.int64)
    x = tf.placeholder(tf.float32, [None, 8, 8, 3], name="images")
    y = tf.placeholder(tf.int64, [None], name="labels")
    training = tf.placeholder_with_default(False, [], name="training")
    h = tf.layers.conv2d(x, 8, 3, padding="same", use_bias=False,
                         kernel_regularizer=regularizer, name="stem")
    h = tf.nn.relu(tf.layers.batch_normalization(h, momentum=0.99, training=training,
                                                 name="stem_bn"))
    h = block(h, 8, 1, training, "block1")
    h = block(h, 16, 2, training, "block2")
    h = tf.reduce_mean(h, axis=[1, 2], name="global_pool")
    logits = tf.layers.dense(h, 10, name="logits")
    xent = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    reg = tf.losses.get_regularization_loss()
    loss = xent + reg
    step = tf.train.get_or_create_global_step()
    lr = tf.train.piecewise_constant(step, [4, 8], [0.1, 0.05, 0.01])
    optimizer = tf.train.MomentumOptimizer(lr, 0.9)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = optimizer.minimize(loss, global_step=step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    tf.summary.scalar("loss", loss)
    tf.summary.scalar("learning_rate", lr)
    tf.summary.histogram("logits", logits)
    print("update ops", [op.name for op in tf.get_collection(tf.GraphKeys.UPDATE_OPS)])
    print("regularization losses", len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
    print("moving", [v.name for v in tf.global_variables() if "moving" in v.name][:4])
    print("trainable", len(tf.trainable_variables()), "global", len(tf.global_variables()))
    directory = tempfile.mkdtemp()
    try:
        hooks = [tf.train.StopAtStepHook(last_step=10),
                 PrintHook([step, loss, reg, lr])]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=directory, hooks=hooks,
                                               save_summaries_steps=5,
                                               save_checkpoint_steps=5,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                batch = rng.choice(24, 8, replace=False)
                sess.run(train, {x: images[batch], y: labels[batch], training: True})
        print("files", sorted({f.split(".")[0] for f in os.listdir(directory)}))
        print("checkpoint", os.path.basename(tf.train.latest_checkpoint(directory)))
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, tf.train.latest_checkpoint(directory))
            mean = sess.run("stem_bn/moving_mean:0")
            print("moving mean", np.round(mean[:4], 5).tolist())
            print("eval accuracy %.4f" % sess.run(accuracy, {x: images, y: labels}))
            print("train-mode logits", np.round(sess.run(logits, {x: images[:2],
                                                                  training: True})[0, :4], 4).tolist())
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
