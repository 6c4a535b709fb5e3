"""Runs CLI cases in one process under a memory limit, one JSON line per case (test_cli_fuzz).

Usage: python fuzz_worker.py CASES.json RESULTS.jsonl HEADROOM_BYTES SECONDS_PER_CASE
Each case is {"id", "argv"}; each result {"id", "code", "out", "err", "seconds", "crash"}.
The worker first loads what the commands load (the CLI, the readers, the engine, the
optimizer's kernels), then limits its address space to what it holds plus HEADROOM_BYTES: an
allocation of more than that fails as a MemoryError traceback. A case that runs past its time
raises in the main thread (SIGALRM) and is reported as a hang.
"""

import io
import json
import resource
import signal
import sys
import time
import traceback


class Hang(BaseException):
    """A case ran past its time limit (BaseException: no `except Exception` swallows it)."""


def _alarm(signum, frame):
    raise Hang()


def _address_space():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _warm_up():
    """Load what every command loads, so the limit measures the cases' allocations."""
    from inspector import cli, cmd_dot, cmd_info, cmd_optimize, cmd_run  # noqa: F401
    from engine import optimizer

    optimizer.preload()
    import engine_reads  # noqa: F401  (the TF1 API and its readers' kernels)
    return cli


def main():
    cases_path, results_path, headroom, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    cli = _warm_up()
    import engine_reads
    limit = _address_space() + headroom
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)

    cases = json.loads(open(cases_path).read())
    with open(results_path, "a") as results:
        for case in cases:
            results.write(json.dumps({"started": case["id"]}) + "\n")
            results.flush()
            out, err = io.StringIO(), io.StringIO()
            real = sys.stdout, sys.stderr
            sys.stdout, sys.stderr = out, err
            crash, code = None, None
            started = time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                if case["argv"][0].startswith("engine:"):  # a read through the TF1 API
                    code, message = engine_reads.read(*case["argv"])
                    err.write(message)
                else:
                    code = cli.main(case["argv"])
            except Hang:
                crash = "hang"
            except SystemExit as exit_:
                code = exit_.code
            except BaseException:  # noqa: BLE001  (a traceback is what the fuzz test hunts)
                crash = traceback.format_exc()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                sys.stdout, sys.stderr = real
            results.write(json.dumps({"id": case["id"], "code": code, "out": out.getvalue()[-2000:],
                                      "err": err.getvalue()[-4000:], "crash": crash,
                                      "seconds": time.monotonic() - started}) + "\n")
            results.flush()


if __name__ == "__main__":
    main()
