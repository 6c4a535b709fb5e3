#!/usr/bin/env bash
# The checks that need a CUDA GPU, as one script for a lent device machine (see tools/README.md):
# the CUDA tests (`-m cuda`: every GPU kernel against its CPU twin on CuPy, the fused chains),
# the GPU benchmarks (bench/gpu.py: engine vs plain CuPy), then the engine's whole suite with a
# real GPU present (every test that places on /gpu:0 gets CuPy instead of soft placement).
# Wheels of what the device image lacks travel in .whl/ (fetch them with the pip download line
# in tools/README.md). Results go to $OUT (or ./gpu-out).
set -u
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
if ls .whl/*.whl >/dev/null 2>&1; then
  # into the device's own Python (a bare machine, given back after): the programs the
  # tests start as subprocesses see them too
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    .whl/*.whl || exit 1
fi
export PYTHONPATH=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi -L
python3 -c "import cupy, numpy, google.protobuf as p; print('cupy', cupy.__version__, 'numpy', numpy.__version__, 'protobuf', p.__version__, 'devices', cupy.cuda.runtime.getDeviceCount())"
echo "== CUDA tests"
timeout "${CUDA_TESTS_S:-180}" python3 -m pytest -q -rfE --tb=short -p no:cacheprovider \
  -m cuda tests 2>&1 | tee "$OUT/cuda_tests.log" | tail -25
if [ "${BENCH:-1}" != 0 ]; then
  echo "== GPU benchmarks"
  timeout "${BENCH_S:-150}" python3 -m bench --only gpu --repeats "${REPEATS:-11}" \
    -o "$OUT/BENCHMARKS_GPU.md" 2>&1 | tail -15
fi
if [ -n "${ENGINE_SUITE_S:-}" ]; then  # names each failure as it happens (-v), in case of timeout
  echo "== engine suite on a machine with a GPU"
  timeout "$ENGINE_SUITE_S" python3 -m pytest -v --tb=line -p no:cacheprovider \
    -n "${WORKERS:-12}" tests/engine 2>&1 | tee "$OUT/engine_suite.log" \
    | grep -E "FAILED|ERROR|[0-9]+ (passed|failed)" | tail -40
fi
