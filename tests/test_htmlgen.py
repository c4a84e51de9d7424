"""The HTML fixture family (fixtures/htmlgen): deterministic truth, a reachable grammar, PDFs whose
text layer has every row on the page the expected JSON says.

Printing needs Debian chromium (installed by `scripts/setup.sh --dev`); without it these tests fail
with the printer's message rather than skip.
"""

from __future__ import annotations

import re
from html import escape

import pypdfium2 as pdfium
import pytest

from fixtures.catalog import ROOT, discover
from fixtures.htmlgen import cells, compose
from fixtures.htmlgen.__main__ import main as htmlgen_main
from fixtures.htmlgen.build import DEV_SEEDS, SEALED_SEEDS, SEALED_SLICES, TEST_SEED_BASE
from fixtures.htmlgen.grammar import HEADINGS, LATER_OPTIONS, OPTIONS, draw_look
from fixtures.htmlgen.printing import Printer, PrintError
from parser.models import ReportData

LOOKS = [draw_look(TEST_SEED_BASE + i) for i in range(600)]


def _page_texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in doc]
    finally:
        doc.close()


def _reported_size_over_glyph_height(pdf: bytes, text: str) -> float:
    """Font size the text layer reports for `text`'s first glyph, over the glyph box's height."""
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0].get_textpage()
        index = page.get_text_range().index(text)
        left, bottom, right, top = page.get_charbox(index)
        return pdfium.raw.FPDFText_GetFontSize(page, index) / (top - bottom)
    finally:
        doc.close()


def test_same_seed_same_expected_json_and_html():
    for seed in (TEST_SEED_BASE, TEST_SEED_BASE + 1, TEST_SEED_BASE + 2):
        first, again = compose(seed), compose(seed)
        assert first.expected == again.expected
        assert first.html == again.html
    assert compose(TEST_SEED_BASE).expected != compose(TEST_SEED_BASE + 1).expected


@pytest.mark.parametrize("option", sorted(OPTIONS | LATER_OPTIONS))
def test_every_grammar_option_is_reachable(option):
    values = (OPTIONS | LATER_OPTIONS)[option]
    seen = {look[option] for look in LOOKS}
    assert seen == set(values), f"{option}: never drawn {set(values) - seen}"


@pytest.mark.parametrize("column", sorted(HEADINGS))
def test_every_heading_synonym_is_reachable(column):
    seen = {look.headings[column].casefold() for look in LOOKS if column in look.columns}
    assert len(HEADINGS[column]) >= 10
    assert seen == {word.casefold() for word in HEADINGS[column]}


def test_expected_json_is_valid_and_keeps_the_printed_spellings():
    composed = [compose(TEST_SEED_BASE + i) for i in range(40)]
    for c in composed:
        ReportData.model_validate(c.expected)
        assert all(row["page"] >= 1 for row in c.expected["results"])
    spaced = [c for c in composed if c.look["spaced_units"]]
    units = [r.units.removeprefix("/ ") for c in spaced for r in c.report.rows if r.units]
    assert units and not [u for u in units if re.search(r"\S/|/\S", u)]  # "mg / dl", "/ HPF"
    capitals = [c for c in composed if c.look["name_case"] == "capitals"]
    assert capitals and all(r.test_name == r.test_name.upper() for c in capitals for r in c.report.rows)


def test_layout_choices_reach_the_html():
    composed = [compose(TEST_SEED_BASE + i) for i in range(60)]
    for c in composed:
        tables_on_page_1 = c.html.split("class=page")[1].count("<div class=slot>")
        assert tables_on_page_1 == c.look["table_columns"], c.seed
        assert c.html.count("<div class=page>") == c.pages
        for row in c.report.rows:
            if row.units and c.look["unit_place"] == "with_value":
                assert "units" not in c.look.columns and row.units in cells.result(row, c.look)
                assert escape(cells.result(row, c.look)) in c.html
    everything = " ".join(c.html for c in composed)
    for mark in ("class=cmt", "class=dep", "class=lis", "class=method", "class=fill", "class=alt",
                 "class='meta-grid", "class='meta-two", "class='meta-inline", "class=brief", "<br>"):
        assert mark in everything, f"{mark} never printed"


