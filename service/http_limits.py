"""Size and time limits of every HTTP request, before any route sees it.

- `LimitedHttpToolsProtocol` (uvicorn's `http=`): request headers of at most
  `max_header_bytes` and `max_headers` lines, else 431; the request line and headers must
  arrive within `header_timeout_seconds` of the connection or of the request's first byte,
  else 408 (uvicorn has no header-read timeout of its own: a client trickling headers
  held a socket forever). URLs longer than `max_url_bytes` get 414.
- `BodyLimitMiddleware` (ASGI): a body is refused with 413 once it passes its route's cap
  (the upload route: the upload limit plus its multipart envelope; any other route:
  `max_json_body_bytes`), from Content-Length before reading when declared, else while
  counting; a body that has not fully arrived within `body_timeout_seconds` gets 408.

`uvicorn_options(settings)` gathers these and uvicorn's own limits for `labreport serve`.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httptools
from starlette.exceptions import HTTPException
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.settings import Settings, get_settings

UPLOAD_PATH = "/lab_report/v1/parser/job"
# Multipart boundaries and part headers around the files (as service.uploads).
UPLOAD_ENVELOPE_BYTES = 256 * 1024


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


_REASONS = {408: b"Request Timeout", 413: b"Content Too Large", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header size, count and read-time limits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.max_header_bytes = settings.max_header_bytes
        self.max_headers = settings.max_headers
        self.max_url_bytes = settings.max_url_bytes
        self.header_timeout = settings.header_timeout_seconds
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        self._header_count = 0

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except _Refused as refusal:
            self._refuse(refusal.status, refusal.message)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, _Refused):
                self._refuse(error.__context__.status, error.__context__.message)
            else:
                self._refuse(400, "Invalid HTTP request received.")
        except httptools.HttpParserError:
            self._refuse(400, "Invalid HTTP request received.")
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = 0
        self._header_count = 0
        self._arm_header_timer()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.max_url_bytes:
            raise _Refused(414, f"the URL is longer than {self.max_url_bytes} bytes")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_bytes += len(name) + len(value) + 4
        self._header_count += 1
        if self._header_bytes > self.max_header_bytes:
            raise _Refused(431, f"the request headers are larger than {self.max_header_bytes} bytes")
        if self._header_count > self.max_headers:
            raise _Refused(431, f"the request has more than {self.max_headers} headers")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm_header_timer()
        super().on_headers_complete()

    # --- helpers -----------------------------------------------------------------------------

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._header_timeout)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered; its headers did arrive
        self._refuse(408, f"the request headers did not arrive within {self.header_timeout:g} s")

    def _refuse(self, status: int, message: str) -> None:
        self._disarm_header_timer()
        if self.transport.is_closing():
            return
        body = json.dumps({"detail": message}).encode()
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n" % (status, _REASONS.get(status, b"Bad Request"), len(body))
            + body
        )
        self.transport.close()


class _BodyRefused(HTTPException):
    """An HTTPException, so FastAPI's body parsing passes it on instead of making it a 400."""

    def __init__(self, status: int, message: str):
        super().__init__(status, detail=message)
        self.status = status
        self.message = message


class BodyLimitMiddleware:
    """413 past the route's body cap, 408 when the body is too slow to arrive."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.settings = settings

    def cap(self, scope) -> int:
        if scope["path"].rstrip("/") == UPLOAD_PATH and scope["method"] == "POST":
            return self.settings.max_upload_bytes + UPLOAD_ENVELOPE_BYTES
        return self.settings.max_json_body_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.cap(scope)
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > cap:
            await _answer(send, 413, _too_large(cap))
            return
        deadline = time.monotonic() + self.settings.body_timeout_seconds
        received = 0
        started = False

        async def limited_receive():
            nonlocal received
            remaining = deadline - time.monotonic()
            try:
                # asyncio.timeout, not wait_for: wait_for wraps every body chunk in a task of
                # its own, event-loop work that twenty concurrent uploads made GET job wait for.
                async with asyncio.timeout(max(remaining, 0.001)):
                    message = await receive()
            except TimeoutError:
                raise _BodyRefused(
                    408, f"the request body did not arrive within {self.settings.body_timeout_seconds:g} s"
                ) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    raise _BodyRefused(413, _too_large(cap))
            return message

        async def tracking_send(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyRefused as refusal:
            if not started:
                await _answer(send, refusal.status, refusal.message)


def _too_large(cap: int) -> str:
    return f"the request body is larger than {cap:,} bytes"


async def _answer(send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close")],
    })
    await send({"type": "http.response.body", "body": body})


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """uvicorn.run / uvicorn.Config keyword arguments that bound connections and time."""
    return {
        "http": LimitedHttpToolsProtocol,
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive_seconds,
        "h11_max_incomplete_event_size": settings.max_header_bytes,  # if h11 is ever chosen
    }
