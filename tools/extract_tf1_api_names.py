"""Write tests/fixtures/engine_api/tf1_api_names.json: every function, class and constant a
TF1 program can reach in TensorFlow 2.21's tf.compat.v1, in the namespaces such programs use
(extract_api_aliases.py's NAMESPACES less its SKIPPED, but with tf.distributions: SKIPPED
leaves it out of the alias table because the engine's classes there are its own, not aliases
of TF ops, yet TF1 programs called tf.distributions.Normal and friends), as dotted names
(`tf.nn.ctc_loss`).

    .venv-tf/bin/python tools/extract_tf1_api_names.py

tests/engine/test_api_coverage.py resolves each on the engine; those it cannot are listed in
tests/fixtures/engine_api/tf1_api_missing.txt (tools/list_missing_api.py writes it), so the
list only ever shrinks on purpose and README's count stays true.
"""

import json
import os
import types
from pathlib import Path

# tf.compat.v1.layers is tf_keras's (tf-keras 2.21 in the venv), as a TF1 program had it.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
from extract_api_aliases import NAMESPACES, SKIPPED, tf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "engine_api" / "tf1_api_names.json"
# Namespaces TF1 programs used that the alias table skips (tf.compat.v1.distributions).
TF1_NAMESPACES_KEPT = {"distributions"}


def names():
    found = set()
    for namespace in NAMESPACES:
        if namespace.split(".")[0] in SKIPPED - TF1_NAMESPACES_KEPT:
            continue
        module = tf
        for part in filter(None, namespace.split(".")):
            module = getattr(module, part)
        prefix = "tf." + (namespace + "." if namespace else "")
        for name in dir(module):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001  (a lazily loaded member that fails here)
                continue
            if not isinstance(value, types.ModuleType):
                found.add(prefix + name)
    return sorted(found)


if __name__ == "__main__":
    listed = names()
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "names": listed}, indent=0) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(listed)} names")
