"""tf.image.non_max_suppression_padded, built the same way by real TensorFlow and the engine:
selected indices and counts, static shapes, and the Python layer's error. TensorFlow traces
its non_max_suppression_padded_v2 as a tf.function (one PartitionedCall node), the engine
builds the same ops inline: the graphs' nodes differ by design and are not compared.
tools/make_nms_padded_fixtures.py writes TensorFlow's to tests/fixtures/nms_padded/;
tests/engine/test_nms_padded.py compares the engine's."""

import numpy as np

_R = np.random.RandomState(3)
_F = np.float32


def _boxes(*shape, spread=1.0):
    corner = _R.uniform(0, spread, shape + (2,)).astype(_F)
    size = _R.uniform(0.05, 0.5, shape + (2,)).astype(_F)
    return np.concatenate([corner, corner + size], axis=-1).astype(_F)


def _scores(*shape):
    return _R.uniform(0, 1, shape).astype(_F)


_B10, _S10 = _boxes(10), _scores(10)
_B40, _S40 = _boxes(40, spread=0.6), _scores(40)
_BATCH, _SBATCH = _boxes(2, 3, 12), _scores(2, 3, 12)
_ORDER = np.argsort(-_S40, kind="stable")


def _nms(boxes, scores, *args, **kwargs):
    return lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(boxes), tf.constant(scores), *args, **kwargs)


CASES = {
    "unpadded": _nms(_B10, _S10, 5, 0.3),
    "padded": _nms(_B10, _S10, 5, 0.3, pad_to_max_output_size=True, name="nmsp"),
    "more_than_boxes": _nms(_B10, _S10, 16, 0.5, pad_to_max_output_size=True),
    "score_threshold": _nms(_B10, _S10, 8, 0.4, 0.35, True),
    "tiles_of_4": _nms(_B40, _S40, 20, 0.25, pad_to_max_output_size=True, tile_size=4),
    "tiles_of_8_unpadded": _nms(_B40, _S40, 30, 0.1, tile_size=8),
    "sorted_input": _nms(_B40[_ORDER], _S40[_ORDER], 12, 0.3, sorted_input=True,
                         pad_to_max_output_size=True, tile_size=16),
    "canonicalized": _nms(_B10, _S10, 6, 0.2, canonicalized_coordinates=True),
    "flipped_corners": _nms(_B10[:, [2, 3, 0, 1]], _S10, 6, 0.2),
    "batched": _nms(_BATCH, _SBATCH, 7, 0.3, pad_to_max_output_size=True, tile_size=8),
    "batched_score_threshold": _nms(_BATCH, _SBATCH, 5, 0.5, 0.4, True),
    "max_output_as_tensor": lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(_B10), tf.constant(_S10), tf.constant(4), 0.3,
        pad_to_max_output_size=True),
}


def build_case(tf, name):
    return list(CASES[name](tf))


def run_case(tf, name):
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run(outputs)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    return {f"out{i}": np.asarray(v) for i, v in enumerate(fetched)}, shapes


ERROR_CASES = {}


PYTHON_ERRORS = {
    "batched_unpadded": _nms(_BATCH, _SBATCH, 5, 0.3),
}


def python_errors(tf):
    found = {}
    for name, build in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                build(tf)
            except (ValueError, TypeError) as error:
                kind = "TypeError" if isinstance(error, TypeError) else "ValueError"
                found[name] = [kind, str(error).split(" for '{{node")[0]]
            else:
                found[name] = None
    return found
