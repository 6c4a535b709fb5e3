"""The TF 1.x initializers (he/lecun normal and uniform, orthogonal, identity,
uniform_unit_scaling), the small core names (assert_shapes, assert_near, ...), partitioned
variables (the partitioners, get_variable's parts and slice infos, their concatenation, reuse,
regularizer losses, create_partitioned_variables, Adam and embedding_lookup over the parts)
and their checkpoints (TensorFlow's slices, byte for byte) against TensorFlow 2.21
(tf.compat.v1): values from the graph seed's streams bit for bit, node names and op types,
static shapes, error classes and messages (tests/engine/core_misc_cases.py; fixtures by
tools/make_core_misc_fixtures.py).

Orthogonal's values agree to 1e-6 times its gain (at most 3.6e-7 seen, 1 to 3 float32 ulps):
the engine's Qr kernel (LAPACK's Householder QR through NumPy) rounds apart from Eigen's
HouseholderQR; its random normal input and the sign fix are TensorFlow's exactly."""

import gzip
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.framework.api_namespace import NotSupportedError

sys.path.insert(0, str(Path(__file__).resolve().parent))

import core_misc_cases as cases  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "core_misc"
TF = json.loads(gzip.decompress((FIXTURES / "cases.json.gz").read_bytes()))
ORTHOGONAL_GAINS = {"tall": 1.0, "wide": 2.0, "conv": 1.0, "square_unseeded": 1.0}


def _engine(name):
    return json.loads(json.dumps(cases.CASES[name](tf), sort_keys=True))


@pytest.mark.parametrize("name", [name for name in cases.CASES if name != "orthogonal"])
def test_results_equal_tensorflows(name):
    assert _engine(name) == TF[name]


def test_orthogonal_equals_tensorflows_to_qr_rounding():
    ours, theirs = _engine("orthogonal"), TF["orthogonal"]
    assert ours["nodes"] == theirs["nodes"] and ours["shapes"] == theirs["shapes"]
    assert set(ours["values"]) == set(ORTHOGONAL_GAINS)
    for name, gain in ORTHOGONAL_GAINS.items():
        np.testing.assert_allclose(ours["values"][name], theirs["values"][name], rtol=0,
                                   atol=1e-6 * gain, err_msg=name)


def test_orthogonal_columns_are_orthonormal_times_the_gain():
    values = np.asarray(_engine("orthogonal")["values"]["wide"], np.float64)
    np.testing.assert_allclose(values @ values.T, 4.0 * np.eye(3), atol=1e-5)


def test_v2_switches_the_engine_cannot_honour_raise():
    with pytest.raises(NotSupportedError, match="control flow v2"):
        tf.enable_control_flow_v2()
    with pytest.raises(NotSupportedError, match="TensorShape"):
        tf.enable_v2_tensorshape()
    assert tf.control_flow_v2_enabled() is False


def test_set_log_device_placement_reaches_sessions_made_without_a_config():
    with tf.Graph().as_default():
        try:
            tf.debugging.set_log_device_placement(True)
            assert tf.Session()._config.log_device_placement
            assert not tf.Session(config=tf.ConfigProto())._config.log_device_placement
        finally:
            tf.debugging.set_log_device_placement(False)
        assert not tf.Session()._config.log_device_placement


def test_partitioned_checkpoint_is_tensorflows_byte_for_byte(tmp_path):
    """The engine's Saver writes the parts as slices of w: the same index and data bytes as
    TensorFlow's Saver wrote from the same seeded graph."""
    assert cases.save_partitioned(tf, str(tmp_path))["saved"] == TF["partitioned_checkpoint"][
        "saved"]
    for name in ("model.index", "model.data-00000-of-00001"):
        assert (tmp_path / name).read_bytes() == (FIXTURES / "partitioned" / name).read_bytes()


def test_restores_tensorflows_partitioned_checkpoint_into_other_partitions():
    expected = TF["partitioned_checkpoint"]
    for num_shards in (1, 3, 5):
        w, v, w_by_dict = cases.restore_partitioned(
            tf, str(FIXTURES / "partitioned" / "model"), num_shards)
        assert w == w_by_dict == expected["saved"] and v == expected["saved_v"]


def test_saver_takes_only_slices_of_one_variable_in_a_list():
    """TensorFlow's messages (they end in the variable's repr, which differs)."""
    with tf.Graph().as_default():
        w = tf.get_variable("w", [4, 2], partitioner=tf.fixed_size_partitioner(2))
        x = tf.get_variable("x", [4, 2], partitioner=tf.fixed_size_partitioner(2))
        u = tf.get_variable("u", [2])
        with pytest.raises(ValueError, match="^Slices must all be slices: "):
            tf.train.Saver({"w": [list(w)[0], u]})
        with pytest.raises(ValueError, match="^Slices must all be from the same tensor: w != x$"):
            tf.train.Saver({"w": [list(w)[0], list(x)[1]]})
