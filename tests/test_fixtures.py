"""The parser against every fixture, field by field (via benchmarks/scoring.py).

Per file the bar is a little below issue 2's; per modality the totals must meet it. Scanned and
photo fixtures are OCR'd once per session (a shared cache), so the per-file and the total tests
cost one parse each. The first tests check the fixtures themselves.
"""

from __future__ import annotations

import json
import re

import pypdfium2 as pdfium
import pytest
from PIL import Image

from benchmarks.accuracy import TARGETS, parse_fixture, score_fixture
from benchmarks.scoring import Score
from fixtures.catalog import ROOT, discover
from fixtures.generator.build import seed_of
from fixtures.generator.layouts import LAYOUTS
from fixtures.generator.truth import conclusive_bounds, interpretation_of
from parser.models import ReportData

FIXTURES = discover()
# The HTML family (issue 9) is checked for consistency here with every other fixture; the parser's
# accuracy on it is measured by `benchmarks.accuracy --family html` until the new layout engine lands.
# Likewise the non-English real reports (fixtures/real_i18n, issue 13) until the layout engine
# reads them: `benchmarks.accuracy` reports their figures.
PARSED = [f for f in FIXTURES if f.family != "html" and f.path.parent.name != "real_i18n"]
BY_MODALITY = {m: [f for f in PARSED if f.modality == m] for m in TARGETS}
# One file may fall a little short of the totals' targets.
PER_FILE = {
    "digital": {"recall": 0.90, "precision": 0.90, "value": 0.97, "unit": 0.93, "range": 0.90,
                "interpretation": 0.90},
    "real": {"recall": 0.85, "precision": 0.85, "value": 0.95},
    "scanned": {"recall": 0.80, "value": 0.90},
    "photo": {"recall": 0.65, "value": 0.85},
}


def _ids(fixtures):
    return [f.id for f in fixtures]


# ---- the fixtures themselves -------------------------------------------------------------

def test_fixture_set_is_big_and_varied_enough():
    synthetic = [f for f in FIXTURES if f.id.startswith("synthetic/")]
    assert len(synthetic) >= 40
    assert len({f.layout for f in synthetic}) >= 8
    assert {f.modality for f in synthetic} == {"digital", "scanned", "photo"}
    assert all(BY_MODALITY[m] for m in TARGETS)
    size = sum(f.path.stat().st_size for f in FIXTURES)
    assert size < 30e6, f"fixtures take {size / 1e6:.1f} MB"


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids(FIXTURES))
def test_expected_output_is_valid_and_consistent(fixture):
    expected = fixture.expected
    if "failure_reason" in expected:
        assert expected["failure_reason"] in {"invalid_input", "low_quality", "not_english", "too_many_pages"}
        return
    ReportData.model_validate(expected)  # the wire model accepts it
    assert expected["results"], "a report fixture without results"
    for r in expected["results"]:
        assert r["page"] >= 1
        flag = r["source_flag"]
        if flag and flag != "Normal":  # a printed flag decides (Drlogy prints "Normal")
            want = "critical" if flag in {"HH", "LL", "Critical"} else "abnormal"
            assert r["interpretation"] == want, r
        if r["type"] == "numeric":
            lo, hi = r["min_reference_range"], r["max_reference_range"]
            # "1,015" is 1.015 with a decimal comma and 1015 with a thousands separator: one must fit.
            readings = {float(r["value"].replace(",", "")), float(r["value"].replace(",", "."))}
            if re.fullmatch(r"\d{1,3}(?:[.\s\u202f]\d{3})+", r["value"]):  # 4.700 / 4 700 grouped (issue 13)
                readings.add(float(re.sub(r"[.\s\u202f]", "", r["value"])))
            assert any(r["is_above_max_range"] == (None if hi is None else value > hi)
                       and r["is_below_min_range"] == (None if lo is None else value < lo)
                       for value in readings), r
            if not flag:
                outside = r["is_above_max_range"] or r["is_below_min_range"]
                bounded = lo is not None or hi is not None  # no range printed: nothing to judge by
                assert r["interpretation"] == ("abnormal" if outside else "normal" if bounded else "unknown"), r


@pytest.mark.parametrize("value, comparator, lo, hi, above, below", [
    (2000, ">", None, 1100, True, None),  # the contract's examples
    (500, ">", None, 1100, None, None),
    (0.5, "<", None, 5.0, False, None),
    (90, ">", 60, None, None, False),
    (0.01, "<", 0.02, 0.04, False, True),
    (7.2, "", 3.5, 5.1, True, False),
])
def test_generator_truth_follows_the_contract_on_comparators(value, comparator, lo, hi, above, below):
    assert conclusive_bounds(value, comparator, lo, hi) == (above, below)


