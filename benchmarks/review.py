"""How well does routing separate right jobs from wrong ones? `python -m benchmarks.review`.

Runs the pipeline (parser + LOINC) once over every fixture with an expected output, then
routes each report at several extraction-confidence thresholds and prints, per threshold:

- skip:        share of jobs that skip review (complete directly);
- wrong|skip:  share of wrong rows among the rows of jobs that skip review — the figure that
               must stay low (aim <= 1%): a wrong row there reaches the client unchecked;
- missed|skip: share of expected rows missing from jobs that skip review;
- need|review: share of jobs sent to review that really had a wrong, invented or missing row;
- wrong marked: share of wrong rows whose own row routing marked uncertain (the reviewer is
               pointed at them, not just at the job);
- marks right: share of marked rows that really are wrong (the rest cost a reviewer a look).

A row is wrong when its value, unit, range or interpretation disagrees with the expected
row (benchmarks/scoring.py matches rows), or when the expected output has no such row
(invented). LOINC codes are not in the expected files, so the LOINC rule is measured only
through its effect on which jobs go to review. A second table ignores the LOINC status to
show what the extraction rules alone do.

Options: --cache DIR keeps the pipeline output per fixture (re-runs then take seconds);
--only digital,real limits the modalities; --details lists the wrong rows of skipped jobs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.scoring import field_matches, match_rows
from fixtures.catalog import MODALITIES, Fixture, discover
from parser.exceptions import LabReportError
from parser.models import ReportData
from review.routing import DEFAULT_THRESHOLD, LOINC_CODE, route_report

THRESHOLDS = (0.0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
JUDGED_FIELDS = ("value", "unit", "range", "interpretation")


@dataclass
class Parsed:
    fixture: Fixture
    report: ReportData
    wrong: set[int]  # indexes of predicted rows that are wrong or invented
    missed: int  # expected rows with no predicted row

    @property
    def has_error(self) -> bool:
        return bool(self.wrong) or self.missed > 0


def judge(expected: dict, report: ReportData) -> tuple[set[int], int]:
    """(wrong predicted row indexes, missed expected rows) of one report."""
    exp_rows = expected.get("results", [])
    pred_rows = [row.model_dump() for row in report.results]
    pairs = match_rows(exp_rows, pred_rows)
    wrong = {j for j in range(len(pred_rows))} - {j for _, j in pairs}  # invented rows
    for i, j in pairs:
        agreement = field_matches(exp_rows[i], pred_rows[j])
        if not all(agreement[name] for name in JUDGED_FIELDS):
            wrong.add(j)
    return wrong, len(exp_rows) - len(pairs)


def run_pipeline(fixture: Fixture, cache: Path | None) -> ReportData | None:
    """The pipeline's report for the fixture, or None when the pipeline refused it."""
    # Imported on first use: with a warm --cache the OCR/PDF stack is never loaded.
    from service.pipeline import process_document

    data = fixture.path.read_bytes()
    cached = None
    if cache is not None:
        cached = cache / (hashlib.sha256(data).hexdigest()[:24] + ".json")
        if cached.exists():
            text = cached.read_text()
            return None if text == "null" else ReportData.model_validate_json(text)
    try:
        report = process_document(data, filename=fixture.path.name)
    except LabReportError:
        report = None
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text("null" if report is None else report.model_dump_json())
    return report


def without_loinc_status(report: ReportData) -> ReportData:
    """The report as if every LOINC match were sure: isolates the extraction rules."""
    copy = report.model_copy(deep=True)
    for row in copy.results:
        row.loinc_match_status = "auto_match"
    return copy


