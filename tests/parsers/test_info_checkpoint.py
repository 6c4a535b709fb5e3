"""`graph-inspector info CKPT`: every variable with its statistics, `--values NAME`, and `--json`."""

import json

import numpy as np
import pytest

from parsers_testing import FIXTURES

CHECKPOINTS = FIXTURES / "checkpoints"
TF_VALUES = json.loads((CHECKPOINTS / "values.json").read_text())


def finite_stats(values):
    array = np.array(values, dtype=float)
    finite = array[np.isfinite(array)]
    return finite.min(), finite.max(), finite.mean(), int(np.isnan(array).sum()), int(np.isinf(array).sum())


@pytest.mark.parametrize("prefix", ["dtypes/model.ckpt-7", "partitioned/model.ckpt", "sharded/model.ckpt-3"])
def test_json_variables_carry_tensorflows_statistics(run_info, prefix):
    code, out, err = run_info(CHECKPOINTS / prefix, "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)  # strict JSON: no NaN or Infinity tokens
    assert document["kind"] == "checkpoint"
    tf_side = TF_VALUES[prefix]
    assert [v["name"] for v in document["variables"]] == sorted(tf_side)
    for variable in document["variables"]:
        expected = tf_side[variable["name"]]
        assert (variable["dtype"], variable["shape"]) == (expected["dtype"], expected["shape"])
        assert variable["size"] == int(np.prod(expected["shape"]))
        if expected["dtype"] in ("string", "complex64", "complex128"):
            continue
        low, high, mean, nan, inf = finite_stats(expected["values"])
        assert (variable["min"], variable["max"], variable["nan"], variable["inf"]) == (low, high, nan, inf)
        assert variable["mean"] == pytest.approx(mean)


def test_summary_lists_every_variable_once(run_info):
    code, out, _ = run_info(CHECKPOINTS / "partitioned")
    assert code == 0
    lines = out.splitlines()
    assert "3 variables" in lines[2] and lines[3].split()[:4] == ["name", "dtype", "shape", "size"]
    rows = {line.split()[0]: line.split() for line in lines[4:]}
    assert set(rows) == set(TF_VALUES["partitioned/model.ckpt"])
    assert rows["embedding"][1:4] == ["(partitioned)", "float32", "[10,3]"]


def test_values_of_one_variable(run_info):
    code, out, _ = run_info(CHECKPOINTS / "dtypes", "--values", "int64", "--json")
    assert code == 0
    assert json.loads(out)["values"] == TF_VALUES["dtypes/model.ckpt-7"]["int64"]["values"]
    code, out, _ = run_info(CHECKPOINTS / "dtypes", "--values", "dense/kernel", "--json")
    spelled = [x if np.isfinite(x) else ("NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))
               for x in TF_VALUES["dtypes/model.ckpt-7"]["dense/kernel"]["values"]]
    assert [x for row in json.loads(out)["values"] for x in row] == spelled
    code, out, _ = run_info(CHECKPOINTS / "dtypes", "--values", "vocab")
    assert code == 0 and out.startswith("vocab: string [4]\n") and "b'hello'" in out


def test_unknown_variable_is_one_error_line(run_info):
    code, out, err = run_info(CHECKPOINTS / "dtypes", "--values", "nope")
    assert (code, out) == (2, "")
    assert err == f"error: {CHECKPOINTS / 'dtypes' / 'model.ckpt-7.index'}: nope: not in this checkpoint\n"
