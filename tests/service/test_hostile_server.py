"""Issue 11 against a real `labreport serve` (uvicorn): header size, count and read-time
limits, and parse processes that die with a SIGKILLed server, leaking nothing on shutdown."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.hostile import text_pdf
from tests.service.server import Server, cli_json, service_env

UPLOAD = "/lab_report/v1/parser/job"


@pytest.fixture
def server(tmp_path):
    env = service_env(
        tmp_path / "home", LABREPORT_HEADER_TIMEOUT_SECONDS="1", LABREPORT_BODY_TIMEOUT_SECONDS="2", LABREPORT_WORKERS="2"
    )
    team = cli_json(["team", "create", "hostile"], env)
    running = Server(env, tmp_path / "server.log").start()
    running.api_key = team["api_key"]
    yield running
    running.stop()


def raw_request(server: Server, request: bytes, *, timeout: float = 5) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(request)
        return sock.recv(65536)


def recv_response(sock: socket.socket) -> bytes:
    """One whole HTTP response: its head and body may come in separate segments."""
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < _content_length(answer):
        chunk = sock.recv(65536)
        if not chunk:
            break
        answer += chunk
    return answer


def _content_length(answer: bytes) -> int:
    for line in answer.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return 0


def test_oversized_headers_and_too_many_headers_get_431(server):
    huge = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (64 * 1024) + b"\r\n\r\n"
    assert raw_request(server, huge).startswith(b"HTTP/1.1 431")
    many = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(500)) + b"\r\n"
    assert raw_request(server, many).startswith(b"HTTP/1.1 431")
    assert raw_request(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 200")


def test_a_client_trickling_its_headers_gets_408_and_loses_the_socket(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 408")
        assert sock.recv(65536) == b""  # closed
        assert time.monotonic() - started < 5
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:  # silent
        assert sock.recv(65536).startswith(b"HTTP/1.1 408")


def test_a_client_trickling_its_body_gets_408(server):
    head = (
        b"POST /v2/user HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
        b"x-service-api-key: " + server.api_key.encode() + b"\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + b'{"client_user_id": ')  # and then nothing more
        started = time.monotonic()
        answer = recv_response(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"did not arrive within 2 s" in answer
        assert time.monotonic() - started < 8


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def run_one_job(server: Server) -> str:
    """Upload a report and wait until it is parsed; returns its final status."""
    headers = {"x-service-api-key": server.api_key}
    with httpx.Client(base_url=server.base_url, headers=headers, timeout=30) as client:
        user = client.post("/v2/user", json={"client_user_id": f"ref-{time.time_ns()}"}).json()["user_id"]
        job = client.post(UPLOAD, data={"user_id": user}, files={"file": ("r.pdf", text_pdf(), "application/pdf")})
        assert job.status_code == 200, job.text
        deadline = time.monotonic() + 60
        while (status := client.get(f"{UPLOAD}/{job.json()['id']}").json()["status"]) in ("upload_pending", "started"):
            assert time.monotonic() < deadline
            time.sleep(0.2)
    return status


def start_parse_processes(server: Server) -> set[int]:
    """Upload a report so the pool starts its processes; returns the server's descendants."""
    run_one_job(server)
    return descendants(server.process.pid)


def niceness(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def dispatcher_pid(server: Server) -> int:
    """The server's child that started the parse processes (the job dispatcher)."""
    parents = {}
    for pid in descendants(server.process.pid):
        try:
            parents[pid] = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
    found = {parent for parent in parents.values() if parent in parents}
    assert len(found) == 1, f"expected one process with parse processes under the server: {found}"
    return found.pop()


def test_parse_processes_and_the_resource_tracker_die_with_a_killed_server(server):
    children = start_parse_processes(server)
    assert len(children) >= 2  # the parse processes and multiprocessing's resource tracker
    os.kill(server.process.pid, signal.SIGKILL)  # the server alone, not its process group
    server.process.wait(timeout=10)
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in children if alive(pid)]
    assert "leaked semaphore" not in server.log_path.read_text()


def test_the_dispatcher_runs_in_its_own_process_and_a_dead_one_is_replaced(server):
    start_parse_processes(server)
    dispatcher = dispatcher_pid(server)
    assert dispatcher != server.process.pid
    assert Path(f"/proc/{dispatcher}/comm").read_text().strip() == "labreport-jobs"  # named for ps/top
    parse_processes = descendants(dispatcher)
    assert parse_processes
    # Priorities: the API and its dispatcher first (a nicer dispatcher measured no better),
    # the parse processes 10 below them.
    api_nice = niceness(server.process.pid)
    assert niceness(dispatcher) == api_nice
    assert {niceness(pid) for pid in parse_processes} == {min(19, api_nice + 10)}
    os.kill(dispatcher, signal.SIGKILL)
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in parse_processes | {dispatcher}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in parse_processes | {dispatcher} if alive(pid)], "parse processes outlived it"
    assert run_one_job(server) in ("completed", "pending_review")  # a new dispatcher took the job
    assert "starting a new one" in server.log_path.read_text()


@pytest.mark.parametrize("stop", ["interrupt", "terminate-group"])
def test_a_stopped_server_leaks_no_semaphores(server, stop):
    start_parse_processes(server)
    if stop == "interrupt":
        server.process.send_signal(signal.SIGINT)  # Ctrl-C
    else:
        os.killpg(server.process.pid, signal.SIGTERM)  # a service manager stopping the unit
    server.process.wait(timeout=30)
    time.sleep(1)  # the resource tracker reports leaks as it exits, after the server
    log = server.log_path.read_text()
    assert "leaked semaphore" not in log
    assert "Traceback" not in log
    assert "job dispatcher exited" not in log  # it left when told, not killed by the signal
