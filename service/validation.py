"""Synchronous checks of an upload before a job is created: the 400s of the contract.

Runs the parser's header-level input checks (`parser.sniff`): unsupported or
mislabelled types, empty files, corrupt or encrypted PDFs, undecodable image
headers and oversized images, too many files or pages, a PDF inside a multi-file
upload. Nothing here decodes pixels (see `check_file`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from parser.exceptions import PdfInMultiUploadError, TooManyFilesError, TooManyPagesError
from parser.sniff import check_image_header, pdf_page_count, sniff

EXTENSIONS = {"pdf": ".pdf", "png": ".png", "jpeg": ".jpg"}
MEDIA_TYPES = {"pdf": "application/pdf", "png": "image/png", "jpeg": "image/jpeg"}


@dataclass(frozen=True)
class CheckedFile:
    kind: str
    pages: int
    sha256: str  # hex digest of the bytes checked (the check reads them anyway)

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.kind]

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.kind]


def check_file(path: Path, declared_type: str | None, *, max_pages: int) -> CheckedFile:
    """Headers only: this runs in the API process, which must never decode pixels or inflate
    streams (an upload may be a bomb). The parse process checks the rest before any work
    (parser.sniff.open_pdf / open_image) and fails the job with invalid_input."""
    data = path.read_bytes()
    kind = sniff(data, declared_type)
    if kind == "pdf":
        # pdfium reads the cross-reference table and the page tree, no page content.
        pages = pdf_page_count(data, check_streams=False)
        if pages > max_pages:
            raise TooManyPagesError(f"the document has {pages} pages; the limit is {max_pages}")
    else:
        check_image_header(data)  # size from the header, PNG chunk checksums; no pixels
        pages = 1
    return CheckedFile(kind, pages, hashlib.sha256(data).hexdigest())


def check_upload(
    files: list[tuple[Path, str | None]], *, max_files: int, max_pages: int
) -> list[CheckedFile]:
    """Check every part in order; raises a `parser.exceptions` error naming the first problem."""
    if len(files) > max_files:
        raise TooManyFilesError(
            f"too many files: {len(files)} were sent, at most {max_files} images can be merged"
        )
    checked = [check_file(path, declared, max_pages=max_pages) for path, declared in files]
    if len(checked) > 1 and any(item.kind == "pdf" for item in checked):
        raise PdfInMultiUploadError()
    if len(checked) > max_pages:
        raise TooManyPagesError(
            f"the upload has {len(checked)} pages; the limit is {max_pages}"
        )
    return checked
