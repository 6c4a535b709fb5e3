"""tf.CriticalSection against TensorFlow 2.21 (tests/fixtures/critical_section/cases.json,
written by tools/make_critical_section_fixtures.py from tests/engine/critical_section_cases.py):
the graphs execute builds, node for node with their attrs; the values executes give in one
run, from several threads and inside a loop; the build errors' classes and words."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine import critical_section_cases as cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "critical_section"
                      / "cases.json").read_text())


@pytest.fixture(scope="module")
def ours():
    return cases.replay(tf)


@pytest.mark.parametrize("key", sorted(FIXTURE))
def test_matches_tensorflow(ours, key):
    assert ours[key] == FIXTURE[key]


def test_every_case_recorded(ours):
    assert sorted(ours) == sorted(FIXTURE)
