"""TensorBoard's own loader reads the histogram, image, audio and text summaries the engine wrote.

The values themselves are compared with TensorFlow's in test_tf1_snippets.py; this checks that
TensorBoard (its EventAccumulator, when the package is installed) finds every kind of summary
in an event file written by the engine's FileWriter, decoded as the inputs say.
"""

import numpy as np
import pytest

import engine as tf

event_accumulator = pytest.importorskip(
    "tensorboard.backend.event_processing.event_accumulator")


def test_tensorboard_reads_every_summary_kind(tmp_path):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    tf.summary.histogram("weights", x)
    tf.summary.image("pictures", tf.reshape(x, [-1, 2, 3, 1]), max_outputs=2)
    tf.summary.audio("sound", x, 16000.0, max_outputs=1)
    tf.summary.text("note", tf.constant("hello"))
    tf.summary.scalar("average", tf.reduce_mean(x))
    merged = tf.summary.merge_all()
    batches = [np.random.RandomState(step).uniform(-1, 1, (3, 6)).astype(np.float32)
               for step in range(3)]
    with tf.summary.FileWriter(str(tmp_path), tf.get_default_graph()) as writer, \
            tf.Session() as sess:
        for step, batch in enumerate(batches):
            writer.add_summary(sess.run(merged, {x: batch}), step)

    accumulator = event_accumulator.EventAccumulator(str(tmp_path), size_guidance={
        kind: 0 for kind in (event_accumulator.SCALARS, event_accumulator.HISTOGRAMS,
                             event_accumulator.IMAGES, event_accumulator.AUDIO,
                             event_accumulator.TENSORS)})
    accumulator.Reload()
    tags = accumulator.Tags()
    assert tags["histograms"] == ["weights"]
    assert sorted(tags["images"]) == ["pictures/image/0", "pictures/image/1"]
    assert tags["audio"] == ["sound/audio"]
    assert tags["tensors"] == ["note"]
    histograms = accumulator.Histograms("weights")
    assert [h.step for h in histograms] == [0, 1, 2]
    for h, batch in zip(histograms, batches):
        assert h.histogram_value.num == batch.size
        assert h.histogram_value.min == batch.min() and h.histogram_value.max == batch.max()
        assert sum(h.histogram_value.bucket) == batch.size
    for image in accumulator.Images("pictures/image/1"):
        assert (image.width, image.height) == (3, 2)
        assert image.encoded_image_string.startswith(b"\x89PNG")
    for audio in accumulator.Audio("sound/audio"):
        assert (audio.content_type, audio.length_frames, audio.sample_rate) == (
            "audio/wav", 6, 16000.0)
        assert audio.encoded_audio_string.startswith(b"RIFF")
    note = accumulator.Tensors("note")[0].tensor_proto
    assert note.string_val == [b"hello"]
    assert tags["scalars"] == ["average"]
    assert [round(s.value, 6) for s in accumulator.Scalars("average")] == [
        round(float(b.mean()), 6) for b in batches]
