"""Peak memory per hostile input (tests/hostile.py), and the API process's RSS under hostile
uploads and page previews.

    python benchmarks/memory.py                 # every case, each parsed in a fresh process
    python benchmarks/memory.py --bombs         # only the decompression bombs
    python benchmarks/memory.py --api           # also: API RSS while bombs are uploaded/previewed

Each case is parsed by `parser.api.parse_report` in its own child process (no memory ceiling:
what the input checks alone achieve), and the child's peak RSS (ru_maxrss) is printed with the
outcome. The goal (issue 11): every input of at most 10 MB under 1 GB; the API under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GOAL_PARSE_MB = 1024
GOAL_API_MB = 300


def _parse_one(name: str) -> None:
    """Child: parse one case, print its outcome and peak RSS as JSON."""
    from parser.api import parse_report
    from parser.exceptions import LabReportError
    from tests.hostile import corpus

    case = next(c for c in corpus() if c.name == name)
    data = case.data
    started = time.monotonic()
    try:
        parse_report(data, filename=case.filename)
        outcome, message = "parsed", ""
    except LabReportError as error:
        outcome, message = error.failure_reason, error.message
    except MemoryError:
        outcome, message = "MemoryError", ""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"outcome": outcome, "message": message, "peak_mb": round(peak_mb),
                      "seconds": round(time.monotonic() - started, 2)}))


def measure_parses(bombs_only: bool) -> bool:
    from tests.hostile import corpus

    cases = [c for c in corpus() if c.bomb or not bombs_only]
    print(f"{'case':32} {'peak MB':>8} {'s':>6}  outcome: message")
    worst = 0
    for case in cases:
        done = subprocess.run(
            [sys.executable, __file__, "--one", case.name], capture_output=True, text=True, cwd=REPO, timeout=600
        )
        if done.returncode != 0:
            print(f"{case.name:32} {'crash':>8}        exit {done.returncode}: {done.stderr.strip()[-200:]}")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        worst = max(worst, row["peak_mb"])
        print(f"{case.name:32} {row['peak_mb']:>8} {row['seconds']:>6}  {row['outcome']}: {row['message'][:70]}")
    print(f"worst peak: {worst} MB (goal < {GOAL_PARSE_MB} MB)")
    return worst < GOAL_PARSE_MB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--bombs", action="store_true", help="only the decompression bombs")
    parser.add_argument("--api", action="store_true", help="also measure the API process's RSS")
    args = parser.parse_args()
    if args.one:
        _parse_one(args.one)
        return
    ok = measure_parses(args.bombs)
    if args.api:
        from benchmarks.memory_api import measure_api

        ok = measure_api() and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
