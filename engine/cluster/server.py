"""tf.train.Server: one task of a cluster, here a Dask worker named by its task.

`Server(cluster, job_name, task_index)` starts a Dask worker called `/job:J/task:T` that
listens on the task's address from the ClusterSpec. The tasks find their Dask scheduler from
the ClusterSpec alone: one task's process runs it, the others ask that task where it is
(engine/cluster/task_worker.py), so a cluster starts as TensorFlow's does, one command per
task; a scheduler named in Dask's configuration (`DASK_SCHEDULER_ADDRESS`) is joined instead.
Its `target`, `grpc://host:port` as TensorFlow's, is what `tf.Session(target)` takes
(engine/cluster/connection.py finds the scheduler through the worker listening there).
"""

from engine.cluster.cluster_spec import ClusterSpec
from engine.proto.tensorflow_server_pb2 import ServerDef


class Server:
    """tf.train.Server(server_or_cluster_def, job_name=None, task_index=None, protocol=None,
    config=None, start=True)."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
                 config=None, start=True):
        cluster = ClusterSpec(server_or_cluster_def)
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = cluster.jobs[0]
        if task_index is None:
            indices = cluster.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = indices[0]
        self._cluster = cluster
        self._server_def = ServerDef(cluster=cluster.as_cluster_def(), job_name=job_name,
                                     task_index=task_index, protocol=protocol or "grpc")
        self._address = cluster.task_address(job_name, task_index)
        self._task = f"/job:{job_name}/task:{task_index}"
        self._worker = None
        if start:
            self.start()

    @property
    def server_def(self):
        return self._server_def

    @property
    def target(self):
        """`grpc://host:port`: what tf.Session takes to run on this cluster."""
        return "grpc://" + self._address

    def start(self):
        """Starts this task's Dask worker, or joins the one already serving the task
        (engine/cluster/task_worker.py)."""
        if self._worker is None:
            from engine.cluster import task_worker
            self._worker = task_worker.start(self._task, self._address, self._cluster)

    def join(self):
        """Blocks until the worker stops (a ps task serves its variables here)."""
        self.start()
        self._worker.join()

    def stop(self):
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    @staticmethod
    def create_local_server(config=None, start=True):
        """A one-task cluster on this machine ({"localhost": ["localhost:<free port>"]})."""
        from engine.cluster.task_worker import free_port
        return Server({"localhost": [f"localhost:{free_port()}"]}, protocol="grpc",
                      config=config, start=start)
