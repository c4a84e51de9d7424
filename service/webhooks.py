"""Signed webhook delivery from the durable outbox (`webhook_deliveries`).

Signing follows Standard Webhooks (as Svix does): the secret is `whsec_<base64>`,
the signature is `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed
with the secret's decoded bytes, sent as `webhook-id/-timestamp/-signature` and
again as `svix-id/-timestamp/-signature`.

`WebhookSender` is a background thread that claims due rows (an optimistic
lease on `next_attempt_at`, so several API processes can share one outbox),
posts them from a small thread pool, and records the outcome: a 2xx within the
timeout is delivered; anything else is retried on the settings' schedule and
finally marked exhausted (kept, and listed by the deliveries endpoint).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import logging
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx
from sqlalchemy import select, update

from service.db import Database
from service.settings import Settings
from service.tables import (
    DELIVERY_DELIVERED,
    DELIVERY_EXHAUSTED,
    DELIVERY_PENDING,
    Team,
    WebhookDelivery,
    utcnow,
)

log = logging.getLogger(__name__)

SECRET_PREFIX = "whsec_"
# How long a claimed delivery stays invisible to other senders while it is being posted.
LEASE_SECONDS = 60


class WebhookUrlError(ValueError):
    """The webhook URL cannot be used; the message says why."""


def new_webhook_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    signature = sign(secret, message_id, timestamp, body)
    headers = {"content-type": "application/json", "user-agent": "labreport-webhooks/1"}
    for prefix in ("webhook", "svix"):
        headers[f"{prefix}-id"] = message_id
        headers[f"{prefix}-timestamp"] = str(timestamp)
        headers[f"{prefix}-signature"] = signature
    return headers


# IPv6 ranges that carry an IPv4 address inside: the IPv4 address decides where a packet goes.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the last 32 bits
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: position varies; refused
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")  # deprecated ::a.b.c.d (RFC 4291)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address routes to: mapped, IPv4-compatible, NAT64, 6to4,
    Teredo (server and client)."""
    found = []
    if ip.ipv4_mapped:
        found.append(ip.ipv4_mapped)
    if ip in _IPV4_COMPATIBLE or ip in _NAT64:
        found.append(ipaddress.IPv4Address(ip.packed[12:]))
    if ip.sixtofour:
        found.append(ip.sixtofour)
    if ip.teredo:
        found.extend(ip.teredo)
    return found


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _NAT64_LOCAL:
            return False
        embedded = _embedded_ipv4(ip)
        if ip in _IPV4_COMPATIBLE:
            return False  # deprecated form; no public service is reached through it
        if embedded:
            return all(_is_public(str(v4)) for v4 in embedded)
    return ip.is_global and not ip.is_multicast


def validate_webhook_url(url: str, *, allow_private: bool) -> str:
    """Return `url` if it is an http(s) URL of a public host; raise WebhookUrlError otherwise.

    Private, loopback and link-local targets would let a team probe the service's own
    network, so they are refused unless `allow_private` (local development and tests).
    """
    webhook_target(url, allow_private=allow_private)
    return url


@dataclass(frozen=True)
class WebhookTarget:
    """Where a webhook goes: the checked address, and the host name for Host and TLS (SNI
    and certificate check). Posting to `address` closes DNS rebinding: the name is resolved
    once, here, and never again by the HTTP client."""

    url: str
    host: str
    address: str

    def pinned(self) -> tuple[str, dict[str, str], dict[str, str]]:
        """(URL with the address as its host, extra headers, httpx request extensions)."""
        parts = urlsplit(self.url)
        literal = f"[{self.address}]" if ":" in self.address else self.address
        netloc = literal + (f":{parts.port}" if parts.port else "")
        pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        host_header = parts.netloc.rsplit("@", 1)[-1]
        extensions = {"sni_hostname": self.host} if parts.scheme == "https" else {}
        return pinned, {"host": host_header}, extensions


