"""Receive a multipart upload by streaming it to disk, refusing it past the size limit.

Starlette's `request.form()` spools the whole body before the endpoint sees it;
here the body is parsed chunk by chunk with python-multipart's streaming parser,
file parts go straight to private (0600) files under the store's `incoming/` directory, and the
upload is refused with 413 as soon as the files' bytes pass the limit. Memory use
stays at one network chunk whatever the upload size.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from fastapi import HTTPException, Request, status
from fastapi.exceptions import RequestValidationError
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from service.storage import Storage, open_private

MAX_FIELD_BYTES = 64 * 1024
# A part's header line (Content-Disposition carries the file name): python-multipart's default
# of 4 KB refused a 5,000-character name as a "malformed multipart body".
MAX_PART_HEADER_BYTES = 32 * 1024
MAX_PARTS = 32
# Room for the multipart boundaries and headers around the files themselves.
ENVELOPE_ALLOWANCE = 256 * 1024


@dataclass
class ReceivedFile:
    field_name: str
    filename: str | None
    declared_type: str | None
    path: Path
    size: int = 0


@dataclass
class ReceivedUpload:
    fields: dict[str, list[str]] = field(default_factory=dict)
    files: list[ReceivedFile] = field(default_factory=list)

    def discard(self) -> None:
        for received in self.files:
            received.path.unlink(missing_ok=True)


def _too_large(limit: int) -> HTTPException:
    return HTTPException(
        413,  # Content Too Large (its constant was renamed across Starlette versions)
        detail=f"the upload is larger than the {limit // (1024 * 1024)} MB limit",
    )


def _not_multipart() -> RequestValidationError:
    return RequestValidationError(
        [
            {
                "type": "value_error",
                "loc": ("body",),
                "msg": "the request body must be multipart/form-data with a boundary",
                "input": None,
            }
        ]
    )


class _PartCollector:
    """python-multipart callbacks that route each part to a file or a small field buffer."""

    def __init__(self, store: Storage, limit: int, file_fields: set[str]):
        self.store = store
        self.limit = limit
        self.file_fields = file_fields
        self.upload = ReceivedUpload()
        self.file_bytes = 0
        self.too_large = False
        self.error: str | None = None
        self._header_field = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._sink: BinaryIO | None = None
        self._current_file: ReceivedFile | None = None
        self._field_name: str | None = None
        self._field_value = bytearray()

    def callbacks(self) -> dict:
        return {
            "on_part_begin": self.on_part_begin,
            "on_part_data": self.on_part_data,
            "on_part_end": self.on_part_end,
            "on_header_field": self.on_header_field,
            "on_header_value": self.on_header_value,
            "on_header_end": self.on_header_end,
            "on_headers_finished": self.on_headers_finished,
        }

    def on_part_begin(self) -> None:
        self._headers = {}
        self._header_field = b""
        self._header_value = b""

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_field += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        self._headers[self._header_field.lower()] = self._header_value
        self._header_field = b""
        self._header_value = b""

    def on_headers_finished(self) -> None:
        if len(self.upload.files) + sum(map(len, self.upload.fields.values())) >= MAX_PARTS:
            self.error = f"too many form parts (at most {MAX_PARTS})"
            return
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        name = options.get(b"name", b"").decode("utf-8", "replace")
        filename = options.get(b"filename")
        content_type = self._headers.get(b"content-type")
        if filename is not None or name in self.file_fields:
            received = ReceivedFile(
                field_name=name,
                filename=filename.decode("utf-8", "replace") if filename is not None else None,
                declared_type=content_type.decode("latin-1").strip() if content_type else None,
                path=self.store.new_incoming_path(),
            )
            self.upload.files.append(received)
            self._current_file = received
            # 0600 from the first byte: an upload is patient data.
            self._sink = os.fdopen(open_private(received.path), "wb")  # closed in on_part_end
        else:
            self._field_name = name
            self._field_value = bytearray()

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self.error or self.too_large:
            return
        size = end - start
        if self._sink is not None and self._current_file is not None:
            self.file_bytes += size
            self._current_file.size += size
            if self.file_bytes > self.limit:
                self.too_large = True
                return
            self._sink.write(data[start:end])
        elif self._field_name is not None:
            if len(self._field_value) + size > MAX_FIELD_BYTES:
                self.error = f"form field {self._field_name!r} is too long"
                return
            self._field_value += data[start:end]

    def on_part_end(self) -> None:
        if self._sink is not None:
            self._sink.close()
            self._sink = None
            self._current_file = None
        elif self._field_name is not None:
            value = self._field_value.decode("utf-8", "replace")
            self.upload.fields.setdefault(self._field_name, []).append(value)
            self._field_name = None

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()
            self._sink = None


async def receive_upload(
    request: Request, store: Storage, *, limit: int, file_fields: set[str]
) -> ReceivedUpload:
    """Stream the multipart body of `request` to disk; 413 past `limit` bytes of files."""
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if content_type != b"multipart/form-data" or not boundary:
        raise _not_multipart()
    declared_length = request.headers.get("content-length")
    if declared_length and declared_length.isdigit() and int(declared_length) > limit + ENVELOPE_ALLOWANCE:
        raise _too_large(limit)

    collector = _PartCollector(store, limit, file_fields)
    parser = MultipartParser(boundary, collector.callbacks(), max_header_size=MAX_PART_HEADER_BYTES)
    try:
        async for chunk in request.stream():
            parser.write(chunk)
            if collector.too_large:
                raise _too_large(limit)
            if collector.error:
                raise HTTPException(status.HTTP_400_BAD_REQUEST, detail=collector.error)
        parser.finalize()
    except MultipartParseError as error:
        collector.close()
        collector.upload.discard()
        detail = f"malformed multipart body: {error}"
        if "header size" in str(error).lower():
            detail = (
                f"a part's headers are longer than {MAX_PART_HEADER_BYTES // 1024} KB: "
                "probably the file name; rename the file to something shorter"
            )
        raise HTTPException(status.HTTP_400_BAD_REQUEST, detail=detail) from None
    except BaseException:
        collector.close()
        collector.upload.discard()
        raise
    collector.close()
    return collector.upload
