"""tf.raw_ops: every op the engine has an OpDef for, called as TensorFlow's own wrapper-free
functions are (TF 1.13 and later): by keyword only, inputs and attrs by their OpDef names.

>>> import engine as tf
>>> with tf.Graph().as_default():
...     handle = tf.raw_ops.TensorListReserve(element_shape=[2], num_elements=3,
...                                           element_dtype=tf.float32)
...     handle.op.type, handle.dtype.name
('TensorListReserve', 'variant')
"""

from engine.framework import op_registry
from engine.framework.api_namespace import not_supported
from engine.ops.op_def_library import apply_op


class RawOps:
    """The tf.raw_ops namespace: an attribute per registered op."""

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if op_registry.lookup(name) is None:
            raise not_supported(f"tf.raw_ops.{name}")

        def raw_op(**arguments):
            return apply_op(name, **arguments)
        raw_op.__name__ = raw_op.__qualname__ = name
        return raw_op

    def __dir__(self):
        return sorted(op_registry.registered_ops())

    def __repr__(self):
        return "<namespace tf.raw_ops>"


raw_ops = RawOps()
