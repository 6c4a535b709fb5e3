"""How much of TensorFlow 1.x's API the engine has: each name of tf.compat.v1 a TF1 program
reaches (tests/fixtures/engine_api/tf1_api_names.json, written by
tools/extract_tf1_api_names.py from TensorFlow 2.21) either resolves on the engine or raises
NotSupportedError and is listed in tf1_api_missing.txt. A name made real must leave the list
(`.venv/bin/python tools/list_missing_api.py`), so README's count stays true; any other error
while resolving a name is a bug."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import list_missing_api  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "engine_api"


def test_the_missing_names_are_the_listed_ones():
    names, absent = list_missing_api.missing()
    listed = (FIXTURES / "tf1_api_missing.txt").read_text().split()
    made_real = sorted(set(listed) - set(absent))
    lost = sorted(set(absent) - set(listed))
    assert (made_real, lost) == ([], []), (
        f"now real but still listed: {made_real[:20]}; missing but not listed: {lost[:20]} "
        "(rerun tools/list_missing_api.py once these are intended)")


def test_the_name_list_is_tensorflows():
    fixture = json.loads((FIXTURES / "tf1_api_names.json").read_text())
    assert fixture["tensorflow"] == "2.21.0"
    assert len(fixture["names"]) > 1500 and "tf.nn.conv2d" in fixture["names"]
