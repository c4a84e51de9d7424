"""Throughput, latency and memory of the job service, against the batch command on the same files.

    python benchmarks/service.py [--uploads 200] [--clients 20] [--workers N]

Starts `labreport serve` on loopback with a temporary LABREPORT_HOME and prints:
- peak RSS added while the server receives a 10 MB upload (and a refused 11 MB one);
- uploads accepted per second for N uploads of digital reports from C concurrent clients;
- time until every job is finished, and completed reports per minute;
- p50/p99 latency of GET job while C clients upload, and while only the workers are busy
  (polled from a separate process, so the client's own threads do not skew it), and how long
  the API's event-loop thread waited for a CPU meanwhile (a loaded machine's share of it);
- the server's peak RSS (API process, and API + parse processes);
- `labreport batch` on the same files and cores: reports per minute, and the API/batch ratio.
Targets (issue 4): API rate >= 80% of batch; GET p99 <= 50 ms; a 10 MB upload adds < 50 MB.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.service.server import CLI, Server, cli_json, service_env  # noqa: E402

DIGITAL_REPORTS = ["cbc_normal_drlogy.pdf", "kft_normal_drlogy.pdf", "lipid_normal_drlogy.pdf"]
TERMINAL = {"completed", "failed", "pending_review"}


# --- memory of processes, from /proc (Linux) ---------------------------------------------------


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass  # the process ended between listing and reading: it holds no memory
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used (its own threads, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_for_cpu_s(pid: int) -> float:
    """Time the process's main thread (the API's event loop) has spent runnable but waiting
    for a CPU (Linux schedstat): what a loaded machine adds to every latency."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9


def reset_peak(pid: int) -> None:
    """Reset the kernel's peak-RSS mark (VmHWM) of `pid`."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def descendants(pid: int) -> list[int]:
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = []
        # Each thread has its own list: the parse pool is started by the dispatcher thread.
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children += (task / "children").read_text().split()
            except (FileNotFoundError, ProcessLookupError):
                pass  # the thread or process ended meanwhile: it has no children to list
        found += [int(c) for c in children]
        frontier += [int(c) for c in children]
    return found


def named_peak_kb(pid: int, name: str) -> int:
    """Peak RSS of the descendant of `pid` named `name` (its comm), 0 when there is none."""
    for child in descendants(pid):
        try:
            if Path(f"/proc/{child}/comm").read_text().strip() == name:
                return rss_kb(child, "VmHWM")
        except OSError:
            continue  # ended meanwhile
    return 0


class PeakSampler:
    """Samples the summed RSS of a process tree until stopped; keeps the peak."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.pid, self.interval = pid, interval
        self.peak_total_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            total = rss_kb(self.pid) + sum(rss_kb(child) for child in descendants(self.pid))
            self.peak_total_kb = max(self.peak_total_kb, total)
            time.sleep(self.interval)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


# --- inputs ------------------------------------------------------------------------------------


def ten_mb_pdf(target: int = 10 * 1024 * 1024 - 64 * 1024) -> bytes:
    """A valid PDF just under 10 MB: a page carrying an incompressible image."""
    side = int((target / 3) ** 0.5)
    image = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pageCompression=0)
    # A text layer, so the job parses like a digital report instead of OCR-ing noise.
    for line, text in enumerate(["Hemoglobin 14.2 g/dL 13.0 - 17.0", "Glucose 92 mg/dL 70 - 100"]):
        pdf.drawString(72, 720 - 16 * line, text)
    pdf.drawImage(ImageReader(image), 300, 300, 100, 100)
    pdf.showPage()
    pdf.save()
    data = buffer.getvalue()
    return data if len(data) <= 10 * 1024 * 1024 else ten_mb_pdf(int(target * 0.97))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


# --- measurements ------------------------------------------------------------------------------


def wait_terminal(client: httpx.Client, job_ids: list[str]) -> None:
    while any(client.get(f"/lab_report/v1/parser/job/{j}").json()["status"] not in TERMINAL for j in job_ids):
        time.sleep(0.2)


