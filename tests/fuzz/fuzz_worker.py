"""Runs CLI cases in one process under a memory limit, one JSON line per case (test_cli_fuzz).

Usage: python fuzz_worker.py CASES.json RESULTS.jsonl MEMORY_BYTES SECONDS_PER_CASE
Each case is {"id", "argv"}; each result {"id", "code", "out", "err", "seconds", "crash"}.
A case that runs past its time raises in the main thread (SIGALRM) and is reported as a hang;
one that exhausts the address space limit fails as a MemoryError traceback.
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


def main():
    cases_path, results_path, memory, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _alarm)
    from inspector import cli  # after the limit: the imports count too

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
