"""Seeded Multinomial, RandomGamma (and its gradient) and RandomPoissonV2 give TensorFlow 2.21's
draws bit for bit, two runs in a session each (tests/fixtures/mathops/random_sampling.npz,
tools/make_random_sampling_fixtures.py); Multinomial's rows in one shard and in the blocks
TensorFlow's Shard cuts for two threads."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
import random_sampling_cases as cases
from engine.kernels.cpu.random_sampling import shards

EXPECTED = np.load(Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
                   / "random_sampling.npz")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_draws_are_tensorflows(name):
    values = cases.run_case(tf, name)
    prefix = f"{name}--"
    assert sorted(values) == sorted(k[len(prefix):].replace("--", "/").replace("__", ":")
                                    for k in EXPECTED.files if k.startswith(prefix))
    for key, got in values.items():
        want = EXPECTED[prefix + key.replace("/", "--").replace(":", "__")]
        np.testing.assert_array_equal(got, want, err_msg=f"{name} {key}", strict=True)


def test_shards_are_eigens_parallel_for_blocks():
    assert shards(3, 1000, 2) == [(0, 3)]  # too cheap to split
    assert shards(64, 17109, 2) == [(i, i + 8) for i in range(0, 64, 8)]
    assert shards(64, 17109, 1) == [(0, 64)]


def test_unseeded_draws_have_the_shapes():
    with tf.Graph().as_default():
        draws = tf.random.categorical(tf.zeros([2, 3]), 5)
        gamma = tf.random_gamma([4], [1.5, 2.0])
        poisson = tf.random.poisson([2.0], [3, 2], dtype=tf.int32)
        assert draws.shape.as_list() == [2, 5] and gamma.shape.as_list() == [4, 2]
        with tf.Session() as sess:
            d, g, p = sess.run([draws, gamma, poisson])
    assert d.shape == (2, 5) and ((0 <= d) & (d < 3)).all()
    assert g.shape == (4, 2) and (g > 0).all() and p.shape == (3, 2, 1)
