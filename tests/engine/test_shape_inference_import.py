"""A broken engine.shape_inference is an error to see: it once made every shape unknown for
the rest of the process without a word (reduce_sum then built Range(Rank(x)) axes)."""

import sys

import pytest

import engine
import engine as tf
from engine.framework import operation


def test_a_broken_shape_inference_import_is_raised_not_hidden(monkeypatch):
    monkeypatch.setattr(operation, "_shape_inference", None)
    monkeypatch.delattr(engine, "shape_inference", raising=False)
    monkeypatch.setitem(sys.modules, "engine.shape_inference", None)  # an import that fails
    with tf.Graph().as_default():
        with pytest.raises(ImportError, match="engine.shape_inference"):
            tf.constant(1.0) + 1.0


def test_shapes_are_inferred_once_it_imports():
    with tf.Graph().as_default():
        x = tf.random_uniform([10])
        assert x.shape.as_list() == [10]
        assert tf.reduce_sum(x).op.inputs[1].op.type == "Const"