def test_generator_truth_interpretation_rules():
    assert interpretation_of("HH", True, False, 3.5, 5.1) == "critical"
    assert interpretation_of("L", False, True, 3.5, 5.1) == "abnormal"
    assert interpretation_of(None, True, False, 3.5, 5.1) == "abnormal"  # no flag: the numbers decide
    assert interpretation_of(None, False, False, 3.5, 5.1) == "normal"
    assert interpretation_of(None, None, None, None, 1100) == "unknown"  # ">500" vs max 1100


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_generator_reproduces_the_stored_digital_fixtures(layout):
    for path in sorted((ROOT / "synthetic" / layout).glob(f"{layout}_[0-9].pdf")):
        variant = int(re.search(r"_(\d+)$", path.stem).group(1))
        report = LAYOUTS[layout].build(seed_of(layout, variant), variant)
        assert LAYOUTS[layout].render(report) == path.read_bytes(), f"{path.name} differs: regenerate"
        assert report.expected() == json.loads(path.with_name(path.name + ".expected.json").read_text())
        pages = len(pdfium.PdfDocument(path.read_bytes()))
        assert max(r.page for r in report.rows) == pages


def _chars_per_page(path) -> list[int]:
    doc = pdfium.PdfDocument(path.read_bytes())
    try:
        return [page.get_textpage().count_chars() for page in doc]
    finally:
        doc.close()


SCANS = [f for f in FIXTURES if f.modality == "scanned" and f.path.stem.endswith("_scan")]


@pytest.mark.parametrize("fixture", SCANS, ids=_ids(SCANS))
def test_scanned_fixtures_have_no_text_layer(fixture):
    assert all(count == 0 for count in _chars_per_page(fixture.path))


def test_mixed_fixture_has_a_text_page_and_a_scanned_page():
    text_page, scanned_page = _chars_per_page(ROOT / "synthetic/multipage/multipage_1_mixed.pdf")
    assert text_page > 500 and scanned_page == 0


def test_awkward_photos_are_what_the_readme_says():
    exif_photo = Image.open(ROOT / "synthetic/eu_si/eu_si_1_photo.jpg")
    assert exif_photo.getexif().get(0x0112) == 6 and exif_photo.width > exif_photo.height
    assert Image.open(ROOT / "synthetic/hospital_grid/hospital_grid_1_photo.png").format == "PNG"


# ---- the parser against them --------------------------------------------------------------

@pytest.fixture(scope="session")
def scores() -> dict[str, Score]:
    """fixture id -> Score, each file parsed at most once per session."""
    return {}


def _score(fixture, cache: dict[str, Score]) -> Score:
    if fixture.id not in cache:
        report, failure = parse_fixture(fixture)
        cache[fixture.id] = score_fixture(fixture, report, failure)
    return cache[fixture.id]


def _shortfalls(score: Score, targets: dict[str, float]) -> list[str]:
    figures = score.summary()
    return [f"{name} {figures[name]:.3f} < {bar}" for name, bar in targets.items() if figures[name] < bar]


def _report(score: Score, shortfalls: list[str], limit: int = 40) -> str:
    lines = [f"below target: {', '.join(shortfalls)}"] + score.differences[:limit]
    if len(score.differences) > limit:
        lines.append(f"... and {len(score.differences) - limit} more differences")
    return "\n".join(lines)


def _per_file(fixture, scores):
    score = _score(fixture, scores)
    if score.failures_expected:
        assert score.failures_right, "\n".join(score.differences)
        return
    shortfalls = _shortfalls(score, PER_FILE[fixture.modality])
    assert not shortfalls, _report(score, shortfalls)


def _totals(modality, scores):
    total = Score()
    for fixture in BY_MODALITY[modality]:
        total.add(_score(fixture, scores))
    shortfalls = _shortfalls(total, TARGETS[modality])
    if total.failures_expected and total.failures_right < total.failures_expected:
        shortfalls.append(f"refusals {total.failures_right}/{total.failures_expected}")
    assert not shortfalls, _report(total, shortfalls)


@pytest.mark.parametrize("fixture", BY_MODALITY["digital"] + BY_MODALITY["real"],
                         ids=_ids(BY_MODALITY["digital"] + BY_MODALITY["real"]))
def test_digital_and_real_file(fixture, scores):
    _per_file(fixture, scores)


@pytest.mark.slow
@pytest.mark.parametrize("fixture", BY_MODALITY["scanned"] + BY_MODALITY["photo"],
                         ids=_ids(BY_MODALITY["scanned"] + BY_MODALITY["photo"]))
def test_scanned_and_photo_file(fixture, scores):
    _per_file(fixture, scores)


@pytest.mark.parametrize("modality", ["digital", "real"])
def test_modality_totals_meet_issue_targets(modality, scores):
    _totals(modality, scores)


def test_unstored_randomized_reports_meet_digital_targets():
    """Reports of the randomized layout that are not stored as fixtures (a guard against tuning to
    the stored files; `benchmarks.accuracy --fresh` uses yet other seeds)."""
    from benchmarks.accuracy import fresh_scores
    from fixtures.generator.build import FRESH_SEED_BASE

    total = Score()
    for _, _, score in fresh_scores(12, scanned=False, first_seed=FRESH_SEED_BASE // 2):
        total.add(score)
    shortfalls = _shortfalls(total, TARGETS["digital"])
    assert not shortfalls, _report(total, shortfalls)


@pytest.mark.slow
@pytest.mark.parametrize("modality", ["scanned", "photo"])
def test_ocr_modality_totals_meet_issue_targets(modality, scores):
    _totals(modality, scores)
