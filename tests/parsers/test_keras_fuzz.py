"""Fuzz the Keras readers: mutated .keras zips, .h5 files and configs (bytes flipped, cut,
spliced; a config's values swapped for others of any type) open, list and read every weight,
or raise the one InputError: never another exception."""

import json
import random
import zipfile

import pytest

import parsers
from parsers_testing import FIXTURES
from test_load_fuzz import flip_bits, splice, truncate

pytest.importorskip("h5py")
KERAS = FIXTURES / "keras"
SEED = 20261128
CASES = 150
FILES = [KERAS / name for name in ("two_inputs.keras", "nested.h5", "sequential_cnn.h5",
                                  "tf_keras_mlp.keras", "tiny.tflite")]
ODD_VALUES = [None, 0, -1, 2**70, 1.5, "", "x", [], [None], [[[]]], {}, {"class_name": 3},
              {"class_name": "__keras_tensor__", "config": {"keras_history": ["nowhere", 0, 9]}}]


def mutate_config(rng, config):
    """The config with one value somewhere in it replaced by an odd one, or one key dropped."""
    places = []

    def visit(value):
        if isinstance(value, dict):
            places.extend((value, key) for key in value)
            for item in value.values():
                visit(item)
        elif isinstance(value, list):
            places.extend((value, index) for index in range(len(value)))
            for item in value:
                visit(item)
    visit(config)
    container, key = rng.choice(places)
    if isinstance(container, dict) and rng.random() < 0.3:
        del container[key]
    else:
        container[key] = rng.choice(ODD_VALUES)
    return config


def make_case(case, tmp_path):
    rng = random.Random(SEED * 1000 + case)
    source = FILES[case % len(FILES)]
    path = tmp_path / f"case{case}{source.suffix}"
    if source.suffix == ".keras" and case % 3 == 0:
        with zipfile.ZipFile(source) as archive:
            members = {name: archive.read(name) for name in archive.namelist()}
        config = mutate_config(rng, json.loads(members["config.json"]))
        members["config.json"] = json.dumps(config)
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in members.items():
                archive.writestr(name, data)
        return path
    mutator = (flip_bits, truncate, splice)[rng.randrange(3)]
    path.write_bytes(mutator(rng, source.read_bytes()))
    return path


@pytest.mark.parametrize("case", range(CASES))
def test_mutated_keras_files_open_or_raise_the_one_error(case, tmp_path):
    path = make_case(case, tmp_path)
    try:
        loaded = parsers.load(path)
        weights = loaded.checkpoint
        for info in weights.variables if weights is not None else []:
            weights.value(info.name)
    except parsers.InputError as error:
        assert "\n" not in str(error)
