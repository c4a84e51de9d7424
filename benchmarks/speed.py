"""Speed and memory of the parser, one worker, against the tools it is built on.

    python benchmarks/speed.py            # all figures (a few minutes)
    python benchmarks/speed.py --quick    # fewer repetitions and pages, no 30-page run
    python benchmarks/speed.py --cpu      # digital figures in CPU time of this process: on a
                                          # busy machine wall-clock best-of-N favours the short
                                          # raw runs (a long run is more often interrupted)
    python benchmarks/speed.py --scanned  # scanned figures only (with --quick: 2 pages, once;
                                          # --repeat N: N interleaved runs, best and median)

Prints:
- digital: ms/page of a full parse (service.pipeline.process_document: extraction, layout,
  normalizer, LOINC) against pypdfium2's raw character extraction of the same pages
  (open + get_text_range per page), and the ratio; for reference the extraction stage alone
  and the parse without LOINC (parser.api.parse_report), with its ratio;
- scanned: s/page of a full parse of image-only PDFs (the real samples rendered, scanned with
  benchmarks/degrade.py) against the tesseract binary alone on the same page images (same
  psm and dpi, one process per page), and the ratio, on two clocks:
  wall: elapsed time of one worker; it prepares page n+1 on a second thread (a second core
    when one is free) while tesseract reads page n, so on an idle 2-core machine it can
    come close to tesseract's own time; on a busy machine it also counts waiting for a core;
  CPU: the work done, this process's threads plus its tesseract children (the document's
    reader process ends with the document, so its time is counted; the machine's other
    load is not). The target (<= 1.3x) is read on CPU, the figure a shared machine measures;
- memory: peak RSS of a full parse of a 30-page scanned PDF in a fresh process (the python
  process, and the largest tesseract child).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.degrade import scanned  # noqa: E402
from parser import tesseract  # noqa: E402
from parser.api import parse_report  # noqa: E402
from parser.document import load_document  # noqa: E402
from service.pipeline import process_document  # noqa: E402

SAMPLES = ROOT.parent / "shared" / "samples" / "real"
DIGITAL = [
    "cbc_normal_drlogy.pdf",
    "kft_normal_drlogy.pdf",
    "lipid_normal_drlogy.pdf",
    "drlal_s056.pdf",
    "healthfirst_synthetic_sample_lab_report.pdf",
]
SCAN_DPI = 300


def interleaved_best(functions, repeat: int, clock=time.perf_counter) -> list[float]:
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for i, function in enumerate(functions):
            start = clock()
            function()
            best[i] = min(best[i], clock() - start)
    return best


def raw_extraction(data: bytes) -> None:
    pdf = pdfium.PdfDocument(data)
    for page in pdf:
        textpage = page.get_textpage()
        textpage.get_text_range()
        textpage.close()
        page.close()
    pdf.close()


def digital(repeat: int, clock=time.perf_counter) -> None:
    what = "CPU time" if clock is time.process_time else "wall clock"
    print("digital PDFs (best of %d runs, %s, ms/page)" % (repeat, what))
    print(f"  {'file':45} {'pages':>5} {'raw':>7} {'extract':>8} {'noLOINC':>8} {'ratio':>6} {'full':>7} {'ratio':>6}")
    totals = [0, 0.0, 0.0, 0.0, 0.0]
    for name in DIGITAL:
        data = (SAMPLES / name).read_bytes()
        pages = len(pdfium.PdfDocument(data))
        process_document(data)  # warm-up: tables, imports
        # Interleaved, so that the three see the same load on a shared machine; best of N.
        raw, extract, parse, full = (
            best / pages * 1000
            for best in interleaved_best(
                [lambda: raw_extraction(data), lambda: load_document(data), lambda: parse_report(data),
                 lambda: process_document(data)],
                repeat,
                clock,
            )
        )
        totals[0] += pages
        totals[1] += raw * pages
        totals[2] += extract * pages
        totals[3] += parse * pages
        totals[4] += full * pages
        print(f"  {name:45} {pages:5} {raw:7.2f} {extract:8.2f} {parse:8.2f} {parse / raw:5.1f}x "
              f"{full:7.2f} {full / raw:5.1f}x")
    pages, raw, extract, parse, full = totals
    print(
        f"  {'all':45} {pages:5} {raw / pages:7.2f} {extract / pages:8.2f} {parse / pages:8.2f} "
        f"{parse / raw:5.1f}x {full / pages:7.2f} {full / raw:5.1f}x   (target: full <= 5x)"
    )


def scanned_pdf(names: list[str], pages_wanted: int, *, dpi: int = 200, quality: int = 55) -> bytes:
    """An image-only PDF of `pages_wanted` scanned pages cycling through the samples' pages."""
    images = []
    while len(images) < pages_wanted:
        for name in names:
            pdf = pdfium.PdfDocument(str(SAMPLES / name))
            for page in pdf:
                if len(images) < pages_wanted:
                    images.append(scanned(page.render(scale=dpi / 72).to_pil(), seed=len(images)))
            pdf.close()
    buffer = io.BytesIO()
    first, *rest = [image.convert("L") for image in images]
    first.save(buffer, format="PDF", resolution=dpi, save_all=True, append_images=rest, quality=quality)
    return buffer.getvalue()


