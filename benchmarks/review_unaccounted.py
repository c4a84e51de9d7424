"""Does a detector of lines the layout left unread catch parses that lost rows, and only those?

`python -m benchmarks.review_unaccounted [--old DIR=BATCHES ...] [--batches 1,2,3,4,7,8] [--stored]`

Digital documents only (OCR reports go to a person anyway). Two kinds of material:
- parses WITH missing rows: older parsers' parses of opened real-like dev reports, kept by
  `python -m benchmarks.review_corpus --at COMMIT --batches B --cache DIR --digital` (`--old DIR=B`);
  the detector runs on the document's words with the words inside those parses' row boxes as
  the rows' words (the older code's rows themselves are gone); and current parses of new batches;
- parses with NO missing row: current code on opened dev reports and on the stored digital
  fixtures (`--stored`), the rows' own words as the parser passes them.
Prints per variant (parser.unaccounted.unaccounted_lines's options, and parser/unread's result-shaped lines):
the share of documents with a missing row it flags, of those among them that routing lets skip
without it, and of documents with no missing row it flags (false alarms: skip lost). Aggregates
only; never run on sealed batches (the opened ones are checked).

Session 10 (parser at 9843ca1; older parses: batches 4,7 at 881afed, 3 at 678e49f, 2 at 2cea127,
1 at 7380e67^; current code on batches 1,2,3,4,7,8 dev, stored digital synthetic/html/real, html
fit 40+8x4 and check 40+6x4 seeds; `--old ... --batches 1,2,3,4,7,8 --stored --html`), documents
flagged of 26 with rows read and a row missing / 3 of those the row and panel rules alone let skip /
266 complete ones / 163 complete ones today's routing lets skip (a flag there is skip lost):
    span (between the page's first and last row)      8/26   0/3   0/266   0/163
    span + below the last row                        11/26   1/3   3/266   0/163
    + later pages from page 1's first row            12/26   2/3   3/266   0/163
    same, numbers only (no qualitative words)        12/26   2/3   3/266   0/163
    + >= 3 lines in one column above                 14/26   3/3   3/266   0/163
    + pages without rows: a column of 3 (parser)     14/26   3/3   3/266   0/163
    whole page                                       14/26   3/3  25/266  12/163
    unread_result_lines alone (parser/unread.py)      8/26   2/3   0/266   0/163  (today's rule on older rows)
    both, each line once (shipped)                   14/26   3/3   3/266   0/163
The 12 missing-row documents none catches had the missing rows' words inside rows read (two rows
read as one, a row matched to another name): misread rows, not lines left unread. The 3 false
alarms: a licence number under the rows ("Bioquímica - M.P. 4412", in the older and today's parse
of one report) and a serum index line ("HEM 0 LIP 0 ICT 0"), in jobs that go to review anyway.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks.review_corpus import FIXTURES, SEALED, _needs_ocr, _reallike_fixtures, judge
from fixtures.reallike.build import OPENED_BATCHES
from parser.document import load_document
from parser.exceptions import LabReportError
from parser.models import ReportData
from parser.unaccounted import unaccounted_lines
from parser.unread import result_shaped_lines

VARIANTS = {
    "span": dict(below=False, above="none", empty_pages=False),
    "span+below": dict(below=True, above="none", empty_pages=False),
    "span+below+later tops": dict(below=True, above="later", empty_pages=False),
    "same, numbers only": dict(below=True, above="later", qualitative=False, empty_pages=False),
    "same + 3 in a column above": dict(below=True, above="column", empty_pages=False),
    "+ pages without rows, column (parser)": dict(below=True, above="column", empty_pages=True),
    "whole page": dict(below=True, above="all", empty_pages=False),
}
TODAY = "unread_result_lines (today)"
BOTH = "today's + parser variant (shipped)"


@dataclass
class Sample:
    set_name: str
    missed: int
    rows: int  # rows read (a parse without rows goes to a person anyway)
    skips: bool  # today's routing lets the job through without a person
    rows_skip: bool  # the row checks and panel rules alone would (no unread lines, no document rules)
    counts: dict[str, int]


def _counts(doc, used: set[int]) -> dict[str, int]:
    counts = {name: len(unaccounted_lines(doc, used, **options)) for name, options in VARIANTS.items()}
    shaped = {id(line) for line in result_shaped_lines(doc, used)}
    counts[TODAY] = len(shaped)
    counts[BOTH] = len(shaped | {id(line) for line in unaccounted_lines(doc, used)})
    return counts


def _used_in_boxes(doc, report: ReportData) -> set[int]:
    """Ids of the words whose middle lies inside a row's box on the row's page."""
    used = set()
    pages = {page.number: page for page in doc.pages}
    for row in report.results:
        page = pages.get(row.page or 1)
        if page is None or not row.bbox:
            continue
        x0, top, x1, bottom = (row.bbox[0] * page.width, row.bbox[1] * page.height,
                               row.bbox[2] * page.width, row.bbox[3] * page.height)
        for word in page.words:
            mx, my = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
            if x0 - 1 <= mx <= x1 + 1 and top - 1 <= my <= bottom + 1:
                used.add(id(word))
    return used


def _skips(report: ReportData) -> tuple[bool, bool]:
    """(today's routing lets the job skip review, the row and panel rules alone would)."""
    from review.routing import route_report

    alone = report.model_copy(update={"unread_result_lines": 0})
    return not route_report(report).needs_review, not route_report(alone, document_checks=False).needs_review


def old_samples(cache: Path, batches: tuple[str, ...]):
    """Older parses kept in `cache` of the digital dev reports of `batches`."""
    from fixtures.reallike.loinc import acceptable_codes
    from loinc.annotate import annotate_report

    for fixture in _reallike_fixtures("dev", batches):
        if _needs_ocr(fixture.path):
            continue
        data = fixture.path.read_bytes()
        kept = cache / (hashlib.sha256(data).hexdigest()[:24] + ".json")
        if not kept.exists() or kept.read_text() == "null":
            continue  # never parsed here: the cache is an older parser's, not written to
        report = ReportData.model_validate_json(kept.read_text())
        annotate_report(report)
        _, missed, _ = judge(fixture.expected, report, acceptable_codes)
        doc = load_document(data)
        used = _used_in_boxes(doc, report)
        yield Sample(f"old {cache.name}", missed, len(report.results), *_skips(report), _counts(doc, used))


def current_sample(set_name: str, data: bytes, expected: dict, codes_from=None) -> Sample | None:
    """Today's parse of one digital document, its rows' own words as the parser passes them."""
    from loinc.annotate import annotate_report
    from parser.api import parse_document
    from parser.layout.document import document_rows

    if "failure_reason" in expected:
        return None
    doc = load_document(data)
    try:
        report = parse_document(doc)
    except LabReportError:
        return None
    annotate_report(report)
    used = {id(word) for row in document_rows(doc) for word in row.words}
    _, missed, _ = judge(expected, report, codes_from)
    return Sample(set_name, missed, len(report.results), *_skips(report), _counts(doc, used))


def current_reallike(batches: tuple[str, ...]):
    from fixtures.reallike.build import batch_of
    from fixtures.reallike.loinc import acceptable_codes

    for fixture in _reallike_fixtures("dev", batches):
        if not _needs_ocr(fixture.path):
            sample = current_sample(f"now reallike-{batch_of(fixture.layout)}", fixture.path.read_bytes(),
                                    fixture.expected, acceptable_codes)
            if sample is not None:
                yield sample


def current_stored():
    from fixtures.catalog import discover

    for family in ("synthetic", "html", "real"):
        folder = FIXTURES / family
        for fixture in discover(folder):
            if any(part in SEALED for part in fixture.path.relative_to(folder).parts) or _needs_ocr(fixture.path):
                continue
            sample = current_sample(f"now stored {family}", fixture.path.read_bytes(), fixture.expected)
            if sample is not None:
                yield sample


def current_html(split: str, english: int, european: int):
    """Digital html-family reports of `split`'s seeds (benchmarks.review_corpus.HTML_SEEDS)."""
    from benchmarks.review_corpus import EUROPEAN, HTML_SEEDS
    from fixtures.htmlgen import build
    from fixtures.htmlgen.printing import Printer

    english_base, european_base = HTML_SEEDS[split]
    seeds = [(seed, "en") for seed in range(english_base, english_base + english)] + [
        (seed, language) for language in EUROPEAN for seed in range(european_base, european_base + european)]
    assert not {seed for seed, _ in seeds} & build.SEALED_ALL, "sealed seeds are never drawn here"
    with Printer() as printer:
        for seed, language in seeds:
            composed = build.compose(seed, language)
            sample = current_sample(f"now html {split}", printer.pdf(composed.html, label=f"seed {seed}"),
                                    composed.expected)
            if sample is not None:
                yield sample


def report(samples: list[Sample]) -> None:
    names = list(samples[0].counts) if samples else []
    print("miss: documents with rows read and a row missing; m&skip: those today's routing lets skip;\n"
          "m&rows skip: those the row and panel rules alone let skip (no unread lines, no document rules)")
    print(f"{'set':<24}{'docs':>5}{'miss':>5}{'m&skip':>7}")
    for set_name in dict.fromkeys(s.set_name for s in samples):
        part = [s for s in samples if s.set_name == set_name]
        missing = [s for s in part if s.missed and s.rows]
        print(f"{set_name:<24}{len(part):>5}{len(missing):>5}{sum(s.skips for s in missing):>7}")
    missing = [s for s in samples if s.missed and s.rows]
    slipping = [s for s in missing if s.skips]
    by_rows = [s for s in missing if s.rows_skip]
    complete = [s for s in samples if not s.missed]
    complete_skipping = [s for s in complete if s.skips]
    groups = {"catch missing": missing, "catch m&skip": slipping, "m&rows skip": by_rows,
              "false alarm": complete, "FA on skips": complete_skipping}
    print(f"\n{'variant':<38}" + "".join(f"{title:>15}" for title in groups))
    for name in names:
        cells = [f"{sum(s.counts[name] > 0 for s in group)}/{len(group)}" for group in groups.values()]
        print(f"{name:<38}" + "".join(f"{cell:>15}" for cell in cells))
    print("\nfalse alarms per set (variant: flagged/complete):")
    for set_name in dict.fromkeys(s.set_name for s in samples):
        part = [s for s in samples if s.set_name == set_name and not s.missed]
        cells = [f"{sum(s.counts[n] > 0 for s in part)}" for n in names]
        print(f"  {set_name:<24}{len(part):>4}  " + " ".join(f"{c:>4}" for c in cells))


def _opened(batches: str) -> tuple[str, ...]:
    """The batches of "1,2,7", all of them opened ones (the others are never parsed here)."""
    chosen = tuple(b for b in batches.split(",") if b)
    if set(chosen) - set(OPENED_BATCHES):
        raise SystemExit("only opened batches")
    return chosen


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--old", action="append", default=[], metavar="DIR=4,7",
                         help="a cache of older parses and the opened batches it holds")
    options.add_argument("--batches", default="", help="opened batches parsed with today's code")
    options.add_argument("--stored", action="store_true", help="the stored digital fixtures too")
    options.add_argument("--html", action="store_true", help="the html family's fit and check seeds, digital")
    args = options.parse_args(argv)
    samples: list[Sample] = []
    for entry in args.old:
        folder, batches = entry.split("=")
        samples += old_samples(Path(folder), _opened(batches))
    now = _opened(args.batches)
    samples += current_reallike(now) if now else []
    if args.stored:
        samples += current_stored()
    if args.html:
        samples += current_html("fit", 40, 8)
        samples += current_html("check", 40, 6)
    report(samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
