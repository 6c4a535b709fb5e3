"""tools/partition_diff.py, TensorFlow's side played by the engine (CI has no TensorFlow):
every Session.run's partition graphs are caught, and two runs of one program compare equal."""

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("partition_diff", REPO / "tools" / "partition_diff.py")
partition_diff = importlib.util.module_from_spec(spec)
spec.loader.exec_module(partition_diff)

PROGRAM = """
import engine as tf
tf.reset_default_graph()
x = tf.placeholder(tf.float32, [3], name="x")
y = tf.pow(x, 2.0, name="p") + 1.0
with tf.Session() as sess:
    for k in range(2):
        print(sess.run(y, {x: [1.0, 2.0, float(k)]}))
"""


def test_runs_are_caught_and_compared(tmp_path, monkeypatch, capsys, optimizer_on):
    program = tmp_path / "prog.py"
    program.write_text(PROGRAM)
    real = partition_diff._capture

    def engine_both_sides(python, path, args, pythonpath, folder):
        real(sys.executable, path, args, str(REPO), folder)

    monkeypatch.setattr(partition_diff, "_capture", engine_both_sides)
    assert partition_diff.main([str(program)]) == 0
    out = capsys.readouterr().out
    assert "2 Session.runs on TensorFlow, 2 on the engine" in out
    assert "2 of 2 runs node for node the same" in out
    caught = tmp_path / "caught"
    caught.mkdir()
    real(sys.executable, str(program), [], str(REPO), caught)
    graphs = partition_diff._runs(caught)
    assert sorted(graphs) == [0, 1]
    assert "Square" in {node.op for node in graphs[0].node}  # the optimized graph, x*x form
