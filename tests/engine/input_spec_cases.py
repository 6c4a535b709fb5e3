"""tf.layers.InputSpec: its fields, repr and config, and a tf.layers.Layer subclass whose
input_spec each call is checked against, run the same way by real TensorFlow (tf_keras's
legacy layers) and by the engine: each case returns what it saw as JSON (fixtures in
tests/fixtures/input_spec/, written by tools/make_input_spec_fixtures.py)."""


def _error(fn):
    try:
        fn()
    except (TypeError, ValueError) as error:
        return [type(error).__name__, str(error)]
    return None


def specs(tf):
    """Fields, repr and config of specs made from a shape, a rank, bounds and axes; the
    constructor's errors."""
    made = {"shape": tf.layers.InputSpec(shape=[None, 3, 4], dtype="float32"),
            "ndim_axes": tf.layers.InputSpec(ndim=4, axes={-1: 3, 1: 5}),
            "bounds": tf.layers.InputSpec(min_ndim=2, max_ndim=5),
            "empty": tf.layers.InputSpec()}
    seen = {name: [repr(spec), {k: list(v) if isinstance(v, tuple) else v
                                for k, v in spec.get_config().items()},
                   repr(tf.layers.InputSpec.from_config(spec.get_config()))]
            for name, spec in made.items()}
    seen["axes_keys"] = {str(k): v for k, v in made["ndim_axes"].axes.items()}
    seen["bad_axes"] = _error(lambda: tf.layers.InputSpec(axes={"x": 3}))
    seen["axis_too_big"] = _error(lambda: tf.layers.InputSpec(ndim=2, axes={2: 3}))
    return seen


def checked_calls(tf):
    """A layer that doubles its input under a spec: accepted inputs run; each broken rule is
    TensorFlow's ValueError."""

    class Doubler(tf.layers.Layer):
        def call(self, inputs):
            return inputs * 2.0

    def call(spec, shape, dtype=None):
        layer = Doubler(name="doubler")
        layer.input_spec = spec
        with tf.Graph().as_default():
            x = tf.placeholder(dtype or tf.float32, shape, name="x")
            return _error(lambda: layer(x))

    spec = tf.layers.InputSpec
    return {"ok": call(spec(ndim=2, axes={-1: 3}), [None, 3]),
            "unknown_rank": call(spec(ndim=2), None),
            "ndim": call(spec(ndim=2), [4, 3, 2]),
            "max_ndim": call(spec(max_ndim=2), [4, 3, 2]),
            "min_ndim": call(spec(min_ndim=3), [4, 3]),
            "dtype": call(spec(dtype="float32"), [4], tf.float64),
            "axis": call(spec(axes={-1: 5}), [None, 3]),
            "shape": call(spec(shape=(None, 3)), [2, 4]),
            "squeeze": call(spec(shape=(2, 3, 1), allow_last_axis_squeeze=True), [2, 3]),
            "count": call([spec(ndim=2), spec(ndim=2)], [2, 3])}


CASES = {"specs": specs, "checked_calls": checked_calls}
