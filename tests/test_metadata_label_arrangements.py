"""Label arrangements by class: a label in two languages whose second language the vocabulary
does not know reads the first; a phrase ending in a number sign is a label, never a name."""

from page_builder import document, page

from parser.metadata import extract_metadata
from parser.metadata_split import split_label, value_fits

BODY = [[(40, 600, "Hemoglobin 13.2 g/dL 12.0 - 15.5")], [(40, 620, "Glucose 92 mg/dL 70 - 99")]]


def meta_of(rows, language=None):
    return extract_metadata(document(page([*rows, *BODY])), language)


def test_a_bilingual_label_reads_the_first_language_when_the_second_is_unknown():
    assert split_label("Freigabe / Convalida") == ("freigabe", "")
    meta = meta_of([[(45, 148, "Entnahme / Prelievo"), (200, 148, "17.03.2025 07:55")],
                    [(45, 160, "Freigabe / Convalida"), (200, 160, "17.03.2025 13:48")]])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-17", "2025-03-17")
    # Digits after the slash are no translation: no label read there.
    assert split_label("Freigabe / Convalida 12")[0] is None


def test_a_number_sign_ends_a_label_never_a_name():
    assert not value_fits("name", "Insurance No.") and not value_fits("name", "Hospital #")
    assert value_fits("name", "SMITH, JOHN N.")  # an initial
    meta = meta_of([
        [(44, 90, "Patient"), (160, 90, "Insurance No."), (260, 90, "Date of Birth")],
        [(44, 98, "CAMILLERI Marija"), (160, 98, "0412361M"), (260, 98, "15.08.1961")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Marija", "CAMILLERI")
