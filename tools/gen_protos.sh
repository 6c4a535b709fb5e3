#!/usr/bin/env bash
# Regenerate engine/proto/*_pb2.py and .pyi from engine/proto/*.proto.
# Uses protoc from grpcio-tools in a throwaway venv, pinned so the generated code's
# version (6.31) matches the protobuf floor in pyproject.toml; the package never needs protoc.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${PROTOC_VENV:-/tmp/graph-inspector-protoc}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "grpcio-tools==1.75.1"
fi
rm -f engine/proto/*_pb2.py engine/proto/*_pb2.pyi
"$venv/bin/python" -m grpc_tools.protoc -I. --python_out=. --pyi_out=. engine/proto/*.proto
echo "generated $(ls engine/proto/*_pb2.py | wc -l) modules in engine/proto/"
