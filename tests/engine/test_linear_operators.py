"""tf.linalg.LinearOperator and its subclasses against TensorFlow 2.21 (tests/fixtures/
linear_operators from tools/make_linear_operator_fixtures.py): every public method of every
case of tests/engine/linear_operator_cases.py in float32 and float64, its value, static shape
and dtype, the types and hints of the operators it returns, TensorFlow's error classes and
messages, gradients through matmul, solve and log_abs_determinant, and the graph nodes of a
matmul and a solve."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from tests.engine.linear_operator_cases import DTYPES, case_names, replay, unpack

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "linear_operators"


def _load():
    with gzip.open(FIXTURES / "records.json.gz") as f:
        data = json.load(f)
    with np.load(FIXTURES / "values.npz") as flat:
        arrays = unpack(dict(flat), data["index"])
    return data["records"], arrays


TF_RECORDS, TF_ARRAYS = _load()
CASES = case_names(tf)


def _tolerance(dt):
    return {"float32": dict(rtol=2e-6, atol=2e-6), "float64": dict(rtol=1e-13, atol=1e-13)}[dt]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("case", CASES)
def test_case_matches_tensorflow(case, dt):
    records, arrays = replay(tf, dtypes=(dt,), names=(case,))
    prefix = f"{case}/{dt}/"
    expected = {k: v for k, v in TF_RECORDS.items() if k.startswith(prefix)}
    assert sorted(records) == sorted(expected)
    for key in expected:
        assert records[key] == expected[key], key
    expected_arrays = {k: v for k, v in TF_ARRAYS.items() if k.startswith(prefix)}
    assert sorted(arrays) == sorted(expected_arrays)
    for key, want in expected_arrays.items():
        got = arrays[key]
        assert got.dtype == want.dtype and got.shape == want.shape, key
        np.testing.assert_allclose(got, want, err_msg=key, **_tolerance(dt))


def test_every_class_is_exercised():
    kinds = {v["info"]["type"] for v in TF_RECORDS.values() if v.get("kind") == "operator"}
    kinds |= {k.split("/")[0] for k in TF_RECORDS}
    assert len(CASES) == len({k.split("/")[0] for k in TF_RECORDS})
