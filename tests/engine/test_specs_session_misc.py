"""Type specs, tf.data options, session handles, the sparse conditional accumulator,
tf.IdentityReader and the TF1 toggles on the engine do what they did on TensorFlow 2.21's
tf.compat.v1: each script of tests/engine/specs_session_cases.py gives, entry by entry, what
tests/fixtures/specs_session/cases.json holds (tools/make_specs_session_fixtures.py): reprs,
equality and compatibility of specs, element_spec, options and their serialized proto,
handle strings and values, accumulated gradients, reads, graph nodes and error texts.
Values are exact (the arithmetic is a sum and a division per element, as TensorFlow's)."""

import json
from pathlib import Path

import pytest

import engine as tf
from engine.framework.api_namespace import NotSupportedError
from tests.engine.specs_session_cases import REPLAYS, replay

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "specs_session" / "cases.json"
EXPECTED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_the_script_gives_tensorflows_results(name):
    got = replay(name, tf)
    expected = EXPECTED[name]
    assert sorted(got) == sorted(expected)
    for key in expected:
        assert got[key] == expected[key], key


def test_an_existing_op_library_is_refused_naming_it(tmp_path):
    library = tmp_path / "my_ops.so"
    library.write_bytes(b"\x7fELF")
    for load in (tf.load_op_library, tf.load_library, tf.load_file_system_library):
        with pytest.raises(NotSupportedError, match="my_ops.so"):
            load(str(library))


def test_tf_data_names_resolve_before_anything_else_loads_the_api():
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    code = ("import engine as tf; tf.data.Options().threading; tf.data.ThreadingOptions; "
            "tf.data.experimental.get_structure; tf.data.DatasetSpec; tf.data.NumpyIterator")
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, env={"PYTHONPATH": str(root)}, timeout=120)
    assert result.returncode == 0, result.stderr
