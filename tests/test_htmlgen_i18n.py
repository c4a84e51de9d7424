"""European HTML reports (fixtures/htmlgen/i18n.py, issue 13): the language option leaves English
reports as they were, prints each language's words and number forms, and the stored set
(fixtures/html_i18n) is what the generator makes."""

import re

import pypdfium2 as pdfium
import pytest

from fixtures.catalog import discover
from fixtures.htmlgen import i18n
from fixtures.htmlgen.build import I18N_SEEDS, TEST_SEED_BASE, compose

SEEDS = range(TEST_SEED_BASE + 700, TEST_SEED_BASE + 712)


def test_english_reports_are_unchanged_by_the_language_option():
    for seed in SEEDS[:4]:
        assert compose(seed).html == compose(seed, "en").html
        assert "lang=en" in compose(seed).html


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_language_prints_its_words_and_decimal_commas(language):
    for seed in SEEDS:
        composed = compose(seed, language)
        html, look = composed.html, composed.look
        assert f"lang={language}" in html and look.headings["result"] in html
        for row in composed.report.rows:
            assert row.test_name.casefold() in {n.casefold() for n in i18n.NAMES[row.analyte][i18n.LANGUAGES.index(language)]}
            assert not re.fullmatch(r"\d+\.\d{1,2}", row.value), row.value  # never a decimal point
        meta = composed.expected["metadata"]
        assert meta["date_collected"] == composed.report.collected.date().isoformat()


def test_french_counts_per_mm3_are_grouped_and_scaled_with_their_range():
    grouped = [row for seed in range(TEST_SEED_BASE + 800, TEST_SEED_BASE + 840)
               for row in compose(seed, "fr").report.rows if row.units == "/mm³"]
    assert grouped, "no French report drew counts per mm³"
    for row in grouped:
        number = float(re.sub(r"[.\s\u202f]", "", row.value))
        assert row.lo is None or row.lo >= 1000
        assert row.above == (row.hi is not None and number > row.hi) or row.above is None


def test_anteriority_column_holds_previous_results_never_the_value():
    found = False
    for seed in range(TEST_SEED_BASE + 800, TEST_SEED_BASE + 840):
        composed = compose(seed, "fr")
        if "previous" not in composed.look.columns:
            continue
        found = True
        assert composed.look.headings["previous"] in composed.html
        assert all(row.previous != row.value for row in composed.report.rows if row.previous)
    assert found, "no French report drew an anteriority column"


STORED = [f for f in discover(families=("html",)) if f.path.parent.name == "html_i18n"]


def test_stored_set_is_what_the_generator_makes():
    digital = [f for f in STORED if f.modality == "digital"]
    assert len(digital) == len(I18N_SEEDS) * len(i18n.LANGUAGES)
    for fixture in STORED:
        language, seed = re.match(r"html_([a-z]{2})_(\d+)", fixture.path.stem).groups()
        assert compose(int(seed), language).expected == fixture.expected, \
            f"{fixture.id}: regenerate (python -m fixtures.htmlgen --i18n)"


@pytest.mark.parametrize("fixture", [f for f in STORED if f.modality == "digital"], ids=lambda f: f.id)
def test_stored_pdf_text_layer_holds_each_row(fixture):
    with pdfium.PdfDocument(str(fixture.path)) as pdf:
        text = " ".join(" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf)))
    for row in fixture.expected["results"]:
        assert " ".join(row["test_name"].split()) in text, row["test_name"]
