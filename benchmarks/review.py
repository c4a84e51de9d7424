"""Does routing let right jobs through and stop wrong ones? `python -m benchmarks.review [--fit]`.

Material (benchmarks/review_corpus.py), two halves that swap roles (`--fit-batch`):
- half 1: the real-like family's batch-1 dev reports and the html family's `fit` seeds;
- half 2: the real-like family's batch-2 dev reports and the html family's `check` seeds; all
  digital + scanned + photo. (Batch 3 is in neither half: it is the unseen material.)
The model is fitted on one half (`--fit-batch 1`, the shipped model, fits on half 1) and
calibration, thresholds and figures come from the other; fitting on half 2 and checking on half 1
shows the result is not luck. Then, for the figures, the stored synthetic fixtures, the html
family (non-sealed part, when present) and the real samples; `--first-family N` adds N drawn
reports per layout of the first generated family to the check material.

Prints:
- calibration on `check`: rows sorted by predicted probability of being wrong, ten equal groups,
  mean predicted vs observed share of wrong rows;
- per family, for the old rules ("before") and the risk routing ("after"): share of jobs that
  complete without review (skip), share of wrong/missing/extra rows inside those (bad|skip), share
  of documents with any wrong, missing or extra row that go to review (caught).
A row is wrong when its value, unit, range or interpretation differs from the expected output, or
(synthetic reports drawn here, where the truth is known) its top LOINC code is not an acceptable one.

`--sealed N` (4 or later) prints only that sealed HTML slice's calibration and routing (aggregates per
language group and form; never a document): the routing on reports nothing was tuned on.
`--reallike dev|sealed` prints the same for the real-like family (fixtures/README.md), per batch
(batch 3: layouts the parser's developers never saw, dev and sealed alike) and form; `--batches 1,2,3`
(default: the opened ones, fixtures/reallike/build.OPENED_BATCHES) says which batches: the others are
sealed, dev reports too, and are never parsed unless named.
Routing figures print "rows only" (without review.routing.document_reasons) beside the full routing,
and for scans and photos the routing without the rule sending every OCR'd job to a person ("no OCR
rule") and how many of them are right at all (the most skip any routing can reach on them).
`--reasons` counts, per reason, the right jobs and the jobs with an error it sends to review (and
those it alone sends): the reasons a right job is held for are where skip is lost (opened material only).
`--fit` refits review/data/risk_model.json first (a repeatable command: re-run it after parser or
matcher changes; with `--fit-batch 2` it only prints, the shipped model stays fitted on half 1).
`--cache DIR` keeps parses (only valid while the parser is unchanged). Errors of a parser on layouts it has
never seen: `python -m benchmarks.review_corpus --at COMMIT --batches 4 --cache DIR` parses opened dev
reports with an older commit's parser; `--reallike dev --batches 4 --cache DIR` then routes and judges them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import time
from pathlib import Path

from benchmarks import ocr_cache
from benchmarks.review_corpus import OPEN_BATCHES, Case, drawn, families, html_drawn, reallike, sealed_html
from fixtures.htmlgen.build import SEALED_SLICES
from review import risk
from review.routing import DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG, REASON_OCR, route_report, uncertain_fields

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99)
MAX_EXPECTED = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 100.0)
TARGET_BAD = 0.005  # wrong/missing/extra rows inside jobs that skip review
TARGET_CAUGHT = 0.95  # documents with an error that go to review
# Sealed slices whose routing this benchmark reports: those fixed since it printed sealed figures (fifth session).
REVIEWED_SLICES = tuple(n for n in sorted(SEALED_SLICES) if n >= 4)


def rows_and_labels(cases: list[Case]) -> tuple[list[list[float]], list[bool]]:
    """Features and right/wrong labels of every row the model decides (hard doubts are rules)."""
    features, labels = [], []
    for case in cases:
        for (row_features, _evidence, doubts), right in zip(risk.described(case.report), case.row_right):
            if not doubts:
                features.append(row_features)
                labels.append(right)
    return features, labels


def write_model(weights: tuple[float, ...], cases: list[Case]) -> None:
    rows = sum(len(c.right) for c in cases)
    wrong = sum(c.row_right.count(False) for c in cases)
    reallike_count = sum(c.family == "reallike" for c in cases)
    risk.MODEL_PATH.parent.mkdir(exist_ok=True)
    risk.MODEL_PATH.write_text(json.dumps({
        "fitted_by": "python -m benchmarks.review --fit",
        "fitted_on": f"{reallike_count} real-like batch-1 dev reports and {len(cases) - reallike_count} html-family "
                     f"fit reports ({rows} rows, {wrong} wrong), {dt.date.today().isoformat()}",
        "features": list(risk.FEATURES),
        "weights": list(weights),
    }, indent=1) + "\n")
    risk.weights.cache_clear()


def calibration(cases: list[Case], model: tuple[float, ...] | None = None) -> list[tuple[float, float, int]]:
    """(mean predicted wrong, observed wrong share, rows) per decile of predicted risk."""
    pairs = sorted((a.risk, not right) for case in cases
                   for a, right in zip(risk.assess(case.report, model), case.row_right))
    groups = []
    for k in range(10):
        part = pairs[k * len(pairs) // 10:(k + 1) * len(pairs) // 10]
        if part:
            groups.append((sum(p for p, _ in part) / len(part), sum(w for _, w in part) / len(part), len(part)))
    return groups


def print_calibration(table: list[tuple[float, float, int]]) -> None:
    print(f"{'decile':>6} {'rows':>5} {'predicted wrong':>16} {'observed wrong':>15}")
    for k, (predicted, observed, count) in enumerate(table, 1):
        print(f"{k:>6} {count:>5} {predicted:>16.3%} {observed:>15.3%}")


def old_rules(case: Case) -> bool:
    """The routing before risk: any rule-based doubt (LOINC status included) or no rows."""
    rows = case.report.results
    from review import plausibility

    usual = plausibility.ranges_are_usual(rows)
    return not rows or any(uncertain_fields(row, ranges_usual=usual) for row in rows)


def figures(cases: list[Case], decide) -> dict:
    skipped = [c for c in cases if not decide(c)]
    rows = sum(len(c.right) + c.missed for c in skipped)
    bad = sum(c.row_right.count(False) + c.missed for c in skipped)
    with_error = [c for c in cases if c.has_error]
    return {
        "jobs": len(cases),
        "skip": len(skipped) / len(cases) if cases else 0.0,
        "bad|skip": bad / rows if rows else 0.0,
        "caught": sum(decide(c) for c in with_error) / len(with_error) if with_error else 1.0,
        "with error": len(with_error),
        "bad rows skipped": bad,
    }


def risk_decider(threshold: float, max_expected: float, model: tuple[float, ...] | None = None,
                 document_checks: bool = True):
    return lambda case: route_report(case.report, threshold=threshold, max_expected_wrong=max_expected,
                                     model=model, document_checks=document_checks).needs_review


# Routing without the whole-document rules (review.routing.document_reasons): the "rows only" line.
def rows_only():
    return risk_decider(DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG, document_checks=False)


# The full routing but the rule sending every job read from an image to a person (review.document):
# what the other rules and the rows' evidence alone would do with scans and photos.
def without_ocr_rule(case: Case) -> bool:
    return any(reason != REASON_OCR for reason in route_report(case.report).reasons)


def print_ocr_jobs(name: str, cases: list[Case]) -> None:
    """Scans and photos with and without the OCR rule, and how many are right at all: a job with
    an error must stay in review, so that share bounds the skip any routing can reach on them."""
    read = [case for case in cases if _form(case.name) != "digital"]
    if not read:
        return
    print(line(f"{name} OCR'd", figures(read, risk_decider(DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG))))
    print(line(f"{name} OCR'd, no OCR rule", figures(read, without_ocr_rule)))
    right = sum(not case.has_error for case in read)
    print(f"{name} OCR'd without any error: {right} of {len(read)} ({right / len(read):.1%}, "
          f"the most skip any routing can reach on them)")


_ROW_NUMBER = re.compile(r"^row \d+: ")


def reason_kinds(reasons: list[str]) -> set[str]:
    """A job's reasons without their row numbers ("row 3: LOINC unsure" -> "LOINC unsure"); the
    summing-up line of more doubtful rows ("4 more doubtful rows") repeats the rows' reasons."""
    return {_ROW_NUMBER.sub("", reason) for reason in reasons if not reason[:1].isdigit()}


