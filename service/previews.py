"""Page previews for the review UI, rendered outside the API process.

Rendering decodes the page's pixels: a bomb's page once took the API process from 127 MB
to 2.2 GB. Here a one-process pool renders, under the parse processes' memory ceiling
(parser.limits.confine_process), and the API process only passes bytes in and PNG out.

    png = previews.render(data, page_number)   # raises LabReportError for unreadable pages
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from parser.exceptions import InvalidInputError, MemoryLimitError
from service.workers import start_parse_process

log = logging.getLogger(__name__)

# A preview process is replaced after this many pages, bounding what it accumulates.
PAGES_PER_PROCESS = 100
RENDER_TIMEOUT_SECONDS = 60


def _render_in_child(data: bytes, page_number: int) -> bytes:
    from parser.document import render_page_png

    try:
        return render_page_png(data, page_number)
    except MemoryError:
        raise MemoryLimitError() from None


class PreviewRenderer:
    """A lazily started process pool of one. Its process is spawned from a thread of our own
    that lives as long as the pool: the parent-death signal of confine_process fires when the
    *thread* that spawned a process ends, and the request threads come and go."""

    def __init__(self, memory_limit: int | None):
        self.memory_limit = memory_limit
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="preview")

    def render(self, data: bytes, page_number: int) -> bytes:
        pool = self._ensure_pool()
        try:
            future = self._spawner.submit(pool.submit, _render_in_child, data, page_number).result()
            return future.result(timeout=RENDER_TIMEOUT_SECONDS)
        except BrokenProcessPool:
            # The renderer died (a native allocation failure under the ceiling): a fresh one
            # serves the next request; this page cannot be shown.
            log.warning("page preview: the render process died; starting a new one")
            self._reset(pool)
            raise InvalidInputError(
                "this page cannot be shown: rendering it needs more memory than allowed"
            ) from None

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self._spawner.shutdown(wait=True)

    def _ensure_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_parse_process,
                    initargs=(0, self.memory_limit),
                    max_tasks_per_child=PAGES_PER_PROCESS,
                )
            return self._pool

    def _reset(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)
