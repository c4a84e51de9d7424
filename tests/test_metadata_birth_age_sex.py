"""Metadata classes of the birth date's value and of how its day and month are told: the sex
after a bracketed age, a birth date in brackets inside another field's value, dotted numeric
dates, abbreviated date labels."""

import pytest
from page_builder import metadata_of as meta_of


@pytest.mark.parametrize("language, label, value", [
    ("es", "F. nacimiento", "02/03/1957 (68 años) · Mujer"),
    ("de", "Geburtsdatum:", "14.09.1958 (66 J.) · weiblich"),
    ("fr", "Née le", "12/04/1958 (66 ans) - F"),
    ("it", "Data di nascita", "12/04/1958 (66 anni) femmina"),
    (None, "Date of birth:", "22/04/1966 (58 Y) Female"),
])
def test_the_sex_after_the_age_in_brackets_after_the_birth_date(language, label, value):
    meta = meta_of([[(40, 120, label), (150, 120, value)]], language)
    assert meta.dob is not None and meta.gender == "female"


@pytest.mark.parametrize("label, field", [
    ("F. validación", "date_reported"), ("F. emisión:", "date_reported"), ("F. entrega", "date_reported"),
    ("F. toma:", "date_collected"), ("Fecha entrega:", "date_reported"),
])
def test_a_spanish_date_label_with_fecha_cut_to_its_initial(label, field):
    meta = meta_of([[(40, 100, "Paciente:"), (150, 100, "GARCÍA LÓPEZ, Ana")],
                    [(40, 112, label), (150, 112, "14/03/2025 14:05")]], "es")
    assert getattr(meta, field) == "2025-03-14"