def reason_counts(cases: list[Case]) -> dict[str, dict[str, int]]:
    """Per reason, the jobs in review it is given for: right jobs, jobs with an error, and of each
    those where it is the only reason (the jobs it alone sends to review)."""
    counts: dict[str, dict[str, int]] = {}
    for case in cases:
        kinds = reason_kinds(route_report(case.report).reasons)
        side = "error" if case.has_error else "right"
        for kind in kinds:
            entry = counts.setdefault(kind, {"right": 0, "right alone": 0, "error": 0, "error alone": 0})
            entry[side] += 1
            entry[f"{side} alone"] += len(kinds) == 1
    return counts


def print_reasons(name: str, cases: list[Case]) -> None:
    """Which reasons send right jobs to review (and which catch jobs with an error), most first."""
    counts = reason_counts(cases)
    print(f"\nReasons of the jobs in review, {name} ({len(cases)} jobs; alone: the job's only reason):")
    print(f"{'right':>6} {'alone':>6} {'error':>6} {'alone':>6}  reason")
    for kind, entry in sorted(counts.items(), key=lambda item: (-item[1]["right alone"], -item[1]["right"], item[0])):
        print(f"{entry['right']:>6} {entry['right alone']:>6} {entry['error']:>6} {entry['error alone']:>6}  {kind}")