@pytest.mark.parametrize("seed", [SEALED_SEEDS[0], SEALED_SLICES[2].seeds[-1], SEALED_SLICES[2].i18n_seeds[0],
                                  SEALED_SLICES[3].seeds[5], SEALED_SLICES[3].i18n_seeds[-1],
                                  SEALED_SLICES[4].seeds[7], SEALED_SLICES[4].i18n_seeds[2],
                                  SEALED_SLICES[5].seeds[11], SEALED_SLICES[5].i18n_seeds[4],
                                  SEALED_SLICES[6].seeds[13], SEALED_SLICES[6].i18n_seeds[6],
                                  SEALED_SLICES[7].seeds[17], SEALED_SLICES[7].i18n_seeds[3],
                                  SEALED_SLICES[8].seeds[19], SEALED_SLICES[8].i18n_seeds[1],
                                  SEALED_SLICES[9].seeds[23], SEALED_SLICES[9].i18n_seeds[5],
                                  SEALED_SLICES[10].seeds[29], SEALED_SLICES[10].i18n_seeds[7],
                                  SEALED_SLICES[11].seeds[31], SEALED_SLICES[11].i18n_seeds[0],
                                  SEALED_SLICES[12].seeds[37], SEALED_SLICES[12].i18n_seeds[2],
                                  SEALED_SLICES[13].seeds[39], SEALED_SLICES[13].i18n_seeds[4],
                                  SEALED_SLICES[14].seeds[35], SEALED_SLICES[14].i18n_seeds[6],
                                  SEALED_SLICES[15].seeds[33], SEALED_SLICES[15].i18n_seeds[5],
                                  SEALED_SLICES[16].seeds[31], SEALED_SLICES[16].i18n_seeds[3]])
def test_sealed_seeds_are_refused_by_the_cli(capsys, seed):
    assert htmlgen_main(["--seed", str(seed), "--out", "/nonexistent/x"]) == 2
    assert "sealed" in capsys.readouterr().err


def test_missing_chromium_is_a_clear_error(tmp_path):
    with pytest.raises(PrintError, match="scripts/setup.sh --dev"):
        Printer(tmp_path / "no-chromium")


@pytest.fixture(scope="module")
def printer():
    with Printer() as p:
        yield p


def _a_report(predicate):
    return next(c for c in (compose(TEST_SEED_BASE + i) for i in range(len(LOOKS))) if predicate(c))


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["lis_text", "scaled_lis_text", "two_tables", "multipage", "bold_only_grid"])
def test_printed_pdf_has_every_row_on_its_expected_page(kind, printer):
    predicates = {
        "lis_text": lambda c: c.look["table_style"] == "lis_text" and c.pages > 1,
        "scaled_lis_text": lambda c: c.look["text_scale"] > 1,
        "two_tables": lambda c: c.look["table_columns"] == 2 and c.pages > 1,
        "multipage": lambda c: c.pages >= 3 and c.look["header_repeat"] == "brief",
        "bold_only_grid": lambda c: c.look["flag_place"] == "bold_only" and c.look["table_style"] == "ruled",
    }
    composed = _a_report(predicates[kind])
    pdf = printer.pdf(composed.html)
    texts = _page_texts(pdf)
    if composed.look["text_scale"] > 1:
        assert _reported_size_over_glyph_height(pdf, composed.report.rows[0].value) > 10
    assert len(texts) == composed.pages
    assert all(len(text) > 200 for text in texts), "a page without a text layer"
    for row in composed.report.rows:
        assert " ".join(row.test_name.split()) in texts[row.page - 1], (row.test_name, row.page)
        assert row.value in texts[row.page - 1]


# The English dev set (fixtures/html); the European one (fixtures/html_i18n) is checked in
# tests/test_htmlgen_i18n.py.
STORED = [f for f in discover(families=("html",)) if f.modality == "digital" and f.path.parent.name == "html"]


def test_stored_dev_set_is_what_the_generator_makes():
    assert [int(re.search(r"\d+", f.path.stem).group()) for f in STORED] == list(DEV_SEEDS)
    for fixture in STORED:
        seed = int(re.search(r"\d+", fixture.path.stem).group())
        assert compose(seed).expected == fixture.expected, f"{fixture.id}: regenerate (python -m fixtures.htmlgen)"


@pytest.mark.parametrize("fixture", STORED, ids=[f.id for f in STORED])
def test_stored_pdf_text_layer_holds_each_row_on_its_page(fixture):
    texts = _page_texts(fixture.path.read_bytes())
    for row in fixture.expected["results"]:
        assert " ".join(row["test_name"].split()) in texts[row["page"] - 1], row["test_name"]


def test_stored_set_has_scans_and_photos_of_the_family():
    found = {(f.family, f.modality) for f in discover(ROOT, families=("html",))}
    assert found == {("html", "digital"), ("html", "scanned"), ("html", "photo")}
    photo = next(f for f in discover(families=("html",)) if f.modality == "photo")
    assert {r["page"] for r in photo.expected["results"]} == {1}
