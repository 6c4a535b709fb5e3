"""Write tests/fixtures/signal/: what TensorFlow computes for tests/engine/signal_cases.py
(tf.fft & co., tf.spectral, tf.signal, tf.audio): values.npz (each case's values and
gradients, `<case>--<key>`), errors.json (error class and first line per error case),
shapes.json (static shapes of partly known inputs) and nodes.json.gz (the [name, op] of each
node each API function builds), signatures.json (each API function's parameters and
defaults).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_signal_fixtures.py`.
"""

import json

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, npz_key, tf_v1

import signal_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "signal"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name in signal_cases.CASES:
        for key, value in signal_cases.run_case(tf, name).items():
            arrays[npz_key(f"{name}/{key}")] = value
    np.savez_compressed(OUT / "values.npz", **arrays)
    errors = {name: signal_cases.run_error(tf, name) for name in signal_cases.ERRORS}
    (OUT / "errors.json").write_text(json.dumps(errors, indent=1, sort_keys=True) + "\n")
    shapes = signal_cases.static_shapes(tf)
    (OUT / "shapes.json").write_text(json.dumps(shapes, indent=1, sort_keys=True) + "\n")
    (OUT / "signatures.json").write_text(json.dumps(signal_cases.signatures(tf), indent=0)
                                         + "\n")
    nodes = {name: signal_cases.graph_nodes(tf, name) for name in signal_cases.NODE_CASES}
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes("{\n" + ",\n".join(
        f"{json.dumps(name)}: {json.dumps(case)}" for name, case in nodes.items()) + "\n}\n"))
    print(f"{OUT}: {len(arrays)} arrays, {len(errors)} errors, {len(nodes)} graphs")


if __name__ == "__main__":
    main()
