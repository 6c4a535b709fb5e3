"""Model files that are no protobuf, told by their first bytes: a Keras .keras zip or HDF5 .h5
(read by parsers/keras_files.py), a TFLite FlatBuffer (named, with what to do, not read)."""

from __future__ import annotations

import os

from parsers.errors import InputError

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a first member, or an empty archive
HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"
TFLITE_IDENTIFIER = b"TFL3"  # a FlatBuffer's file identifier sits at bytes 4-8
TFLITE_WHAT_TO_DO = ("a TensorFlow Lite model (.tflite FlatBuffer): graph-inspector does not read "
                     "TFLite models yet; open the SavedModel or Keras model it was converted from, "
                     "or list its ops with TensorFlow's "
                     "tf.lite.experimental.Analyzer.analyze(model_path=...)")


def is_hdf5(head):
    """Whether a file's first bytes hold HDF5's signature (at 0, or after a user block).

    >>> is_hdf5(b"\\x89HDF\\r\\n\\x1a\\n\\x00"), is_hdf5(b"PK\\x03\\x04")
    (True, False)
    """
    return any(head[offset:offset + 8] == HDF5_MAGIC for offset in (0, 512, 1024, 2048))


def is_tflite(head, size):
    """Whether a file is a TFLite FlatBuffer: its identifier, after a root offset inside it
    (a GraphDef whose first node is named TFL3... has no such offset).

    >>> is_tflite(b"\\x1c\\x00\\x00\\x00TFL3" + bytes(40), 48), is_tflite(b"\\n\\x06\\n\\x04TFL3", 8)
    (True, False)
    """
    if len(head) < 8 or head[4:8] != TFLITE_IDENTIFIER:
        return False
    root = int.from_bytes(head[:4], "little")
    return 8 <= root < size and root % 4 == 0


def load_model_file(path, head):
    """A Loaded for a Keras model file, InputError for a TFLite model, None for anything else."""
    if head.startswith(ZIP_MAGIC):
        from parsers.keras_files import load_keras_zip  # zipfile and h5py only for these

        return load_keras_zip(path)
    if is_hdf5(head):
        from parsers.keras_files import load_keras_h5

        return load_keras_h5(path)
    if is_tflite(head, os.path.getsize(path)):
        raise InputError(path, TFLITE_WHAT_TO_DO)
    return None
