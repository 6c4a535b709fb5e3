"""Write sample_logs/engine_*.log: VLOG output of our engine, to read back like TensorFlow's.

Run with the project's venv: `.venv/bin/python tools/make_engine_logs.py`. Each program of
tests/programs/ runs in its own process on the engine (`import engine as tf`), stdout and
stderr in one stream, with the TF_CPP_VMODULE the TensorFlow sample logs use for the lines
the engine writes: function_utils=5 (`||` graph dumps) and executor=2 (`Process node` and
`Synchronous kernel done`). Lines carry the time and thread of the run that wrote them.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "sample_logs"
VMODULE = "function_utils=5,executor=2"
PROGRAMS = {"engine_counter": "tests/programs/counter.py"}


def write_log(name, program, out_dir=OUT):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("TF_CPP_")}
    env.update(TF_CPP_VMODULE=VMODULE, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    result = subprocess.run([sys.executable, str(ROOT / program)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True)
    path = Path(out_dir) / f"{name}.log"
    path.write_bytes(result.stdout)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *PROGRAMS], metavar="NAME",
                        help=f"logs to write (default: all of {', '.join(PROGRAMS)})")
    args = parser.parse_args(argv)
    for name in args.names or PROGRAMS:
        path = write_log(name, PROGRAMS[name])
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
