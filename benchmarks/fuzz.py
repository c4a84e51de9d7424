"""Fuzz the input checks and the parser for longer than CI can, and report what was tried.

    python benchmarks/fuzz.py                       # 60 s
    python benchmarks/fuzz.py --seconds 600 --full  # also parse every input that opens

Inputs are mutations of the hostile corpus (tests/hostile.py) and of valid PDFs, PNGs and
JPEGs: bytes flipped, ranges cut, duplicated or spliced between files, tails cut off. Each
goes through `sniff`, `open_pdf` / `open_image` and (--full) `parse_report`. Any exception
that is not one of parser.exceptions' errors, or a memory peak above 1 GB, is a finding: the
input is saved under --out with the traceback's last line. Prints counts per mutation and
per outcome, and the findings. Exits 1 when there are findings.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parser.exceptions import LabReportError  # noqa: E402
from parser.sniff import open_image, open_pdf, sniff  # noqa: E402
from tests.hostile import corpus, image_bytes, text_pdf  # noqa: E402


def seeds() -> list[bytes]:
    files = [case.data for case in corpus(bombs=False) if 0 < len(case.data) < 2_000_000]
    files += [text_pdf(3), image_bytes("PNG", size=(64, 48)), image_bytes("JPEG", size=(64, 48))]
    return files


def flip(rng: random.Random, data: bytes, _pool) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def cut(rng, data, _pool) -> bytes:
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 512) :]


def duplicate(rng, data, _pool) -> bytes:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 512)]
    at = rng.randrange(len(data))
    return data[:at] + piece * rng.randint(1, 8) + data[at:]


def splice(rng, data, pool) -> bytes:
    other = rng.choice(pool)
    return data[: rng.randrange(len(data))] + other[rng.randrange(len(other)) :]


def truncate(rng, data, _pool) -> bytes:
    return data[: rng.randrange(len(data))]


def numbers(rng, data, _pool) -> bytes:
    """Replace a number (a /Length, /Count, /Width, xref offset) with an extreme one."""
    digits = [i for i, byte in enumerate(data) if 48 <= byte <= 57]
    if not digits:
        return flip(rng, data, _pool)
    at = rng.choice(digits)
    return data[:at] + str(rng.choice([0, 1, 2**31 - 1, 2**32, 10**12, -1])).encode() + data[at + 1 :]


MUTATIONS = [flip, cut, duplicate, splice, truncate, numbers]


def check(data: bytes, full: bool) -> str:
    """The outcome's name: the input error's class, 'opened', 'parsed'; raises on a finding."""
    try:
        kind = sniff(data)
        if kind == "pdf":
            open_pdf(data).close()
        else:
            open_image(data).close()
        if not full:
            return "opened"
        from parser.api import parse_report

        parse_report(data)
        return "parsed"
    except LabReportError as error:
        if not error.message:
            raise AssertionError(f"{type(error).__name__} without a message") from None
        return type(error).__name__


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--full", action="store_true", help="also parse inputs that open (slow: OCR)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    args = parser.parse_args()

    warnings.simplefilter("ignore")  # PIL's "Corrupt EXIF data" on every other input
    rng = random.Random(args.seed)
    pool = seeds()
    tried: Counter = Counter()
    outcomes: Counter = Counter()
    findings: list[tuple[str, str]] = []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        mutation = rng.choice(MUTATIONS)
        data = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            data = mutation(rng, data, pool) if data else data
        tried[mutation.__name__] += 1
        try:
            outcomes[check(data, args.full)] += 1
        except Exception as error:  # a finding: anything but an input error
            name = f"finding-{len(findings):03d}.bin"
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / name).write_bytes(data)
            last = traceback.format_exception_only(type(error), error)[-1].strip()
            findings.append((name, last[:200]))
            outcomes["FINDING"] += 1
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    total = sum(tried.values())
    print(f"{total} inputs in {args.seconds:g} s (seed {args.seed}, {len(pool)} seed files), peak {peak_mb:.0f} MB")
    print("mutations: " + ", ".join(f"{name} {count}" for name, count in tried.most_common()))
    print("outcomes:  " + ", ".join(f"{name} {count}" for name, count in outcomes.most_common()))
    if peak_mb > 1024:
        findings.append(("(process)", f"peak memory {peak_mb:.0f} MB above 1 GB"))
    for name, last in findings:
        print(f"FINDING {name}: {last}")
    print(f"{len(findings)} finding(s)")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
