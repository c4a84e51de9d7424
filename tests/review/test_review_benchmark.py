"""The routing benchmark's judgement of rows: what counts as wrong, invented and missed."""

from __future__ import annotations

import pytest

from benchmarks.review_corpus import OPEN_BATCHES, judge, older_parses
from parser.models import LoincMatch, ReportData
from tests.review.conftest import glucose_row


def expected_row(name: str, value: str, sample_type: str = "unknown") -> dict:
    return {"test_name": name, "value": value, "units": "mg/dL", "min_reference_range": 70.0,
            "max_reference_range": 99.0, "interpretation": "normal", "page": 1, "sample_type": sample_type}


def test_judge_counts_wrong_invented_and_missed_rows():
    expected = {"results": [expected_row("Glucose", "95"), expected_row("Urea", "30"), expected_row("Calcium", "9")]}
    predicted = ReportData(results=[
        glucose_row(),  # right
        glucose_row(test_name="Urea", value="80", interpretation="normal"),  # wrong value
        glucose_row(test_name="Invented thing", value="1"),  # not on the report
    ])

    right, missed, loinc_right = judge(expected, predicted)

    assert right == [True, False, False]
    assert missed == 1  # Calcium
    assert loinc_right == [None, None, None]  # no labelled codes


def test_judge_labels_the_loinc_code_where_the_truth_has_codes():
    # Names and sample types the generator prints: their acceptable codes are known (loinc_truth).
    expected = {"results": [expected_row("Glucose", "95", "serum_plasma_blood"),
                            expected_row("Urea", "30", "serum_plasma_blood")]}
    code = LoincMatch(loinc_code="2345-7", loinc_name="Glucose", display_name="Glucose", confidence_score=0.9)
    predicted = ReportData(results=[
        glucose_row(loinc_matches=[code]),
        glucose_row(test_name="Urea", value="30", loinc_matches=[code]),  # glucose code on the urea row
    ])

    _right, _missed, loinc_right = judge(expected, predicted)

    assert loinc_right == [True, False]


def test_drawn_reports_are_labelled_and_hang_together_like_real_ones():
    from benchmarks.review_corpus import drawn
    from review import evidence

    cases = list(drawn("check", 1, None, forms=("digital",)))
    assert len(cases) == 9  # one per layout
    rows = sum(len(case.right) for case in cases)
    assert sum(case.right.count(True) for case in cases) / rows > 0.9  # digital reports read well
    assert any(lr is not None for case in cases for lr in case.loinc_right)  # generated rows have codes
    # make_consistent: derived rows agree with their parts, as a lab's analyser prints them.
    confirmed = {name for case in cases for found in evidence.collect(case.report) for name in found.confirmed}
    assert {"MCH = Hb/RBC", "MCV = Hct/RBC", "non-HDL = total - HDL"} <= confirmed


def test_html_fit_and_check_seeds_are_apart_from_each_other_and_the_sealed_slices():
    from benchmarks.review_corpus import HTML_SEEDS
    from fixtures.htmlgen import build

    drawn = {split: set(range(en, en + 1000)) | set(range(eu, eu + 1000)) for split, (en, eu) in HTML_SEEDS.items()}
    assert not drawn["fit"] & drawn["check"]
    assert not (drawn["fit"] | drawn["check"]) & build.SEALED_ALL
    stored = set(build.DEV_SEEDS) | set(build.I18N_SEEDS) | set(range(build.I18N_HELD_OUT_BASE, build.I18N_HELD_OUT_BASE + 1000))
    assert not (drawn["fit"] | drawn["check"]) & stored


def test_older_parses_never_parse_a_sealed_batch(tmp_path):
    sealed = next(str(n) for n in range(1, 10) if str(n) not in OPEN_BATCHES)
    with pytest.raises(ValueError):
        older_parses("HEAD", (sealed,), tmp_path)
    assert not any(tmp_path.iterdir())  # refused before any worktree or parse


def test_reason_counts_say_which_reasons_send_right_jobs_to_review():
    """`--reasons`: per reason, right jobs and jobs with an error it is given for, and those it alone
    sends to review, without row numbers."""
    from benchmarks.review import reason_counts
    from benchmarks.review_corpus import Case

    code = LoincMatch(loinc_code="2345-7", loinc_name="Glucose", display_name="Glucose", confidence_score=0.3)
    unsure = glucose_row(loinc_matches=[code], loinc_match_status="needs_review")
    right = Case("right.pdf", "html", ReportData(ocr_pages=[], results=[glucose_row(), unsure]), [True, True], 0,
                 [None, None])
    empty = Case("empty.pdf", "html", ReportData(ocr_pages=[]), [], 1, [])

    counts = reason_counts([right, empty])

    assert counts["LOINC unsure"] == {"right": 1, "right alone": 1, "error": 0, "error alone": 0}
    assert counts["no results were extracted"] == {"right": 0, "right alone": 0, "error": 1, "error alone": 1}


def test_ocr_jobs_are_shown_with_and_without_the_ocr_rule_and_how_many_are_right(capsys):
    """The scan+photo lines: a right scan whose only reason is the OCR rule skips without it; a
    photo missing a row skips too (nothing else shows the loss); digital documents are not counted."""
    from benchmarks.review import print_ocr_jobs
    from benchmarks.review_corpus import Case

    # Read by OCR (below a person's 1.0) with every check passing: the rows say nothing against the job.
    rows = [glucose_row(page=1, extraction_confidence=0.99),
            glucose_row(value="96", page=1, extraction_confidence=0.99)]
    scan = Case("1/x_1_scan.pdf", "reallike", ReportData(ocr_pages=[1], results=rows), [True, True], 0, [None, None])
    photo = Case("1/x_1_photo.jpg", "reallike", ReportData(ocr_pages=[1], results=rows), [True, True], 1, [None, None])
    digital = Case("1/x_1.pdf", "reallike", ReportData(ocr_pages=[], results=rows), [True, True], 0, [None, None])

    print_ocr_jobs("reallike dev", [scan, photo, digital])

    full, without, right = capsys.readouterr().out.splitlines()
    # jobs, skip, bad|skip (the photo's missing row of its 3), caught, jobs with an error
    assert full.startswith("reallike dev OCR'd ") and full.split()[-5:] == ["2", "0.0%", "0.00%", "100.0%", "1"]
    assert without.startswith("reallike dev OCR'd, no OCR rule")
    assert without.split()[-5:] == ["2", "100.0%", "20.00%", "0.0%", "1"]
    assert right == ("reallike dev OCR'd without any error: 1 of 2 (50.0%, "
                     "the most skip any routing can reach on them)")
