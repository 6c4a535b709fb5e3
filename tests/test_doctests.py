"""Every `>>>` example in the packages' docstrings runs and holds.

pytest collects tests/ only (pyproject testpaths), so --doctest-modules never reaches engine/,
parsers/, views/ or inspector/; this runs their examples, from the modules that have one (the
others, CUDA's among them, are not imported). Each `>>>` line of a module must be an example
the doctest finder reaches and runs: none +SKIP'd, none in a comment or a docstring it misses
(of a nested function, or of a function imported from elsewhere).
"""

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "parsers", "views", "inspector")
PROMPT = re.compile(r"^\s*>>> ", re.MULTILINE)


def modules_with_examples():
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if PROMPT.search(path.read_text(encoding="utf-8")):
                parts = path.relative_to(ROOT).with_suffix("").parts
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def test_the_packages_have_examples():
    assert len(MODULES) > 50 and "engine.framework.devices" in MODULES and "parsers" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_examples_hold(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples name files as seen from the repository's root
    module = importlib.import_module(name)
    tests = [test for test in doctest.DocTestFinder().find(module) if test.examples]
    examples = [example for test in tests for example in test.examples]
    prompts = len(PROMPT.findall(Path(module.__file__).read_text(encoding="utf-8")))
    assert len(examples) == prompts, f"{prompts - len(examples)} `>>>` lines are no example run"
    skipped = [example.source for example in examples if example.options.get(doctest.SKIP)]
    assert not skipped, f"examples that only look like doctests: {skipped}"
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
