"""Every size limit of an input, in one place: what a report may weigh, hold and unpack to.

The goal they serve (issue 11): any input of at most MAX_BYTES is parsed, or refused with a
message naming the problem, in under 1 GB of memory. The checks read headers and dictionaries
before any pixel is decoded (parser.sniff); the parse processes also run under
WORKER_MEMORY_LIMIT, so a bomb that slips past the checks fails its job instead of the machine.
"""

from __future__ import annotations

import ctypes
import logging
import os
import resource
import signal
import sys
import threading
import time

log = logging.getLogger(__name__)

MB = 1024 * 1024

# The contract: one upload (or the files of a multi-file upload together) at most 10 MB.
MAX_BYTES = 10 * MB
# Pages of one report (the API's LABREPORT_MAX_PAGES may set another value).
DEFAULT_MAX_PAGES = 30

# A photo or a page image may hold at most this many pixels: a 48 MP phone photo (8000 x 6000)
# fits; far beyond it is a decompression bomb (a 265 KB PNG can claim 8000 x 8000 x RGBA).
MAX_IMAGE_PIXELS = 64_000_000
# ...and at most this many bytes once decoded (pixels x channels x bytes per channel): a 48 MP
# RGB photo is 144 MB; an 8000 x 8000 RGBA PNG (256 MB) took a parse to 1.0 GB.
MAX_DECODED_IMAGE_BYTES = 160 * MB

# A PDF's streams (page contents, fonts, object streams) once inflated: one stream at most,
# and all of them together (images, judged by their pixels, are not counted here). Real
# reports measure well under 5 MB; a 2.4 KB PDF inflating to 1 GiB took a parse to 2.1 GB.
MAX_PDF_STREAM_BYTES = 64 * MB
MAX_PDF_INFLATED_BYTES = 256 * MB
# Deflate's largest possible expansion: a 258-byte copy coded in two bits. A stream this much
# smaller than the limits cannot exceed them, so the check need not inflate it (real reports'
# streams are tens of KB; a bomb's 1 GiB takes a megabyte in one layer, or two layers).
FLATE_MAX_RATIO = 1032

# Address-space ceiling of a parse process (resource.RLIMIT_AS; tesseract, its child,
# inherits it). Address space bounds resident memory from above, so no parse can pass the
# 1 GB goal. Measured: the pipeline maps 240 MB once imported, 430 MB at most on the fixture
# scans and 770 MB on a 48 MP phone photo (the largest image the checks let through).
WORKER_MEMORY_LIMIT = 1024 * MB
# How often a parse process checks that its parent is still alive (where PR_SET_PDEATHSIG,
# Linux only, is not available or the parent was a thread that ended).
PARENT_CHECK_SECONDS = 2.0
_PR_SET_PDEATHSIG = 1


def confine_process(memory_limit: int | None = WORKER_MEMORY_LIMIT) -> None:
    """Run in a parse process as it starts (a pool's initializer): cap its memory, and make it
    die with its parent, so a SIGKILL of `labreport serve` leaves no orphan behind."""
    if memory_limit:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            memory_limit = min(memory_limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, hard))
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError) as error:
            log.debug("no parent-death signal: %s", error)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watchdog", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)  # orphaned: nobody is waiting for this process's results
