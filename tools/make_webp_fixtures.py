"""Write tests/fixtures/webp/: the WebP files of tests/engine/webp_cases.py (Pillow's
encoder) and TensorFlow's decoding of them.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_webp_fixtures.py`. The files
are written first, by a Python without TensorFlow loaded; then values.npz, shapes.json,
nodes.json.gz, errors.json as tools/fixture_common.py's write_case_fixtures writes them, and
python_errors.json the graph-building errors.
"""

import json
import subprocess
import sys

from fixture_common import FIXTURES, ROOT, tf_v1, write_case_fixtures

import webp_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "webp"


def write_files():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in cases.encode_files().items():
        (OUT / f"{name}.webp").write_bytes(data)


def main():
    if "--files" in sys.argv:
        write_files()
        return
    subprocess.run([sys.executable, __file__, "--files"], check=True, cwd=ROOT)
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")


if __name__ == "__main__":
    main()
