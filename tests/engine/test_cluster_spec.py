"""tf.train.ClusterSpec, tf.train.Server's ServerDef, replica_device_setter and placement on a
cluster's tasks, against TensorFlow 2.21's answers (tests/fixtures/cluster/answers.json,
written by tools/make_cluster_fixtures.py). None of this needs Dask."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine as tf
from engine.runtime import placer as placer_lib
from engine.cluster.cluster_spec import task_device
from engine.runtime.session import node_info

REPO = Path(__file__).resolve().parents[2]
ANSWERS = json.loads((REPO / "tests" / "fixtures" / "cluster" / "answers.json").read_text())
sys.path.insert(0, str(REPO / "tests" / "programs"))

import ps_between_graph  # noqa: E402
import ps_in_graph  # noqa: E402

SPECS = {
    "dense": {"ps": ["ps0:2222", "ps1:2222"], "worker": ["worker0:2222", "worker1:2222"]},
    "sparse": {"worker": {1: "w1:2222", 3: "w3:2222"}, "chief": ["chief:2222"]},
}


@pytest.mark.parametrize("label", sorted(SPECS))
def test_cluster_spec_answers_as_tensorflow(label):
    theirs = ANSWERS["cluster_spec"][label]
    cluster = tf.train.ClusterSpec(SPECS[label])
    as_dict = {job: tasks if isinstance(tasks, list) else {str(k): v for k, v in tasks.items()}
               for job, tasks in cluster.as_dict().items()}
    assert as_dict == theirs["as_dict"]
    assert cluster.jobs == theirs["jobs"]
    assert {j: cluster.num_tasks(j) for j in cluster.jobs} == theirs["num_tasks"]
    assert {j: cluster.task_indices(j) for j in cluster.jobs} == theirs["task_indices"]
    assert {j: cluster.job_tasks(j) for j in cluster.jobs} == theirs["job_tasks"]
    assert str(cluster.as_cluster_def()) == theirs["cluster_def"]
    assert bool(cluster) is theirs["bool"]
    # A ClusterSpec made from its ClusterDef or from another is the same cluster.
    assert tf.train.ClusterSpec(cluster.as_cluster_def()) == cluster
    assert tf.train.ClusterSpec(cluster) == cluster


def test_server_def_as_tensorflow():
    server = tf.train.Server(tf.train.ClusterSpec(SPECS["dense"]), job_name="worker",
                             task_index=1, start=False)
    assert str(server.server_def) == ANSWERS["cluster_spec"]["server_def"]
    assert server.target == "grpc://worker1:2222"


def test_cluster_spec_rejects_what_tensorflow_rejects():
    with pytest.raises(TypeError, match="must be a dictionary"):
        tf.train.ClusterSpec(["a:1"])
    with pytest.raises(ValueError, match="No such job"):
        tf.train.ClusterSpec(SPECS["dense"]).num_tasks("chief")
    with pytest.raises(ValueError, match="explicit `job_name`"):
        tf.train.Server(tf.train.ClusterSpec(SPECS["dense"]), start=False)


@pytest.mark.parametrize("label,spec,task", [
    ("one_ps_task1", {"ps": ["p:1"], "worker": ["a:1", "b:1"]}, 1),
    ("two_ps_task0", SPECS["dense"], 0)])
def test_replica_device_setter_places_as_tensorflow(label, spec, task):
    g = ps_between_graph.build(tf.train.ClusterSpec(spec), task)
    ours = {op.name: op.device for op in g["graph"].get_operations()}
    assert ours == ANSWERS["setter"][label]


def test_in_graph_program_placed_on_tasks_as_tensorflow():
    """Every node TensorFlow's partition graphs kept under its own name sits on the same
    task and device; unconstrained nodes go to the client's task (worker 0)."""
    graph = tf.Graph()
    with graph.as_default():
        ps_in_graph.build()
    cluster = tf.train.ClusterSpec({"ps": ["p:1"], "worker": ["a:1", "b:1"]})
    client = task_device("/job:worker/task:0")
    devices = [client] + [d for d in cluster.devices() if d != client]
    ops = graph.get_operations()
    nodes = {op.name: node_info(op) for op in ops}
    placed = placer_lib.Placer(devices, client=client).place(nodes, [op.name for op in ops])
    theirs = {name: device for name, device in ANSWERS["in_graph"]["placement"].items()
              if name in placed}
    assert len(theirs) >= 60
    assert {name: placed[name] for name in theirs} == theirs


def test_a_cluster_target_makes_a_cluster_session_and_the_engine_alone_never_imports_dask():
    # engine/runtime/session.py knows no cluster: the cluster package's Session subclass declares
    # that it serves cluster targets, and engine/api/core.py imports it without importing Dask.
    script = (
        "import sys\n"
        "import engine as tf\n"
        "from engine.cluster.session import ClusterSession\n"
        "with tf.Session() as sess:\n"
        "    assert type(sess) is tf.Session, type(sess)\n"
        "    assert sess.run(tf.constant(2) + 3) == 5\n"
        "for target in ('grpc://localhost:2222', b'tcp://scheduler:8786'):\n"
        "    assert type(tf.Session.__new__(tf.Session, target)) is ClusterSession\n"
        "assert 'distributed' not in sys.modules, 'Dask imported without a cluster'\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert done.returncode == 0, done.stderr
