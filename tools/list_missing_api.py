"""Write tests/fixtures/engine_api/tf1_api_missing.txt: the names of tf1_api_names.json the
engine does not have (resolving one raises NotSupportedError), one a line.

    .venv/bin/python tools/list_missing_api.py

Run it after making names real; tests/engine/test_api_coverage.py fails while the list and
the engine disagree, either way.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FIXTURES = ROOT / "tests" / "fixtures" / "engine_api"


def missing():
    import engine
    from engine.framework.api_namespace import NotSupportedError
    names = json.loads((FIXTURES / "tf1_api_names.json").read_text())["names"]
    absent = []
    for dotted in names:
        value = engine
        try:
            for part in dotted.split(".")[1:]:
                value = getattr(value, part)
        except NotSupportedError:
            absent.append(dotted)
    return names, absent


if __name__ == "__main__":
    names, absent = missing()
    (FIXTURES / "tf1_api_missing.txt").write_text("".join(name + "\n" for name in absent))
    print(f"{len(names) - len(absent)} of {len(names)} names; {len(absent)} missing")