def webhook_target(url: str, *, allow_private: bool) -> WebhookTarget:
    """Check `url` (see validate_webhook_url) and resolve its host once."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise WebhookUrlError("the webhook URL must start with http:// or https://")
    if not parts.hostname:
        raise WebhookUrlError("the webhook URL has no host")
    if parts.username or parts.password:
        raise WebhookUrlError("the webhook URL must not carry credentials")
    host = parts.hostname
    try:
        port = parts.port
        addresses = [host] if _literal_ip(host) else _resolve(host, port)
    except (OSError, ValueError) as error:
        raise WebhookUrlError(f"the webhook host cannot be resolved ({error})") from None
    if not addresses:
        raise WebhookUrlError("the webhook host has no address")
    if not allow_private:
        for address in addresses:
            if not _is_public(address):
                raise WebhookUrlError(
                    "the webhook URL points to a private or loopback address; "
                    "set LABREPORT_ALLOW_PRIVATE_WEBHOOKS=1 to allow it (development only)"
                )
    return WebhookTarget(url=url, host=host, address=addresses[0])


def _literal_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _resolve(host: str, port: int | None) -> list[str]:
    infos = socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)
    return sorted({info[4][0].split("%", 1)[0] for info in infos})


def next_attempt_delay(schedule: list[float], attempts_made: int) -> float | None:
    """Seconds to wait after the `attempts_made`-th failure, or None when exhausted."""
    if attempts_made - 1 < len(schedule):
        return schedule[attempts_made - 1]
    return None


def _group_by_job(claimed: list[tuple[str | None, str]]) -> list[list[str]]:
    batches: dict[str, list[str]] = {}
    for job_id, delivery_id in claimed:
        batches.setdefault(job_id or delivery_id, []).append(delivery_id)
    return list(batches.values())


class WebhookSender:
    def __init__(self, settings: Settings, database: Database):
        self.settings = settings
        self.database = database
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool = ThreadPoolExecutor(
            max_workers=settings.webhook_senders, thread_name_prefix="webhook"
        )
        self._client = httpx.Client(
            timeout=httpx.Timeout(settings.webhook_timeout_seconds), follow_redirects=False
        )
        self._in_flight: dict[str, str | None] = {}  # delivery id -> its job id
        self._lock = threading.Lock()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="webhook-sender", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._client.close()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                claimed = self._claim_due()
            except Exception:
                log.exception("webhook sender: reading the outbox failed")
                claimed = []
            # One task per job, in event order, and never two for one job at once, so a
            # receiver sees a job's events in order (a retry after a failure may still reorder).
            for batch in _group_by_job(claimed):
                self._pool.submit(self._deliver_batch, batch)
            if not claimed:
                self._wake.wait(self.settings.poll_interval_seconds)
                self._wake.clear()

    def _claim_due(self, limit: int = 50) -> list[tuple[str | None, str]]:
        now = utcnow()
        claimed: list[tuple[str | None, str]] = []
        with self._lock:
            # A job with an event in flight keeps its later events waiting for it.
            held = {job_id for job_id in self._in_flight.values() if job_id is not None}
        with self.database.session_scope() as session:
            due = session.execute(
                select(WebhookDelivery.id, WebhookDelivery.next_attempt_at, WebhookDelivery.job_id)
                .where(
                    WebhookDelivery.status == DELIVERY_PENDING,
                    WebhookDelivery.next_attempt_at <= now,
                )
                .order_by(WebhookDelivery.created_at, WebhookDelivery.id)
                .limit(limit)
            ).all()
            for delivery_id, due_at, job_id in due:
                with self._lock:
                    if job_id in held or delivery_id in self._in_flight:
                        continue
                # Optimistic lease: only the sender that moves next_attempt_at owns the attempt.
                result = session.execute(
                    update(WebhookDelivery)
                    .where(
                        WebhookDelivery.id == delivery_id,
                        WebhookDelivery.status == DELIVERY_PENDING,
                        WebhookDelivery.next_attempt_at == due_at,
                    )
                    .values(next_attempt_at=now + timedelta(seconds=LEASE_SECONDS))
                )
                if result.rowcount == 1:
                    claimed.append((job_id, delivery_id))
                    with self._lock:
                        self._in_flight[delivery_id] = job_id
                elif job_id is not None:
                    held.add(job_id)  # another sender has this event: its job's later ones wait
        return claimed

    def _deliver_batch(self, delivery_ids: list[str]) -> None:
        for delivery_id in delivery_ids:
            try:
                self.deliver(delivery_id)
            except Exception:
                log.exception("webhook sender: delivery %s crashed", delivery_id)
            finally:
                with self._lock:
                    self._in_flight.pop(delivery_id, None)
        self._wake.set()  # the job's held events, if any, can go now

    def deliver(self, delivery_id: str) -> None:
        """One attempt at one delivery, and its bookkeeping."""
        with self.database.session_scope() as session:
            row = session.get(WebhookDelivery, delivery_id)
            if row is None or row.status != DELIVERY_PENDING:
                return
            team = session.get(Team, row.team_id)
            secret = team.webhook_secret
            url, body, message_id = row.url, row.payload.encode("utf-8"), row.id

        status_code, error = self._post(url, secret, message_id, body)
        now = utcnow()
        with self.database.session_scope() as session:
            row = session.get(WebhookDelivery, delivery_id)
            row.attempts += 1
            row.last_status_code = status_code
            row.last_error = error
            if error is None:
                row.status = DELIVERY_DELIVERED
                row.delivered_at = now
                log.info("webhook %s delivered (%s)", message_id, row.event_type)
                return
            delay = next_attempt_delay(self.settings.webhook_retry_schedule, row.attempts)
            if delay is None:
                row.status = DELIVERY_EXHAUSTED
                log.warning("webhook %s exhausted after %d attempts", message_id, row.attempts)
            else:
                row.next_attempt_at = now + timedelta(seconds=delay)
                log.info("webhook %s attempt %d failed: %s", message_id, row.attempts, error)

    def _post(self, url: str, secret: str, message_id: str, body: bytes) -> tuple[int | None, str | None]:
        try:
            target = webhook_target(url, allow_private=self.settings.allow_private_webhooks)
        except WebhookUrlError as error:
            return None, str(error)
        headers = signed_headers(secret, message_id, int(time.time()), body)
        pinned_url, host_header, extensions = target.pinned()
        started = time.monotonic()
        try:
            response = self._client.post(
                pinned_url, content=body, headers={**headers, **host_header}, extensions=extensions
            )
        except httpx.HTTPError as error:
            return None, f"{type(error).__name__}: {error}"[:500]
        elapsed = time.monotonic() - started
        if elapsed > self.settings.webhook_timeout_seconds:
            # httpx's timeouts are per read; the contract counts the whole exchange.
            return response.status_code, f"answered after {elapsed:.1f} s (limit {self.settings.webhook_timeout_seconds:g} s)"
        if 200 <= response.status_code < 300:
            return response.status_code, None
        return response.status_code, f"HTTP {response.status_code}"