def measure_big_upload(server: Server, headers: dict, user_id: str) -> tuple[float, float, int]:
    pid = server.process.pid
    data = ten_mb_pdf()
    with httpx.Client(base_url=server.base_url, headers=headers, timeout=60) as client:
        warm = (REPO / "fixtures/real" / DIGITAL_REPORTS[0]).read_bytes()
        warm_ids = [client.post("/lab_report/v1/parser/job", files={"file": (f"w{i}.pdf", warm, "application/pdf")},
                                data={"user_id": user_id}).json()["id"] for i in range(4)]
        wait_terminal(client, warm_ids)  # parse processes started and warm
        before = rss_kb(pid)
        reset_peak(pid)
        response = client.post("/lab_report/v1/parser/job",
                               files={"file": ("big.pdf", data, "application/pdf")},
                               data={"user_id": user_id})
        accepted_peak = rss_kb(pid, "VmHWM") - before
        assert response.status_code == 200, response.text
        wait_terminal(client, [response.json()["id"]])
        before = rss_kb(pid)
        reset_peak(pid)
        refused = client.post("/lab_report/v1/parser/job",
                              files={"file": ("huge.pdf", data + os.urandom(1024 * 1024), "application/pdf")},
                              data={"user_id": user_id})
        refused_peak = rss_kb(pid, "VmHWM") - before
    return accepted_peak / 1024, refused_peak / 1024, refused.status_code


def idle_get_latency(server: Server, headers: dict, user_id: str) -> tuple[float, float, str]:
    """p50/p99 of GET job on the idle server: the service's own cost, without contention;
    and the finished job's id (the poller's first job in the runs that follow)."""
    with httpx.Client(base_url=server.base_url, headers=headers, timeout=30) as client:
        client.get("/lab_report/v1/webhooks/deliveries").raise_for_status()  # warm the connection
        report = (REPO / "fixtures/real" / DIGITAL_REPORTS[0]).read_bytes()
        job_id = client.post("/lab_report/v1/parser/job", files={"file": ("i.pdf", report, "application/pdf")},
                             data={"user_id": user_id}).json()["id"]
        wait_terminal(client, [job_id])
        latencies = []
        for _ in range(300):
            started = time.perf_counter()
            client.get(f"/lab_report/v1/parser/job/{job_id}").raise_for_status()
            latencies.append((time.perf_counter() - started) * 1000)
    return statistics.median(latencies), percentile(latencies, 99), job_id


PHASES = ("uploading", "parsing")


def poll_jobs(base_url: str, headers: dict, seed_id: str, new_ids, phase, ready, stop, results) -> None:
    """GET a random known job every 20 ms until `stop`; send the latencies of each phase.

    Runs in its own process: in the process of the 20 uploader threads the poller waited for
    that process's GIL, and the figure measured the client as much as the server. It polls
    `seed_id` from the start and says `ready` once connected: the uploads wait for it (a
    poller still starting missed the upload phase and measured it with 2 requests)."""
    known: list[str] = [seed_id]
    latencies: dict[str, list[float]] = {name: [] for name in PHASES}
    with httpx.Client(base_url=base_url, headers=headers, timeout=30) as client:
        client.get(f"/lab_report/v1/parser/job/{seed_id}").raise_for_status()  # connect first
        ready.set()
        while not stop.is_set():
            while not new_ids.empty():
                known.append(new_ids.get())
            if known:
                name = PHASES[phase.value]
                started = time.perf_counter()
                client.get(f"/lab_report/v1/parser/job/{random.choice(known)}").raise_for_status()
                latencies[name].append((time.perf_counter() - started) * 1000)
            time.sleep(0.02)
    results.put(latencies)


