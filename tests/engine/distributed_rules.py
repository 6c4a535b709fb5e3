"""How each distributed program's output is compared with TensorFlow's (used by
tests/engine/test_distributed_programs.py and tools/make_distributed_fixtures.py).

Every task's stdout must equal TensorFlow's token by token, floats to a relative 1e-5 (NumPy's
and Eigen's last digits may differ), except the numbers a program's `varying` patterns
match: those depend on the order in which asynchronous workers updated the shared
variables (the machine's scheduling decides it, in TensorFlow as here), so each is checked
against the invariant its rule states instead of against TensorFlow's number.
- distributed_sync_replicas: nothing varies. Every update waits for both workers' gradients
  at the same variables, so losses, steps and weights are TensorFlow's exactly.
- distributed_supervisor: the global step a worker saw at its local step N is anything from
  N - 1 (its own steps; the fetch may read it before this step's increment) to 2 x 300 (both
  workers' steps). The losses and the final weights do not vary: noise-free data, trained to
  the exact solution (printed rounded).
- distributed_monitored: nothing varies in what it prints (the steps are compared against
  the last step, the values are the exact solution, the optimizer's sums only by name).
"""

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[^\s\d+-]+|[+-]")


@dataclass
class Rules:
    directory_flag: str  # the flag naming the chief's log or checkpoint directory
    # (regex, the group whose number varies, check(match) -> what is wrong, or None)
    varying: list = field(default_factory=list)

    def args(self, scratch):
        return [f"{self.directory_flag}={scratch}"]

    def compare(self, task, ours, theirs):
        """What differs between our `task` stdout and TensorFlow's (empty when they agree)."""
        problems = [f"{task}: {problem}" for pattern, _, check in self.varying
                    for match in re.finditer(pattern, ours) if (problem := check(match))]
        if not same_up_to_float_rounding(self._masked(ours), self._masked(theirs)):
            problems.append(f"{task}: printed\n{ours}\nTensorFlow printed\n{theirs}")
        return problems

    def _masked(self, text):
        for pattern, group, _ in self.varying:
            text = re.sub(pattern, lambda m: m.string[m.start():m.start(group)] + "#" +
                          m.string[m.end(group):m.end()], text)
        return text


def same_up_to_float_rounding(ours, theirs):
    """Equal token by token, floats to a relative 1e-5, everything else exactly.

    >>> same_up_to_float_rounding("loss 1.151915\\n", "loss 1.151914\\n")
    True
    >>> same_up_to_float_rounding("step 5\\n", "step 6\\n")
    False
    """
    a, b = _TOKEN.findall(ours), _TOKEN.findall(theirs)
    if len(a) != len(b) or ours.count("\n") != theirs.count("\n"):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if not (_is_float(x) and _is_float(y)):
            return False
        if abs(float(x) - float(y)) > 1e-5 * max(abs(float(y)), 1e-30) + 1e-12:
            return False
    return True


def _is_float(token):
    return token[-1:].isdigit() and any(c in token for c in ".eE")


SUPERVISOR_STEPS = 300  # its --train_steps default: each worker's local steps


def _global_step_in_bounds(match):
    local, seen = int(match.group(1)), int(match.group(2))
    if not local - 1 <= seen <= 2 * SUPERVISOR_STEPS:
        return (f"global step {seen} at local step {local} is outside "
                f"[{local - 1}, {2 * SUPERVISOR_STEPS}]")
    return None


PROGRAMS = {
    "distributed_supervisor": Rules("--logdir", [
        (r"training step (\d+) done \(global step: (\d+)\)", 2, _global_step_in_bounds)]),
    "distributed_sync_replicas": Rules("--logdir"),
    "distributed_monitored": Rules("--checkpoint_dir"),
}
