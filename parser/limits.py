"""Every size limit of an input, in one place: what a report may weigh, hold and unpack to.

The goal they serve (issue 11): any input of at most MAX_BYTES is parsed, or refused with a
message naming the problem, in under 1 GB of memory. The checks read headers and dictionaries
before any pixel is decoded (parser.sniff); the parse processes also run under
WORKER_MEMORY_LIMIT, so a bomb that slips past the checks fails its job instead of the machine.
"""

from __future__ import annotations

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

# Address-space ceiling of a parse process (resource.RLIMIT_AS). Address space, not resident
# memory: it includes thread stacks and allocator arenas, so it sits above the 1 GB goal.
# Measured: a parse process maps ~0.9 GB after importing the pipeline (see service.workers).
WORKER_MEMORY_LIMIT = 2560 * MB