def run_api(server: Server, headers: dict, user_id: str, files: list[Path], clients: int, seed_id: str) -> dict:
    payloads = {path.name: path.read_bytes() for path in set(files)}
    job_ids: list[str] = []
    lock = threading.Lock()
    context = multiprocessing.get_context("spawn")
    new_ids, results = context.Queue(), context.Queue()
    phase, ready, stop = context.Value("i", 0), context.Event(), context.Event()

    def uploader(batch: list[Path]) -> None:
        with httpx.Client(base_url=server.base_url, headers=headers, timeout=120) as client:
            for path in batch:
                response = client.post(
                    "/lab_report/v1/parser/job",
                    files={"file": (path.name, payloads[path.name], "application/pdf")},
                    data={"user_id": user_id},
                )
                response.raise_for_status()
                with lock:
                    job_ids.append(response.json()["id"])
                new_ids.put(response.json()["id"])

    batches = [files[i::clients] for i in range(clients)]
    poller = context.Process(
        target=poll_jobs, args=(server.base_url, headers, seed_id, new_ids, phase, ready, stop, results)
    )
    poller.start()
    if not ready.wait(60):
        raise SystemExit("the GET poller did not start")
    with PeakSampler(server.process.pid) as sampler:
        reset_peak(server.process.pid)
        cpu_before = cpu_seconds(server.process.pid)
        waited_before = waited_for_cpu_s(server.process.pid)
        t0 = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(uploader, batches))
        accepted_s = time.perf_counter() - t0
        loop_waited_s = waited_for_cpu_s(server.process.pid) - waited_before
        phase.value = PHASES.index("parsing")
        # Jobs finish roughly in upload order: check the oldest unfinished one first and
        # look further only when it is done, so this loop adds little load of its own.
        pending = list(job_ids)
        statuses: dict[str, str] = {}
        with httpx.Client(base_url=server.base_url, headers=headers, timeout=30) as client:
            while pending:
                status = client.get(f"/lab_report/v1/parser/job/{pending[0]}").json()["status"]
                if status in TERMINAL:
                    statuses[pending.pop(0)] = status
                else:
                    time.sleep(0.1)
        done_s = time.perf_counter() - t0
        api_cpu_s = cpu_seconds(server.process.pid) - cpu_before
        stop.set()
        get_latencies = results.get(timeout=60)
        poller.join()
    return {
        "uploads": len(job_ids),
        "accepted_s": accepted_s,
        "uploads_per_s": len(job_ids) / accepted_s,
        "all_done_s": done_s,
        "reports_per_min": len(job_ids) / done_s * 60,
        "statuses": {s: list(statuses.values()).count(s) for s in set(statuses.values())},
        "get_p50_ms": statistics.median(get_latencies["parsing"]),
        "get_p99_ms": percentile(get_latencies["parsing"], 99),
        "get_samples": len(get_latencies["parsing"]),
        "get_uploading_p50_ms": statistics.median(get_latencies["uploading"] or [0]),
        "get_uploading_p99_ms": percentile(get_latencies["uploading"] or [0], 99),
        "get_uploading_samples": len(get_latencies["uploading"]),
        "api_cpu_s": api_cpu_s,
        "loop_waited_for_cpu_s": loop_waited_s,
        "api_peak_rss_mb": rss_kb(server.process.pid, "VmHWM") / 1024,
        "jobs_peak_rss_mb": named_peak_kb(server.process.pid, "labreport-jobs") / 1024,
        "tree_peak_rss_mb": sampler.peak_total_kb / 1024,
    }


