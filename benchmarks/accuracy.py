"""Accuracy of the parser over the fixtures, per modality: `python -m benchmarks.accuracy`.

Prints row recall and precision and the accuracy of value, unit, range, interpretation and
metadata for digital, scanned, photo and real reports (targets from issue 2 beside them).
`--held-out LAYOUT` reports that layout on its own line and leaves it out of the modality totals;
`--fresh N` adds N never-stored reports of the randomized layout (new seeds: column order, heading
words, fonts, notations drawn at random), the closest measure of layouts nobody tuned on, as digital
PDFs and with `--fresh-scanned` also as scans; `--by-layout` adds a line per layout;
`--differences N` prints the first N field differences per file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from benchmarks.scoring import PRIMARY_FIELDS, Score, score_failure, score_report
from fixtures.catalog import MODALITIES, Fixture, discover

# Issue 2 "Done means" (digital / scanned / photo / real vendor reports).
TARGETS = {
    "digital": {"recall": 0.95, "precision": 0.95, "value": 0.99, "unit": 0.97, "range": 0.95,
                "interpretation": 0.95, "metadata": 0.8},
    "scanned": {"recall": 0.90, "value": 0.95},
    "photo": {"recall": 0.80, "value": 0.93},
    "real": {"recall": 0.90, "precision": 0.90, "value": 0.97},
}
COLUMNS = ("recall", "precision") + PRIMARY_FIELDS + ("metadata",)


def parse_bytes(data: bytes, filename: str):
    """(ReportData or None, failure_reason or None): the parser as the service calls it."""
    from parser.api import parse_report
    from parser.exceptions import LabReportError

    try:
        return parse_report(data, filename=filename), None
    except LabReportError as error:
        return None, error.failure_reason


def parse_fixture(fixture: Fixture):
    return parse_bytes(fixture.path.read_bytes(), fixture.path.name)


def score_parse(expected: dict, report, failure: str | None, label: str) -> Score:
    """Score one parse, a refusal included, against the expected output."""
    if "failure_reason" in expected:
        return score_failure(expected["failure_reason"], failure, label=label)
    if report is None:  # refused a report that should parse: every row missed
        score = score_report(expected, {"metadata": {}, "results": []}, label=label)
        score.differences.insert(0, f"{label}: refused with {failure}")
        return score
    return score_report(expected, report, label=label)


def score_fixture(fixture: Fixture, report, failure: str | None) -> Score:
    return score_parse(fixture.expected, report, failure, fixture.id)


def fresh_scores(count: int, scanned: bool, first_seed: int):
    """(modality, label, Score) for `count` unseen randomized reports, made in memory."""
    import random

    from fixtures.generator import degrade
    from fixtures.generator.layouts import randomized

    for i in range(count):
        seed = first_seed + i
        report = randomized.build(seed, 0)
        pdf = randomized.render(report)
        forms = [("fresh digital", pdf, f"fresh_{seed}.pdf")]
        if scanned:
            forms.append(("fresh scanned", degrade.scan(pdf, random.Random(seed)), f"fresh_{seed}_scan.pdf"))
        for modality, data, name in forms:
            result, failure = parse_bytes(data, name)
            yield modality, name, score_parse(report.expected(), result, failure, name)


NAME_WIDTH = 46
WIDTHS = {column: max(9, len(column)) for column in COLUMNS}


def _header() -> str:
    return (f"{'set':<{NAME_WIDTH}}{'files':>5} {'match/exp/pred':>14}"
            + "".join(f" {c:>{WIDTHS[c]}} " for c in COLUMNS))


def _line(name: str, score: Score, files: int | str, targets: dict[str, float]) -> str:
    figures = score.summary()
    cells = []
    for column in COLUMNS:
        mark = " " if column not in targets or figures[column] >= targets[column] else "!"
        cells.append(f" {figures[column]:>{WIDTHS[column]}.3f}{mark}")
    rows = f"{score.matched_rows}/{score.expected_rows}/{score.predicted_rows}"
    return f"{name:<{NAME_WIDTH}}{files:>5} {rows:>14}" + "".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modality", choices=MODALITIES, action="append", help="only these (repeatable)")
    parser.add_argument("--held-out", metavar="LAYOUT", action="append", default=[],
                        help="report this layout separately, outside the totals (repeatable)")
    parser.add_argument("--by-layout", action="store_true", help="a line per layout and modality")
    parser.add_argument("--differences", type=int, default=0, metavar="N", help="print N differences per file")
    parser.add_argument("--fresh", type=int, default=0, metavar="N",
                        help="also score N unseen randomized reports (digital)")
    parser.add_argument("--fresh-scanned", action="store_true", help="--fresh reports also as scans (OCR)")
    parser.add_argument("--fresh-seed", type=int, default=None, help="first seed of --fresh (default: the "
                        "generator's unused range)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead")
    args = parser.parse_args(argv)

    fixtures = [f for f in discover() if not args.modality or f.modality in args.modality]
    totals = {m: Score() for m in MODALITIES}
    counts = dict.fromkeys(MODALITIES, 0)
    held: dict[str, Score] = {}
    layouts: dict[str, Score] = {}
    seconds: dict[str, float] = dict.fromkeys(MODALITIES, 0.0)
    for fixture in fixtures:
        start = time.perf_counter()
        report, failure = parse_fixture(fixture)
        seconds[fixture.modality] += time.perf_counter() - start
        score = score_fixture(fixture, report, failure)
        if args.differences and score.differences:
            print("\n".join(score.differences[: args.differences]), file=sys.stderr)
        key = f"{fixture.layout}/{fixture.modality}"
        layouts.setdefault(key, Score()).add(score)
        if fixture.layout in args.held_out:
            held.setdefault(key, Score()).add(score)
            continue
        totals[fixture.modality].add(score)
        counts[fixture.modality] += 1

    fresh: dict[str, Score] = {}
    fresh_counts: dict[str, int] = {}
    if args.fresh:
        from fixtures.generator.build import FRESH_SEED_BASE

        first_seed = FRESH_SEED_BASE if args.fresh_seed is None else args.fresh_seed
        for modality, name, score in fresh_scores(args.fresh, args.fresh_scanned, first_seed):
            if args.differences and score.differences:
                print("\n".join(score.differences[: args.differences]), file=sys.stderr)
            fresh.setdefault(modality, Score()).add(score)
            fresh_counts[modality] = fresh_counts.get(modality, 0) + 1

    if args.json:
        out = {m: totals[m].summary() | {"files": counts[m]} for m in MODALITIES if counts[m]}
        out |= {m: s.summary() | {"files": fresh_counts[m]} for m, s in fresh.items()}
        out |= {f"held-out {k}": s.summary() for k, s in held.items()}
        print(json.dumps(out, indent=2))
        return 0

    print(_header())
    for modality in MODALITIES:
        if counts[modality]:
            line = _line(modality, totals[modality], counts[modality], TARGETS[modality])
            failures = totals[modality].failures_expected
            extra = f"  refusals right {totals[modality].failures_right}/{failures}" if failures else ""
            print(f"{line}  {seconds[modality] / counts[modality]:.2f} s/file{extra}")
    for modality, score in fresh.items():
        print(_line(modality, score, fresh_counts[modality], TARGETS[modality.split()[1]]))
    for key, score in sorted(held.items()):
        print(_line(f"held-out {key}", score, "", TARGETS[key.split('/')[1]]))
    if args.by_layout:
        print()
        for key, score in sorted(layouts.items()):
            print(_line(key, score, "", TARGETS[key.split('/')[1]]))
    print("\n'!' = below the issue 2 target; field accuracies are over matched rows.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
