"""tf.saved_model as TF 1.x used it: TensorFlow's SavedModels serve TensorFlow's predictions in the
engine, and the engine writes what TensorFlow's SavedModelBuilder writes for the same program.

Fixtures: tools/make_saved_model_fixtures.py (tests/programs/saved_model_serving.py on TensorFlow).
The other direction, TensorFlow loading the engine's SavedModels, is tools/check_saved_model_in_tf.py.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.proto import saved_model_pb2

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saved_model"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
CASES = [(model, tag) for model in sorted(EXPECTED) for tag in sorted(EXPECTED[model])]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "programs"))
import saved_model_serving  # noqa: E402


def served(export_dir, tags):
    """What the engine's loader.load gives, in expected.json's shape."""
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, tags, str(export_dir))
        outputs = {}
        for key in sorted(meta.signature_def):
            signature = meta.signature_def[key]
            feeds = {tf.saved_model.utils.get_tensor_from_tensor_info(info): saved_model_serving.INPUTS
                     for info in signature.inputs.values()}
            for name in sorted(signature.outputs):
                outputs[f"{key}/{name}"] = np.asarray(sess.run(signature.outputs[name].name, feeds))
        return {"signatures": {key: text_format.MessageToString(meta.signature_def[key])
                               for key in sorted(meta.signature_def)},
                "collections": sorted(meta.collection_def),
                "saver_def": text_format.MessageToString(meta.saver_def),
                "nodes": sorted(node.name for node in graph.as_graph_def().node),
                "outputs": outputs}


def assert_outputs_equal(ours, theirs):
    assert sorted(ours) == sorted(theirs)
    for key, entry in theirs.items():
        expected = np.array(entry["values"], entry["dtype"]).reshape(entry["shape"])
        assert ours[key].dtype == expected.dtype, key
        np.testing.assert_allclose(ours[key], expected, rtol=1e-5, atol=1e-7, err_msg=key)


@pytest.mark.parametrize("model, tag", CASES)
def test_tensorflows_saved_model_serves_tensorflows_predictions(model, tag):
    ours, theirs = served(FIXTURES / model, [tag]), EXPECTED[model][tag]
    assert ours["signatures"] == theirs["signatures"]
    assert ours["collections"] == theirs["collections"]
    assert_outputs_equal(ours["outputs"], theirs["outputs"])


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("exported")
    saved_model_serving.export(str(root))
    return root


@pytest.mark.parametrize("model, tag", CASES)
def test_engine_writes_what_tensorflow_writes(exported, model, tag):
    """Same meta graphs, signatures, collections, SaverDef and graph; the same served values."""
    ours, theirs = served(exported / model, [tag]), EXPECTED[model][tag]
    for field in ("signatures", "collections", "saver_def", "nodes"):
        assert ours[field] == theirs[field], field
    assert_outputs_equal(ours["outputs"], theirs["outputs"])


def test_saved_model_file_is_tensorflows_layout(exported):
    for model in ("builder", "simple"):
        ours = saved_model_pb2.SavedModel.FromString((exported / model / "saved_model.pb").read_bytes())
        theirs = saved_model_pb2.SavedModel.FromString((FIXTURES / model / "saved_model.pb").read_bytes())
        assert ours.saved_model_schema_version == theirs.saved_model_schema_version == 1
        assert [list(m.meta_info_def.tags) for m in ours.meta_graphs] == \
            [list(m.meta_info_def.tags) for m in theirs.meta_graphs]
        assert sorted(p.name for p in (exported / model / "variables").iterdir()) == \
            sorted(p.name for p in (FIXTURES / model / "variables").iterdir())
    text = saved_model_pb2.SavedModel()
    text_format.Parse((exported / "text" / "saved_model.pbtxt").read_text(), text)
    assert [list(m.meta_info_def.tags) for m in text.meta_graphs] == [["serve"], ["train"]]


def test_signature_helpers():
    with tf.Graph().as_default():
        examples = tf.placeholder(tf.string, [None], name="examples")
        scores = tf.placeholder(tf.float32, [None, 2], name="scores")
        classify = tf.saved_model.classification_signature_def(examples, None, scores)
        assert tf.saved_model.is_valid_signature(classify)
        assert not tf.saved_model.is_valid_signature(tf.saved_model.build_signature_def(
            {"x": tf.saved_model.build_tensor_info(scores)}, {}, tf.saved_model.PREDICT_METHOD_NAME))
        with pytest.raises(ValueError, match="Regression input tensors must be of type string"):
            tf.saved_model.regression_signature_def(scores, scores)
        sparse = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        info = tf.saved_model.utils.build_tensor_info(sparse)
        assert info.coo_sparse.values_tensor_name == sparse.values.name
        back = tf.saved_model.utils.get_tensor_from_tensor_info(info)
        assert back.indices is sparse.indices


def test_reserved_signature_key_and_second_variables_save(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.Variable(1.0, name="v")
        sess.run(tf.global_variables_initializer())
        builder = tf.saved_model.builder.SavedModelBuilder(str(tmp_path / "m"))
        with pytest.raises(KeyError, match="__saved_model_init_op"):
            reserved = {"__saved_model_init_op": tf.saved_model.build_signature_def()}
            builder.add_meta_graph_and_variables(sess, ["serve"], reserved)
        with pytest.raises(AssertionError, match="Please invoke `add_meta_graph_and_variables"):
            builder.add_meta_graph(["train"])
        builder.add_meta_graph_and_variables(sess, ["serve"])
        with pytest.raises(AssertionError, match="Please invoke `add_meta_graph\\(\\)` instead"):
            builder.add_meta_graph_and_variables(sess, ["serve"])


def test_missing_saved_model_api_names_itself():
    with pytest.raises(AttributeError, match="tf.saved_model.experimental is not supported by the engine yet"):
        tf.saved_model.experimental  # noqa: B018


def test_a_saved_model_pb_that_is_a_directory_fails_as_tensorflows(tmp_path):
    # TensorFlow 2.21 (checked by hand): FailedPreconditionError "DIR/saved_model.pb; Is a
    # directory"; the engine let Python's IsADirectoryError out.
    (tmp_path / "saved_model.pb").mkdir()
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError) as raised:
            tf.saved_model.loader.load(sess, ["serve"], str(tmp_path))
    assert raised.value.message == f"{tmp_path}/saved_model.pb; Is a directory"