def run_batch(files: list[Path], workers: int, workdir: Path) -> dict:
    source = workdir / "batch-in"
    source.mkdir()
    for index, path in enumerate(files):
        os.symlink(path, source / f"{index:04d}_{path.name}")
    out = workdir / "batch-out"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    done = subprocess.run(CLI + ["batch", str(source), "--out", str(out), "--workers", str(workers)],
                          env=env, cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"labreport batch failed ({done.returncode}): {done.stderr[-2000:]}")
    return {"batch_s": elapsed, "reports_per_min": len(files) / elapsed * 60}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uploads", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--niceness", type=int, default=None, help="LABREPORT_WORKER_NICENESS of the server")
    parser.add_argument("--skip-batch", action="store_true", help="measure the API only")
    parser.add_argument("--json", action="store_true", help="print the API figures as one JSON line too")
    args = parser.parse_args()

    files = [REPO / "fixtures/real" / DIGITAL_REPORTS[i % len(DIGITAL_REPORTS)] for i in range(args.uploads)]
    workdir = Path(tempfile.mkdtemp(prefix="labreport-bench-"))
    extra = {"LABREPORT_WORKER_NICENESS": str(args.niceness)} if args.niceness is not None else {}
    env = service_env(workdir / "home", LABREPORT_WORKERS=str(args.workers),
                      LABREPORT_ALLOW_PRIVATE_WEBHOOKS="0", **extra)
    team = cli_json(["team", "create", "bench"], env)
    headers = {"x-service-api-key": team["api_key"]}
    server = Server(env, workdir / "server.log").start()
    try:
        user_id = httpx.post(server.base_url + "/v2/user", json={"client_user_id": "bench"},
                             headers=headers).json()["user_id"]
        big_mb, refused_mb, refused_status = measure_big_upload(server, headers, user_id)
        print(f"10 MB upload: +{big_mb:.1f} MB peak RSS (accepted); "
              f"11 MB upload: +{refused_mb:.1f} MB (HTTP {refused_status})   target < 50 MB")
        idle_p50, idle_p99, seed_id = idle_get_latency(server, headers, user_id)
        print(f"GET job on the idle server: p50 {idle_p50:.1f} ms, p99 {idle_p99:.1f} ms")
        load_before = os.getloadavg()[0]
        api = run_api(server, headers, user_id, files, args.clients, seed_id)
    finally:
        server.stop()
    print(f"API: {api['uploads']} uploads from {args.clients} clients, {args.workers} workers")
    print(f"  accepted in {api['accepted_s']:.1f} s = {api['uploads_per_s']:.1f} uploads/s")
    print(f"  all finished after {api['all_done_s']:.1f} s = {api['reports_per_min']:.0f} reports/min  {api['statuses']}")
    print(f"  GET job while workers busy: p50 {api['get_p50_ms']:.1f} ms, p99 {api['get_p99_ms']:.1f} ms "
          f"({api['get_samples']} requests)   target p99 <= 50 ms")
    print(f"  GET job while {args.clients} clients upload: p50 {api['get_uploading_p50_ms']:.1f} ms, "
          f"p99 {api['get_uploading_p99_ms']:.1f} ms ({api['get_uploading_samples']} requests)   target p99 <= 50 ms")
    print(f"  (GET job is polled from its own process, every 20 ms)")
    print(f"  the API's event-loop thread waited {api['loop_waited_for_cpu_s']:.1f} s for a CPU during the "
          f"{api['accepted_s']:.1f} s of uploads (runnable, not running: other work on the machine, this benchmark's clients included)")
    print(f"  API process CPU: {api['api_cpu_s']:.1f} s in all = {api['api_cpu_s'] / api['uploads'] * 1000:.0f} ms per job "
          f"(upload, checks, bookkeeping, every GET)")
    print(f"  machine load average: {load_before:.1f} before, {os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores")
    print(f"  peak RSS: API process {api['api_peak_rss_mb']:.0f} MB, job dispatcher process "
          f"{api['jobs_peak_rss_mb']:.0f} MB, with parse processes {api['tree_peak_rss_mb']:.0f} MB")
    if args.json:
        print(json.dumps({"api": api, "idle_get_p99_ms": idle_p99, "load_before": load_before}, default=str))
    if args.skip_batch:
        shutil.rmtree(workdir, ignore_errors=True)
        return
    batch = run_batch(files, args.workers, workdir)
    ratio = api["reports_per_min"] / batch["reports_per_min"]
    print(f"batch: {len(files)} files in {batch['batch_s']:.1f} s = {batch['reports_per_min']:.0f} reports/min")
    print(f"API / batch rate: {ratio:.0%}   target >= 80%")
    print(json.dumps({"api": api, "batch": batch, "ratio": ratio, "upload_10mb_mb": big_mb}, default=str))
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
