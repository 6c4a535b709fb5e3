"""Write tests/fixtures/summary_protos/expected.json: TensorFlow's proto classes exported at
tf.* (HistogramProto, SummaryMetadata, LogMessage, TensorInfo, tf.train.ServerDef) serialized
and printed, and what tf.summary.initialize, all_v2_summary_ops and get_summary_description
give in a TF1 graph.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_summary_proto_fixtures.py`.
"""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "summary_protos"
sys.path.insert(0, str(REPO / "tests" / "engine"))
from summary_proto_messages import messages  # noqa: E402


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {"messages": {name: {"hex": message.SerializeToString(deterministic=True).hex(),
                                    "text": str(message)}
                             for name, message in messages(tf).items()}}
    node = tf.NodeDef(name="s", op="TensorSummary")
    node.attr["description"].s = b'{"typeHint": "scalar"}'
    expected["description"] = str(tf.summary.get_summary_description(node))
    try:
        tf.summary.get_summary_description(tf.NodeDef(name="a", op="Add"))
    except ValueError as error:
        expected["description_error"] = str(error)
    with tf.Graph().as_default():
        tf.summary.scalar("loss", tf.constant(1.0))
        expected["all_v2_summary_ops"] = len(tf.summary.all_v2_summary_ops())
        with tf.Session():
            try:
                tf.summary.initialize()
            except RuntimeError as error:
                expected["initialize_error"] = [type(error).__name__, str(error)]
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
