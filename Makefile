# Two commands matter: `make demo` (the main job) and `make test` (the whole suite).
# Both go through `make setup`, which is idempotent: it builds .venv/ once and re-installs
# only when pyproject.toml or the C scanner changes, and installs Graphviz's `dot` when it is missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test bench fixtures protos clean dot gawk warm bytecode

setup: $(STAMP) dot warm bytecode

# setup.py and parsers/vlog/scanner/ are the C scanner `pip install` compiles (optional: without
# a C compiler the VLOG reader runs its Python reference path).
$(STAMP): pyproject.toml setup.py $(wildcard parsers/vlog/scanner/*)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,cluster,keras]'
	touch $(STAMP)

# Graphviz's dot renders .svg/.png; the Python package only writes .dot without it.
dot:
	@tools/install_system_tool.sh dot graphviz \
	  ".dot export works without it; .svg/.png export and the tests that render are skipped."

# numba's kernels compiled and cached once (~5-15 s), so no run waits for them; a stamp in the
# cache makes it ~0.2 s when they are. It never fails setup: without numba the NumPy kernels serve.
warm: $(STAMP)
	@$(BIN)/graph-inspector warm || echo "graph-inspector warm failed: runs compile kernels as they go"

# Our modules byte-compiled once (~1 s; 0.1 s when they are): where PYTHONDONTWRITEBYTECODE is
# set, as here, an editable install would otherwise compile every module it imports on every
# start (measured: `vlog` imports in 37 ms instead of 48).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q engine parsers views inspector > /dev/null

# The VLOG benchmark's baseline is the seed's awk pipeline, which needs GNU awk.
gawk:
	@tools/install_system_tool.sh gawk gawk "make bench skips the VLOG-vs-awk comparison."

demo: setup
	$(BIN)/graph-inspector demo

test: setup
	$(BIN)/python -m pytest

# Some machines here pin OpenBLAS to its Haswell (AVX2) kernels (OPENBLAS_CORETYPE, with
# OPENBLAS_L2_SIZE) because older OpenBLAS builds fail on their CPUs; the NumPy we install runs
# the kernels it picks for the CPU, as on a user's machine (measured: a 1024x768x3072 float32
# product 37 ms pinned, 20 ms SkylakeX). So the benchmarks run without both, and the header
# says which kernels ran. Tests and CI keep the machine's setting.
bench: setup gawk
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(BIN)/python -m bench

# Needs TensorFlow in its own venv (tools/README.md); writes tests/fixtures/.
fixtures:
	.venv-tf/bin/python tools/make_fixtures.py

protos:
	tools/gen_protos.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