def choose(cases: list[Case], model: tuple[float, ...] | None = None) -> list[dict]:
    grid = []
    for threshold in THRESHOLDS:
        for max_expected in MAX_EXPECTED:
            result = figures(cases, risk_decider(threshold, max_expected, model))
            grid.append({"threshold": threshold, "max_expected_wrong": max_expected, **result})
    return grid


FAMILY_HEADER = f"{'family':<34}{'jobs':>5} {'skip':>7} {'bad|skip':>9} {'caught':>8} {'w/ err':>7}"


def line(name: str, result: dict) -> str:
    return (f"{name:<34}{result['jobs']:>5} {result['skip']:>7.1%} {result['bad|skip']:>9.2%} "
            f"{result['caught']:>8.1%} {result['with error']:>7}")


def sealed_figures(number: int, cases: list[Case]) -> None:
    """A sealed slice's calibration and routing, aggregates only (no document is ever named)."""
    print(f"Calibration on the sealed slice, {len(cases)} documents (ten equal groups of rows):")
    print_calibration(calibration(cases))
    after, before = risk_decider(DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG), rows_only()
    print(f"\n{FAMILY_HEADER}   (rows only: without the whole-document rules)")
    for form in ("digital", "scan", "photo", None):
        part = [c for c in cases if form is None or f"_{form}." in c.name]
        for language in ("en", "European"):
            chosen = [c for c in part if (c.name.startswith("sealed_en_")) == (language == "en")]
            if chosen:
                print(line(f"SEALED-{number} {language} {form or 'all forms'}", figures(chosen, after)))
    print(line(f"SEALED-{number} everything, rows only", figures(cases, before)))
    print(line(f"SEALED-{number} everything", figures(cases, after)))


def reallike_figures(folder: str, cases: list[Case]) -> None:
    """The real-like family's routing per batch and form, and its calibration (aggregates only)."""
    print(f"Calibration on the real-like {folder} reports, {len(cases)} documents (ten equal groups of rows):")
    print_calibration(calibration(cases))
    after, before = risk_decider(DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG), rows_only()
    print(f"\n{FAMILY_HEADER}   (rows only: without the whole-document rules)")
    for batch in sorted({case.name.split("/", 1)[0] for case in cases}):  # named <batch>/<file>
        for form in ("digital", "scan", "photo"):
            chosen = [c for c in cases if c.name.startswith(f"{batch}/") and _form(c.name) == form]
            if chosen:
                print(line(f"reallike-{batch} {folder} {form}", figures(chosen, after)))
        in_batch = [c for c in cases if c.name.startswith(f"{batch}/")]
        print(line(f"reallike-{batch} {folder} all, rows only", figures(in_batch, before)))
        print(line(f"reallike-{batch} {folder} all forms", figures(in_batch, after)))
    print(line(f"reallike {folder} all batches, rows only", figures(cases, before)))
    print(line(f"reallike {folder} all batches", figures(cases, after)))
    print_ocr_jobs(f"reallike {folder}", cases)