def cpu_seconds() -> float:
    """CPU time of this process (all threads) and of its finished children (the tesseract
    processes): on a machine shared with other jobs this measures the work done, where
    wall-clock also counts the time spent waiting for a core."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def scanned_speed(pages: int, repeat: int = 1) -> None:
    data = scanned_pdf(DIGITAL, pages)
    # The baseline reads exactly the images our pipeline OCRs: the pages rendered at 300 dpi.
    pdf = pdfium.PdfDocument(data)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, page in enumerate(pdf):
            path = os.path.join(folder, f"page{index}.pgm")
            page.render(scale=SCAN_DPI / 72, grayscale=True).to_pil().convert("L").save(path)
            paths.append(path)
        pdf.close()
        environment = dict(os.environ, OMP_THREAD_LIMIT="1")

        def alone() -> None:
            for path in paths:
                subprocess.run(
                    ["tesseract", path, "stdout", "--psm", str(tesseract.DEFAULT_PSM), "--dpi", str(SCAN_DPI),
                     "tsv"],
                    check=True, capture_output=True, env=environment,
                )

        results = []
        # Interleaved, so that both see the same load; each clock's best and median of `repeat`.
        functions = [alone, lambda: results.append(len(process_document(data).results))]
        wall: list[list[float]] = [[], []]
        cpu: list[list[float]] = [[], []]
        for _ in range(repeat):
            for i, function in enumerate(functions):
                wall_start, cpu_start = time.perf_counter(), cpu_seconds()
                function()
                cpu[i].append(cpu_seconds() - cpu_start)
                wall[i].append(time.perf_counter() - wall_start)
    print(f"scanned PDF ({pages} pages, {results[-1]} results, {repeat} interleaved runs; best, then median)")
    print(f"  {'':16} {'wall s/page':>11} {'CPU s/page':>11}   (wall: one worker, pipelined; CPU: all work)")
    for name, pick in (("best", min), ("median", statistics.median)):
        alone_wall, parse_wall = pick(wall[0]) / pages, pick(wall[1]) / pages
        alone_cpu, parse_cpu = pick(cpu[0]) / pages, pick(cpu[1]) / pages
        print(f"  {name}")
        print(f"  tesseract alone {alone_wall:11.2f} {alone_cpu:11.2f}")
        print(f"  full parse      {parse_wall:11.2f} {parse_cpu:11.2f}")
        print(f"  ratio           {parse_wall / alone_wall:10.2f}x {parse_cpu / alone_cpu:10.2f}x   (target <= 1.3x, CPU)")
    print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def memory(pages: int) -> None:
    data = scanned_pdf(DIGITAL, pages, dpi=200, quality=25)  # under the 10 MB limit
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "scan30.pdf")
        Path(path).write_bytes(data)
        code = (
            "import json, resource, sys, time; sys.path.insert(0, %r)\n"
            "from service.pipeline import process_document\n"
            "start = time.perf_counter()\n"
            "report = process_document(open(%r, 'rb').read())\n"
            "print(json.dumps({'self_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
            " 'child_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
            " 'results': len(report.results), 'seconds': time.perf_counter() - start}))\n"
        ) % (str(ROOT), path)
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if output.returncode:
            raise SystemExit(f"the 30-page parse failed:\n{output.stderr[-2000:]}")
    figures = json.loads(output.stdout.strip().splitlines()[-1])
    python_mb = figures["self_kb"] / 1024
    tesseract_mb = figures["child_kb"] / 1024
    print(f"memory: {pages}-page scanned PDF ({len(data) / 1e6:.1f} MB, {figures['results']} results, {figures['seconds']:.0f} s)")
    print(f"  peak RSS python {python_mb:7.0f} MB, largest tesseract {tesseract_mb:5.0f} MB, "
          f"together {python_mb + tesseract_mb:7.0f} MB   (target < 1024 MB)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="digital figures only, in CPU time")
    parser.add_argument("--scanned", action="store_true", help="scanned figures only (wall and CPU)")
    parser.add_argument("--repeat", type=int, default=None, help="interleaved scanned runs (default 2, --quick 1)")
    args = parser.parse_args()
    if args.cpu:
        digital(repeat=10 if args.quick else 30, clock=time.process_time)
        return
    scanned_repeat = args.repeat or (1 if args.quick else 2)
    if args.scanned:
        scanned_speed(pages=2 if args.quick else 5, repeat=scanned_repeat)
        return
    digital(repeat=5 if args.quick else 30)
    scanned_speed(pages=2 if args.quick else 5, repeat=scanned_repeat)
    if not args.quick:
        memory(pages=30)


if __name__ == "__main__":
    main()
