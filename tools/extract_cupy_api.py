"""Writes engine/kernels/cuda/cupy_api.json: the names CuPy's API has, read off a real CuPy.

The simulated GPU backend (engine/kernels/cuda/simulated.py) offers only these names, so a GPU
kernel that calls something CuPy lacks fails in every test run, GPU or not. Needs CuPy
installed (no GPU needed: importing CuPy and listing its names touches no device):

    python3 -m venv .venv-cupy && .venv-cupy/bin/pip install numpy cupy-cuda12x
    .venv-cupy/bin/python tools/extract_cupy_api.py
"""

import importlib
import json
import os
import sys

NAMESPACES = ("cupy", "cupy.random", "cupy.linalg", "cupy.lib.stride_tricks", "cupy.cuda",
              "cupy.cuda.runtime", "cupyx")
OUT = os.path.join(os.path.dirname(__file__), "..", "engine", "kernels", "cuda", "cupy_api.json")


def public_names(obj):
    return sorted(name for name in dir(obj) if not name.startswith("_"))


def main():
    import cupy
    api = {"version": cupy.__version__}
    for namespace in NAMESPACES:
        api[namespace] = public_names(importlib.import_module(namespace))
    api["cupy.ndarray"] = sorted(set(public_names(cupy.ndarray))
                                 | {n for n in dir(cupy.ndarray) if n.startswith("__")})
    with open(OUT, "w") as out:
        json.dump(api, out, indent=0, sort_keys=True)
        out.write("\n")
    print(f"wrote {os.path.normpath(OUT)} (CuPy {cupy.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
