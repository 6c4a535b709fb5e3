"""Writes tests/fixtures/cluster/ with real TensorFlow: ClusterSpec and Server answers,
replica_device_setter placements, and the ps programs run on a local cluster of servers.

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_cluster_fixtures.py
The programs (tests/programs/ps_*.py) run through tools/tf_shim, as make_fixtures.py runs
them; the cluster is three tf.train.Servers of this process (1 ps, 2 workers) on free ports.
"""

import json
import os
import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tools" / "tf_shim"), str(REPO / "tests" / "programs")]
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
OUT = REPO / "tests" / "fixtures" / "cluster"

import engine as tf  # noqa: E402  (tensorflow.compat.v1 through the shim)

import ps_between_graph  # noqa: E402
import ps_in_graph  # noqa: E402

SPECS = {
    "dense": {"ps": ["ps0:2222", "ps1:2222"], "worker": ["worker0:2222", "worker1:2222"]},
    "sparse": {"worker": {1: "w1:2222", 3: "w3:2222"}, "chief": ["chief:2222"]},
}


def cluster_spec_answers():
    out = {}
    for label, spec in SPECS.items():
        cluster = tf.train.ClusterSpec(spec)
        jobs = cluster.jobs
        out[label] = {
            "as_dict": {job: (tasks if isinstance(tasks, list) else
                              {str(k): v for k, v in tasks.items()})
                        for job, tasks in cluster.as_dict().items()},
            "jobs": jobs,
            "num_tasks": {job: cluster.num_tasks(job) for job in jobs},
            "task_indices": {job: cluster.task_indices(job) for job in jobs},
            "job_tasks": {job: cluster.job_tasks(job) for job in jobs},
            "cluster_def": str(cluster.as_cluster_def()),
            "bool": bool(cluster),
        }
    server_def = tf.train.ClusterSpec(SPECS["dense"])
    out["server_def"] = str(tf.train.Server(server_def, job_name="worker", task_index=1,
                                            start=False).server_def)
    return out


def setter_placements():
    """Op devices that replica_device_setter gives the between-graph program's graph."""
    out = {}
    for label, spec, task in (("one_ps_task1", {"ps": ["p:1"], "worker": ["a:1", "b:1"]}, 1),
                              ("two_ps_task0", SPECS["dense"], 0)):
        g = ps_between_graph.build(tf.train.ClusterSpec(spec), task)
        out[label] = {op.name: op.device for op in g["graph"].get_operations()}
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def local_cluster():
    spec = {"ps": [f"localhost:{free_port()}"],
            "worker": [f"localhost:{free_port()}", f"localhost:{free_port()}"]}
    cluster = tf.train.ClusterSpec(spec)
    servers = {f"/job:{job}/task:{i}": tf.train.Server(cluster, job_name=job, task_index=i)
               for job, tasks in spec.items() for i in range(len(tasks))}
    return cluster, servers


def in_graph_run(servers):
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(servers["/job:worker/task:0"].target) as sess:
            steps = ps_in_graph.steps(sess, g)
            options = tf.RunOptions(output_partition_graphs=True)
            metadata = tf.RunMetadata()
            sess.run(g["train"], ps_in_graph.feeds(g), options=options, run_metadata=metadata)
            # A traced step: which nodes each task's device reports in its step stats.
            traced = tf.RunMetadata()
            sess.run(g["train"], ps_in_graph.feeds(g),
                     options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=traced)
    placement = {n.name: n.device for p in metadata.partition_graphs for n in p.node}
    for i, p in enumerate(sorted(metadata.partition_graphs, key=lambda p: p.node[0].device)):
        (OUT / f"in_graph_partition_{i}.pbtxt").write_text(str(p))
    trace, transfers = {}, {}
    for dev_stats in traced.step_stats.dev_stats:
        trace.setdefault(dev_stats.device, []).extend(n.node_name for n in dev_stats.node_stats)
        transfers.setdefault(dev_stats.device, []).extend(
            n.timeline_label for n in dev_stats.node_stats if n.node_name == "RecvTensor")
    return {"steps": steps, "placement": placement,
            "trace": {device: sorted(names) for device, names in trace.items()},
            "trace_transfers": {device: sorted(labels) for device, labels in transfers.items()}}


def between_graph_run(cluster, servers):
    graphs = [ps_between_graph.build(cluster, i) for i in range(2)]
    sessions = [tf.Session(servers[f"/job:worker/task:{i}"].target, graph=g["graph"])
                for i, g in enumerate(graphs)]
    steps = ps_between_graph.steps(sessions, graphs)
    for sess in sessions:
        sess.close()
    return {"steps": steps}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    answers = {"cluster_spec": cluster_spec_answers(), "setter": setter_placements()}
    cluster, servers = local_cluster()
    answers["in_graph"] = in_graph_run(servers)
    answers["between_graph"] = between_graph_run(cluster, servers)
    (OUT / "answers.json").write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
    print("wrote", OUT)
    os._exit(0)  # servers never stop by themselves


if __name__ == "__main__":
    main()
