"""Device strings: parse, merge and print them as TensorFlow's DeviceSpec does.

>>> canonical("/cpu:0")
'/device:CPU:0'
>>> merge("/job:worker/task:1", "/device:GPU:0")
'/job:worker/task:1/device:GPU:0'
>>> merge("/device:GPU:0", "/cpu:1")
'/device:CPU:1'
"""

from functools import lru_cache

_DEVICE_TYPES = {"CPU", "GPU", "TPU", "TPU_SYSTEM", "XLA_CPU", "XLA_GPU", "CUSTOM"}


class DeviceSpec:
    """job, replica, task, device_type, device_index; None where unspecified."""

    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = job
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = device_type.upper() if device_type in ("cpu", "gpu") else device_type
        self.device_index = None if device_index is None else int(device_index)

    @classmethod
    def from_string(cls, spec):
        return cls(*_parse(spec or ""))

    def to_string(self):
        out = ""
        if self.job is not None:
            out += "/job:" + self.job
        if self.replica is not None:
            out += f"/replica:{self.replica}"
        if self.task is not None:
            out += f"/task:{self.task}"
        if self.device_type is not None:
            index = "*" if self.device_index is None else str(self.device_index)
            out += f"/device:{self.device_type}:{index}"
        return out

    def make_merged_spec(self, dev):
        """A copy of self with every field that `dev` specifies taken from `dev`."""
        fields = []
        for name in self.__slots__:
            value = getattr(dev, name)
            fields.append(getattr(self, name) if value is None else value)
        return DeviceSpec(*fields)

    def __str__(self):
        return self.to_string()

    def __repr__(self):
        return f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, " \
               f"device_type={self.device_type}, device_index={self.device_index})>"

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())


DeviceSpecV2 = DeviceSpec


@lru_cache(maxsize=1024)
def _parse(spec):
    job = replica = task = device_type = device_index = None
    for part in spec.split("/"):
        if not part:
            continue
        y = part.split(":")
        if len(y) == 2 and y[0] == "job":
            job = y[1]
        elif len(y) == 2 and y[0] == "replica":
            replica = int(y[1])
        elif len(y) == 2 and y[0] == "task":
            task = int(y[1])
        elif len(y) in (1, 2) and y[0].upper() in _DEVICE_TYPES:
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the "
                                 f"device spec: {spec}.")
            device_type = y[0].upper()
            if len(y) == 2 and y[1] != "*":
                device_index = int(y[1])
        elif len(y) == 3 and y[0] == "device":
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the "
                                 f"device spec: {spec}.")
            device_type = y[1]
            if y[2] != "*":
                device_index = int(y[2])
        else:
            raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the "
                             f"device spec: '{spec}'.")
    return job, replica, task, device_type, device_index


@lru_cache(maxsize=4096)
def canonical(spec):
    """The device string TensorFlow records for `spec` ("/cpu:0" -> "/device:CPU:0")."""
    return DeviceSpec.from_string(spec).to_string()


@lru_cache(maxsize=4096)
def merge(outer, inner):
    """`inner` (the op's device so far) completed with the fields only `outer` gives."""
    return DeviceSpec.from_string(outer).make_merged_spec(
        DeviceSpec.from_string(inner)).to_string()


# Local devices: the full names a session's devices carry ----------------------------------------

LOCAL_JOB = "localhost"


def local_name(device_type, index):
    """TensorFlow's full name of a device of this process.

    >>> local_name("CPU", 1)
    '/job:localhost/replica:0/task:0/device:CPU:1'
    """
    return f"/job:{LOCAL_JOB}/replica:0/task:0/device:{device_type}:{index}"


def matches(spec, full_name):
    """Whether the (partial) device `spec` names the device `full_name`.

    >>> matches("/cpu:1", local_name("CPU", 1)), matches("/job:worker", local_name("CPU", 0))
    (True, False)
    >>> matches("/device:CPU:*", local_name("CPU", 3))
    True
    """
    want, have = DeviceSpec.from_string(spec), DeviceSpec.from_string(full_name)
    return all(getattr(want, name) is None or getattr(want, name) == getattr(have, name)
               for name in DeviceSpec.__slots__)


# tf.train.replica_device_setter ----------------------------------------------------------------

STANDARD_PS_OPS = (
    "Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
    "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
    "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
    "BoostedTreesQuantileStreamResourceHandleOp", "ResourceConditionalAccumulator",
    "DecisionTreeResource")


class _RoundRobinStrategy:
    """The next ps task, in turn (TensorFlow's default ps_strategy)."""

    def __init__(self, num_tasks):
        self._num_tasks, self._next = num_tasks, 0

    def __call__(self, unused_op):
        task, self._next = self._next, (self._next + 1) % self._num_tasks
        return task


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker",
                          merge_devices=True, cluster=None, ps_ops=None, ps_strategy=None):
    """A device function putting variables on ps tasks in turn, everything else on the worker.

    As tf.train.replica_device_setter: None when there is no ps task; an op's own device
    fields win over the ones the function supplies (merge_devices).

    >>> chooser = replica_device_setter(ps_tasks=2)
    >>> class Op: device = ""; type = "VariableV2"
    >>> chooser(Op()), chooser(Op()), chooser(Op())
    ('/job:ps/task:0', '/job:ps/task:1', '/job:ps/task:0')
    """
    if cluster is not None:
        jobs = cluster.as_dict() if hasattr(cluster, "as_dict") else dict(cluster)
        ps_job = DeviceSpec.from_string(ps_device).job if ps_device else None
        tasks = jobs.get(ps_job, ())
        ps_tasks = len(tasks) if not isinstance(tasks, int) else tasks
    if ps_tasks == 0:
        return None
    if not merge_devices:
        raise ValueError("DEPRECATION: It is recommended to set merge_devices=true in "
                         "replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    ps_ops = list(STANDARD_PS_OPS) if ps_ops is None else ps_ops

    def device_function(op):
        current = DeviceSpec.from_string(getattr(op, "device", "") or "")
        op_type = op.type if hasattr(op, "type") else op.op
        if ps_device and op_type in ps_ops:
            spec = DeviceSpec.from_string(ps_device)
            if spec.job and (not current.job or current.job == spec.job):
                spec.task = ps_strategy(op)
            return spec.make_merged_spec(current).to_string()
        return DeviceSpec.from_string(worker_device or "").make_merged_spec(current).to_string()
    return device_function
