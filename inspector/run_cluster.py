"""`graph-inspector run --cluster tcp://host:port` / `--local-cluster ps=1,worker=2`: the
Session target of a run on a cluster (engine/cluster): a running Dask scheduler, or a
cluster of tasks on this machine, started for the run and closed after it. Connecting to
--cluster, and the handshake with what answers there, give up after --connect-timeout
seconds with UnavailableError naming the address."""

import contextlib

from inspector import number_arguments
from parsers.errors import InputError

# As engine/cluster/connection.py's CONNECT_TIMEOUT_S (not imported: it brings Dask).
DEFAULT_CONNECT_TIMEOUT_S = 20.0


def add_arguments(parser):
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run on a cluster: its Dask scheduler (tcp://host:8786) or a task "
                             "(grpc://host:port) whose Dask worker is named by its task")
    parser.add_argument("--connect-timeout", metavar="SECONDS", type=number_arguments.seconds,
                        default=DEFAULT_CONNECT_TIMEOUT_S,
                        help="with --cluster: give up connecting (and on the handshake with "
                             "what accepts the connection) after this many seconds "
                             f"(default {DEFAULT_CONNECT_TIMEOUT_S:g})")
    parser.add_argument("--local-cluster", metavar="JOB=N[,JOB=N]",
                        help="run on a cluster of tasks on this machine, Dask workers in this "
                             "process (e.g. ps=1,worker=2)")


def check(args):
    """--cluster and --local-cluster, checked before the graph is read."""
    if args.cluster and args.local_cluster:
        raise InputError(args.graph, "give --cluster or --local-cluster, not both")
    if args.cluster and not args.cluster.startswith(("tcp://", "grpc://")):
        raise InputError(args.cluster, "--cluster: expected tcp://host:port (a Dask "
                                       "scheduler) or grpc://host:port (a task)")
    if args.local_cluster:
        from engine.cluster import local
        try:
            local.parse_jobs(args.local_cluster)
        except ValueError as error:
            raise InputError(args.graph, f"--local-cluster: {error}") from None
    if args.cluster or args.local_cluster:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise InputError(args.graph, "running on a cluster needs Dask distributed: "
                                         "pip install 'graph-inspector[cluster]'") from None


@contextlib.contextmanager
def session_target(args):
    """The target for tf.Session: "" (this process), the --cluster address, or a local
    cluster's scheduler, running until the block ends."""
    if args.local_cluster:
        from engine.cluster import local
        with local.local_cluster(local.parse_jobs(args.local_cluster)) as cluster:
            yield cluster.scheduler_address
    elif args.cluster:
        from engine.cluster import connection
        with connection.connect_timeout(args.connect_timeout):
            yield args.cluster
    else:
        yield ""


def error_line(error):
    """An error of the cluster itself (a task unavailable, no task at an address): its class,
    the task it names, and what went wrong; None for a node's error."""
    if getattr(error, "node_name", None) or getattr(error, "node_def", None) is not None:
        return None
    task = getattr(error, "task", None)
    where = f" task {task}:" if task else ""
    return f"{type(error).__name__}:{where} {error.message}"
