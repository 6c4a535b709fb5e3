"""Write tests/fixtures/ragged/: TensorFlow's results for tests/engine/ragged_cases.py.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_ragged_fixtures.py`.
cases.json.gz holds each output's components ("<group>__<output>__<part>": dtype, shape and
the values, floats as their bits, strings decoded with surrogateescape), the
fetched Python kinds, to_list()s, static shapes and dtypes, the run-time and Python errors
and RaggedTensorSpec's answers; nodes.json.gz each group's [name, op type]s.
"""

import json

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, tf_v1

import ragged_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ragged"


def jsonable(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def storable(array):
    """[dtype, shape, flat values] of an array (bytes for strings)."""
    array = np.asarray(array)
    if array.dtype == object:
        array = array.astype(bytes)
    flat = array.reshape(-1)
    if array.dtype.kind == "f":  # the bits, NaNs' signs and payloads too
        flat = flat.view(f"<u{array.dtype.itemsize}")
    values = [jsonable(v) for v in flat.tolist()]
    return [array.dtype.str, list(array.shape), values]


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    arrays, described, nodes = {}, {}, {}
    for group in cases.GROUPS:
        fetched, static, nodes[group] = cases.run_group(tf, group)
        for name, (kind, parts, as_list) in fetched.items():
            for part, array in parts.items():
                arrays[f"{group}__{name}__{part}"] = storable(array)
            described[f"{group}/{name}"] = {"kind": kind, "parts": sorted(parts),
                                            "to_list": jsonable(as_list),
                                            "static": static[name]}
    for name, (kind, parts, as_list) in cases.run_placeholder(tf).items():
        for part, array in parts.items():
            arrays[f"placeholder__{name}__{part}"] = storable(array)
        described[f"placeholder/{name}"] = {"kind": kind, "parts": sorted(parts),
                                            "to_list": jsonable(as_list)}
    document = {
        "outputs": described,
        "errors": {name: list(cases.run_error(tf, name)) for name in cases.ERROR_CASES},
        "python_errors": {name: list(cases.python_error(tf, name))
                          for name in cases.PYTHON_ERRORS},
        "spec": jsonable(cases.spec_answers(tf)),
    }
    document["arrays"] = arrays
    (OUT / "cases.json.gz").write_bytes(gzip_bytes(json.dumps(document, sort_keys=True)
                                                   + "\n"))
    lines = [f"{json.dumps(g)}: [\n" + ",\n".join(json.dumps(n) for n in ns) + "]"
             for g, ns in nodes.items()]
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes("{\n" + ",\n".join(lines) + "\n}\n"))
    print(f"wrote {len(described)} outputs, {len(arrays)} arrays to {OUT}")


if __name__ == "__main__":
    main()
