"""Write engine/kernels/cpu/unicode_scripts.json: ICU's script code (UScriptCode) of every code
point, as TensorFlow 2.21's UnicodeScript op gives it from the ICU it is built with, in runs:
[[first code point, script], ...], each run lasting to the next one's first code point.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/extract_unicode_scripts.py`. The
engine's UnicodeScript kernel looks code points up in this table (Python has no ICU).
"""

import json
from pathlib import Path

import numpy as np

from fixture_common import ROOT, tf_v1

OUT = ROOT / "engine" / "kernels" / "cpu" / "unicode_scripts.json"
LAST_CODE_POINT = 0x10FFFF


def main():
    tf = tf_v1()
    code_points = np.arange(0, LAST_CODE_POINT + 1, dtype=np.int32)
    with tf.Session() as sess:
        scripts = sess.run(tf.strings.unicode_script(code_points))
    starts = np.concatenate([[0], np.flatnonzero(np.diff(scripts)) + 1])
    runs = [[int(start), int(scripts[start])] for start in starts]
    OUT.write_text(json.dumps({"last_code_point": LAST_CODE_POINT, "runs": runs},
                              separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(runs)} runs")


if __name__ == "__main__":
    main()
