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


def _hostile_uploads() -> list[tuple[str, bytes]]:
    """The bombs, and a legitimate 48 MP photo (the largest image the checks let through)."""
    import io

    from PIL import Image, ImageDraw

    from tests.hostile import corpus

    photo = Image.new("RGB", (8000, 6000), "white")
    draw = ImageDraw.Draw(photo)
    for y in range(100, 5900, 80):
        draw.text((100, y), "Glucose 95 mg/dL 70-99  Sodium 140 mmol/L 135-145", fill="black")
    buffer = io.BytesIO()
    photo.save(buffer, format="JPEG", quality=80)
    uploads = [(f"{c.name}{'.pdf' if c.data.startswith(b'%PDF') else '.png'}", c.data) for c in corpus() if c.bomb]
    return uploads + [("photo-48mp.jpg", buffer.getvalue())]


def _jobs_process_peak_mb(server_pid: int) -> float | None:
    """Peak RSS of the server's job dispatcher process (service.dispatch_process), if any."""
    from benchmarks.service import named_peak_kb
    from service.dispatch_process import PROCESS_NAME

    return named_peak_kb(server_pid, PROCESS_NAME) / 1024 or None


def measure_api() -> bool:
    """API process RSS while 4 clients upload each hostile file, then while every job's page
    is previewed (the previews render in a child process; only the API process is counted)."""
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from benchmarks.service import reset_peak, rss_kb
    from tests.service.server import Server, cli_json, service_env

    uploads = _hostile_uploads()
    with tempfile.TemporaryDirectory() as tmp:
        env = service_env(Path(tmp) / "home")
        team = cli_json(["team", "create", "memory"], env)
        server = Server(env, Path(tmp) / "server.log").start()
        try:
            pid = server.process.pid
            headers = {"x-service-api-key": team["api_key"]}
            with httpx.Client(base_url=server.base_url, headers=headers, timeout=120) as client:
                user = client.post("/v2/user", json={"client_user_id": "memory"}).json()["user_id"]
                start_mb = rss_kb(pid) / 1024
                reset_peak(pid)

                def upload(item):
                    name, data = item
                    return client.post("/lab_report/v1/parser/job", data={"user_id": user},
                                       files={"file": (name, data, "application/octet-stream")})

                print(f"\nAPI process at start: {start_mb:.0f} MB")
                job_ids = []
                for name, data in uploads:
                    with ThreadPoolExecutor(4) as pool:
                        answers = list(pool.map(upload, [(name, data)] * 4))
                    job_ids += [a.json()["id"] for a in answers if a.status_code == 200]
                    print(f"  4 x {name:28} HTTP {sorted({a.status_code for a in answers})}  "
                          f"API peak {rss_kb(pid, 'VmHWM') / 1024:.0f} MB")
                deadline = time.monotonic() + 300
                for job_id in job_ids:
                    while client.get(f"/lab_report/v1/parser/job/{job_id}").json()["status"] in ("upload_pending", "started"):
                        if time.monotonic() > deadline:
                            raise SystemExit("jobs did not finish")
                        time.sleep(0.5)
                for job_id in job_ids:
                    answer = client.get(f"/lab_report/v1/review/{job_id}/pages/1.png")
                    print(f"  preview of job {job_id[:8]}: HTTP {answer.status_code}  "
                          f"API peak {rss_kb(pid, 'VmHWM') / 1024:.0f} MB")
                peak_mb = rss_kb(pid, "VmHWM") / 1024
                jobs_mb = _jobs_process_peak_mb(pid)
        finally:
            server.stop()
    print(f"API process peak: {peak_mb:.0f} MB (goal < {GOAL_API_MB} MB)")
    if jobs_mb is not None:
        print(f"job dispatcher process peak (claims jobs, records outcomes, sends webhooks): {jobs_mb:.0f} MB")
    return peak_mb < GOAL_API_MB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--bombs", action="store_true", help="only the decompression bombs")
    parser.add_argument("--api", action="store_true", help="also measure the API process's RSS")
    parser.add_argument("--api-only", action="store_true", help="only the API process's RSS")
    args = parser.parse_args()
    if args.one:
        _parse_one(args.one)
        return
    ok = measure_parses(args.bombs) if not args.api_only else True
    if args.api or args.api_only:
        ok = measure_api() and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