def _form(name: str) -> str:
    return "scan" if "_scan." in name else "photo" if "_photo." in name else "digital"


def html_parts(cases: list[Case]) -> dict[str, list[Case]]:
    """The html check reports by language group and form, then all of them (the sealed split)."""
    parts = {}
    for language in ("en", "European"):
        for form in ("digital", "scan", "photo"):
            parts[f"html drawn {language} {form}"] = [
                c for c in cases if (c.name.split("_")[1] == "en") == (language == "en") and f"_{form}." in c.name]
    parts["html drawn (check), all"] = cases
    return parts


def half(number: int, html_sizes: dict[str, tuple[int, int]], cache: Path | None, digital: bool = False) -> list[Case]:
    """Half `number` of the fit/check material: a real-like batch's dev reports and an html split."""
    split = "fit" if number == 1 else "check"
    cases = list(reallike("dev", cache, batches=(str(number),)))
    cases += list(html_drawn(split, *html_sizes[split], cache, digital_only=digital))
    return [c for c in cases if not digital or _form(c.name) == "digital"]


def print_check_calibration(check: list[Case], model: tuple[float, ...] | None) -> list[tuple[float, float, int]]:
    """Calibration of the check half, its real-like and html parts apart, then together."""
    for name, part in (("real-like", [c for c in check if c.family == "reallike"]),
                       ("html", [c for c in check if c.family == "html"])):
        if part:
            print(f"\nCalibration on the check half's {name} reports, {len(part)} documents "
                  f"(rows sorted by predicted risk, ten equal groups):")
            print_calibration(calibration(part, model))
    print(f"\nCalibration on the whole check half, {len(check)} documents:")
    table = calibration(check, model)
    print_calibration(table)
    return table


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--fit", action="store_true", help="refit review/data/risk_model.json first")
    options.add_argument("--cache", type=Path, help="directory keeping the pipeline output per document")
    options.add_argument("--fit-batch", type=int, choices=(1, 2), default=1,
                         help="the half fitted on (1: real-like batch 1 + html fit seeds; 2: the reverse)")
    options.add_argument("--first-family", type=int, default=0, metavar="N",
                         help="add N drawn reports per layout of the first generated family to the check material")
    options.add_argument("--html-fit", type=int, nargs=2, default=(40, 8), metavar=("EN", "EU"),
                         help="html-family reports for fitting: English seeds, seeds per European language")
    options.add_argument("--html-check", type=int, nargs=2, default=(40, 6), metavar=("EN", "EU"),
                         help="html-family reports for checking: English seeds, seeds per European language")
    options.add_argument("--drawn-only", action="store_true",
                         help="only the drawn check reports of both families (no stored fixtures: they parse slowly)")
    options.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    options.add_argument("--reasons", action="store_true",
                         help="also count the reasons that send right jobs and jobs with an error to review "
                              "(opened material only: not with --sealed or --reallike sealed)")
    options.add_argument("--digital", action="store_true",
                         help="digital documents only (no scans or photos: OCR is the slow part)")
    options.add_argument("--reallike", choices=("dev", "sealed"),
                         help="only the real-like family's dev or sealed reports (sealed: aggregates only)")
    options.add_argument("--batches", default=",".join(OPEN_BATCHES), metavar="1,2,3",
                         help="real-like batches --reallike reads (default: the opened ones; the rest are sealed)")
    options.add_argument("--sealed", type=int, choices=REVIEWED_SLICES, metavar="N",
                         help=f"only sealed HTML slice N, {REVIEWED_SLICES[0]} or later (fixtures/README.md): "
                              "aggregates only")
    options.add_argument("--ocr-cache", metavar="DIR", default=None,
                         help="keep OCR'd pages in DIR and reuse them while the OCR stage's code is unchanged "
                              "(benchmarks/ocr_cache.py)")
    return options.parse_args(argv)