def table(parsed: list[Parsed], *, ignore_loinc: bool) -> list[dict]:
    lines = []
    for threshold in THRESHOLDS:
        skipped_rows = wrong_skipped = expected_skipped = missed_skipped = 0
        skipped_jobs = reviewed_jobs = reviewed_needed = 0
        wrong_total = wrong_marked = marked_total = 0
        for item in parsed:
            report = without_loinc_status(item.report) if ignore_loinc else item.report
            decision = route_report(report, threshold=threshold)
            marked_rows = {index for index, field in decision.uncertain if not (ignore_loinc and field == LOINC_CODE)}
            wrong_total += len(item.wrong)
            wrong_marked += len(item.wrong & marked_rows)
            marked_total += len(marked_rows)
            if decision.needs_review:
                reviewed_jobs += 1
                reviewed_needed += int(item.has_error)
            else:
                skipped_jobs += 1
                skipped_rows += len(report.results)
                wrong_skipped += len(item.wrong)
                expected_skipped += len(item.report.results) - len(item.wrong) + item.missed
                missed_skipped += item.missed
        lines.append(
            {
                "threshold": threshold,
                "skip": skipped_jobs / len(parsed) if parsed else 0.0,
                "wrong|skip": wrong_skipped / skipped_rows if skipped_rows else 0.0,
                "missed|skip": missed_skipped / expected_skipped if expected_skipped else 0.0,
                "need|review": reviewed_needed / reviewed_jobs if reviewed_jobs else 0.0,
                "wrong marked": wrong_marked / wrong_total if wrong_total else 1.0,
                "marks right": wrong_marked / marked_total if marked_total else 1.0,
                "jobs skipped": skipped_jobs,
                "wrong rows skipped": wrong_skipped,
            }
        )
    return lines


def print_table(title: str, lines: list[dict]) -> None:
    print(f"\n{title}")
    print(f"{'threshold':>9} {'skip':>7} {'wrong|skip':>10} {'missed|skip':>11} {'need|review':>11} "
          f"{'wrong marked':>12} {'marks right':>11} {'jobs skipped':>12} {'wrong rows skipped':>18}")
    for line in lines:
        mark = "  <- DEFAULT_THRESHOLD" if abs(line["threshold"] - DEFAULT_THRESHOLD) < 1e-9 else ""
        print(f"{line['threshold']:>9.2f} {line['skip']:>7.1%} {line['wrong|skip']:>10.2%} "
              f"{line['missed|skip']:>11.2%} {line['need|review']:>11.1%} {line['wrong marked']:>12.1%} "
              f"{line['marks right']:>11.1%} "
              f"{line['jobs skipped']:>12d} {line['wrong rows skipped']:>18d}{mark}")


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--cache", type=Path, help="directory keeping the pipeline output per fixture")
    options.add_argument("--only", help=f"comma-separated modalities among {', '.join(MODALITIES)}")
    options.add_argument("--details", action="store_true", help="list wrong rows of jobs that skip review")
    options.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    options.add_argument("--fixtures", type=Path, help="fixture tree to use (default: fixtures/)")
    args = options.parse_args(argv)

    modalities = set(args.only.split(",")) if args.only else set(MODALITIES)
    found = discover(args.fixtures) if args.fixtures else discover()
    # Expected outputs are read once, up front, so the run judges one consistent set.
    fixtures = [(f, f.expected) for f in found if f.modality in modalities]
    fixtures = [(f, expected) for f, expected in fixtures if "failure_reason" not in expected]
    parsed: list[Parsed] = []
    refused = 0
    started = time.perf_counter()
    for fixture, expected in fixtures:
        report = run_pipeline(fixture, args.cache)
        if report is None:
            refused += 1  # a refused report fails; it never reaches review or a client
            continue
        wrong, missed = judge(expected, report)
        parsed.append(Parsed(fixture, report, wrong, missed))
    elapsed = time.perf_counter() - started

    rows = sum(len(p.report.results) for p in parsed)
    print(f"{len(parsed)} reports ({refused} refused by the pipeline), {rows} rows, "
          f"{sum(len(p.wrong) for p in parsed)} wrong or invented rows, "
          f"{sum(p.missed for p in parsed)} missed rows, "
          f"{sum(p.has_error for p in parsed)} reports with an error; pipeline {elapsed:.1f} s")
    full = table(parsed, ignore_loinc=False)
    extraction_only = table(parsed, ignore_loinc=True)
    print_table("All routing rules (what the service does):", full)
    print_table("Extraction rules only (LOINC status ignored):", extraction_only)

    if args.details:
        print("\nWrong rows in jobs the extraction rules let through at the default threshold:")
        for item in parsed:
            if route_report(without_loinc_status(item.report)).needs_review:
                continue
            for j in sorted(item.wrong):
                row = item.report.results[j]
                print(f"  {item.fixture.path.parent.name}/{item.fixture.path.name}: row {j} {row.test_name!r} value {row.value!r} "
                      f"units {row.units!r} conf {row.extraction_confidence:.2f}")
    if args.json:
        print(json.dumps({"all_rules": full, "extraction_only": extraction_only}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
