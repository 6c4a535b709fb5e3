"""Non-max suppression as TF 1.x detection code (SSD, YOLO ports) ran it: tf.image.
non_max_suppression over decoded boxes, flipped corners, empty boxes, score ties, a score
threshold, a gather of the kept boxes, and the kernel's errors."""
import numpy as np

import engine as tf


def kernel_line(error):
    lines = error.message.split("\n")
    return next(lines[i - 1] for i, line in enumerate(lines) if "[[{{node" in line)


def main():
    tf.reset_default_graph()
    rng = np.random.RandomState(3)
    centers = rng.uniform(0, 10, size=(40, 2)).astype(np.float32)
    sizes = rng.uniform(0.5, 3, size=(40, 2)).astype(np.float32)
    boxes_np = np.concatenate([centers - sizes / 2, centers + sizes / 2], axis=1)
    boxes_np[5] = boxes_np[5][[2, 3, 0, 1]]  # corners given the other way round
    boxes_np[7] = [1, 1, 1, 4]               # no area
    scores_np = np.round(rng.uniform(size=40), 2).astype(np.float32)  # some ties
    boxes = tf.placeholder(tf.float32, [None, 4], name="boxes")
    scores = tf.placeholder(tf.float32, [None], name="scores")
    keep = tf.image.non_max_suppression(boxes, scores, 10)
    keep_strict = tf.image.non_max_suppression(boxes, scores, 40, iou_threshold=0.1,
                                               score_threshold=0.3)
    kept_boxes = tf.gather(boxes, keep)
    print(keep.name, str(keep.shape), [n.name for n in tf.get_default_graph().as_graph_def().node
                                       if n.name.startswith("non_max_suppression/")])
    with tf.Session() as sess:
        feed = {boxes: boxes_np, scores: scores_np}
        k, ks, kb = sess.run([keep, keep_strict, kept_boxes], feed)
        print(k.tolist())
        print(ks.tolist())
        print(np.round(kb[:3], 4).tolist())
        print(sess.run(tf.image.non_max_suppression(boxes, scores, 0), feed).tolist())
        bad_size = tf.placeholder_with_default(3, None)
        bad_boxes = tf.placeholder_with_default(np.zeros([3, 3], np.float32), None)
        for fetch, feed in (
                (tf.image.non_max_suppression(boxes, scores, 5, iou_threshold=1.5), feed),
                (tf.image.non_max_suppression(bad_boxes, scores, 3), {scores: scores_np[:3]}),
                (tf.image.non_max_suppression(boxes, scores, bad_size),
                 {**feed, bad_size: [3]})):
            try:
                sess.run(fetch, feed)
            except tf.errors.InvalidArgumentError as e:
                print("error", kernel_line(e))


if __name__ == "__main__":
    main()