def _refit(args, html_sizes: dict) -> tuple[float, ...] | None:
    """Fit the model on half `--fit-batch`; half 1's is stored (None: use the stored model)."""
    fit_cases = half(args.fit_batch, html_sizes, args.cache)
    features, labels = rows_and_labels(fit_cases)
    model = risk.fit(features, labels)
    if args.fit_batch == 1:
        write_model(model, fit_cases)
    print(f"fitted on half {args.fit_batch}: {len(fit_cases)} reports, {len(labels)} rows "
          f"({labels.count(False)} wrong){' -> ' + str(risk.MODEL_PATH) if args.fit_batch == 1 else ' (not stored)'}")
    for name, weight in zip(risk.FEATURES, model):
        print(f"  {name:<24}{weight:>8.3f}")
    return None if args.fit_batch == 1 else model


def _print_grid(check, model) -> list[dict]:
    """Skip, bad|skip and caught on the check reports for each threshold pair, and the best one."""
    grid = choose(check, model)
    print(f"\nThresholds on the check reports (team threshold = lowest P(row right); job limit = expected wrong rows):")
    print(f"{'threshold':>9} {'max exp':>7} {'skip':>7} {'bad|skip':>9} {'caught':>8}")
    for entry in grid:
        mark = "  <- default" if (entry["threshold"], entry["max_expected_wrong"]) == (
            DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG) else ""
        print(f"{entry['threshold']:>9.2f} {entry['max_expected_wrong']:>7.2f} {entry['skip']:>7.1%} "
              f"{entry['bad|skip']:>9.2%} {entry['caught']:>8.1%}{mark}")
    meeting = [e for e in grid if e["bad|skip"] <= TARGET_BAD and e["caught"] >= TARGET_CAUGHT]
    if meeting:
        best = max(meeting, key=lambda e: (e["skip"], e["threshold"], -e["max_expected_wrong"]))
        print(f"most jobs skipping review with bad|skip <= {TARGET_BAD:.1%} and caught >= {TARGET_CAUGHT:.0%}: "
              f"threshold {best['threshold']:.2f}, max expected wrong {best['max_expected_wrong']:.2f}")
    return grid


def _print_families(sets: dict, model) -> dict:
    """Before (old rules) and after (risk routing) figures per family."""
    print(f"\n{FAMILY_HEADER}")
    out = {}
    after = risk_decider(DEFAULT_THRESHOLD, MAX_EXPECTED_WRONG, model)
    for name, cases in sets.items():
        if not cases:
            print(f"{name:<34}    0  (no material)")
            continue
        before_figures, after_figures = figures(cases, old_rules), figures(cases, after)
        print(line(f"{name}, before", before_figures))
        print(line(f"{name}, after", after_figures))
        out[name] = {"before": before_figures, "after": after_figures}
    return out


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    if args.ocr_cache:
        ocr_cache.install(args.ocr_cache)
    started = time.perf_counter()
    if args.reallike:
        batches = tuple(b.strip() for b in args.batches.split(",") if b.strip())
        cases = list(reallike(args.reallike, args.cache, batches, args.digital))
        reallike_figures(args.reallike, cases)
        if args.reasons and args.reallike == "dev":  # sealed reports are never looked into
            print_reasons(f"real-like dev batches {', '.join(batches)}", cases)
        return 0
    if args.sealed:
        sealed_figures(args.sealed, list(sealed_html(args.sealed, args.cache)))
        return 0
    html_sizes = {"fit": tuple(args.html_fit), "check": tuple(args.html_check)}
    model = _refit(args, html_sizes) if args.fit else None
    forms = ("digital",) if args.digital else ("digital", "scan", "photo")
    first = list(drawn("check", args.first_family, args.cache, forms)) if args.first_family else []
    check = half(3 - args.fit_batch, html_sizes, args.cache, args.digital) + first
    table = print_check_calibration(check, model)
    grid = _print_grid(check, model)

    stored = {} if args.drawn_only else families(args.cache, args.digital)
    html = [c for c in check if c.family == "html"]
    reallike_check = [c for c in check if c.family == "reallike"]
    sets = {f"reallike-{3 - args.fit_batch} dev (check)": reallike_check, **html_parts(html), **stored}
    if first:
        sets["synthetic drawn (check)"] = first
    out = {"calibration": table, "grid": grid, "families": _print_families(sets, model)}
    print_ocr_jobs("html check", html)
    if args.reasons:
        for name, cases in sets.items():
            if cases and (name.endswith((", all", "(check)")) or name in stored):
                print_reasons(name, cases)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
