"""Column headings, flags and metadata labels of French, German, Italian and Spanish reports."""

import pytest
from page_builder import document, page

from parser.columns import find_headers
from parser.flags import parse_flag
from parser.metadata import extract_metadata


def _heading(*cells):
    """(text, x0, x1) words of one heading line, cells 90 points apart, words 6 points apart."""
    words = []
    for i, cell in enumerate(cells):
        x = 40 + 110 * i
        for token in cell.split():
            words.append((token, x, x + 5 * len(token)))
            x += 5 * len(token) + 3
    return words


@pytest.mark.parametrize("cells, kinds", [
    (["Analyse", "Résultat", "Unités", "Valeurs de référence", "Antériorités"],
     ["name", "result", "units", "range", "previous"]),
    (["Untersuchung", "Ergebnis", "Einheit", "Referenzbereich", "Vorwert"],
     ["name", "result", "units", "range", "previous"]),
    (["Esame", "Risultato", "Unità di misura", "Valori di riferimento"],
     ["name", "result", "units", "range"]),
    (["Prueba", "Resultado", "Unidades", "Valores de referencia"],
     ["name", "result", "units", "range"]),
])
def test_headings_in_each_language(cells, kinds):
    [header] = find_headers(_heading(*cells), 100, 110, 1, 700)
    assert [column.kind for column in header.columns] == kinds


@pytest.mark.parametrize("printed, interpretation, direction", [
    ("élevé", "abnormal", "high"), ("Bas", "abnormal", "low"), ("erhöht", "abnormal", "high"),
    ("erniedrigt", "abnormal", "low"), ("Alto", "abnormal", "high"), ("Basso", "abnormal", "low"),
    ("bajo", "abnormal", "low"), ("↑", "abnormal", "high"), ("↓", "abnormal", "low"),
])
def test_flag_words(printed, interpretation, direction):
    flag = parse_flag(printed)
    assert (flag.interpretation, flag.direction) == (interpretation, direction)


@pytest.mark.parametrize("lines, field, value", [
    (["Nom : DUPONT", "Prénom : Marie", "Né(e) le : 14/03/1961"], "dob", "1961-03-14"),
    (["Nom : DUPONT", "Prénom : Marie"], "patient_last_name", "DUPONT"),
    (["Cognome: Rossi", "Nome: Mario", "Nato il: 25/12/1970"], "dob", "1970-12-25"),
    (["Cognome: Rossi", "Nome: Mario"], "patient_first_name", "Mario"),
    (["Geburtsdatum: 13.05.1980", "Geschlecht: weiblich"], "dob", "1980-05-13"),
    (["Fecha de nacimiento: 30/01/1975", "Sexo: M"], "dob", "1975-01-30"),
    (["Fecha de extracción: 24/06/2025"], "date_collected", "2025-06-24"),
    (["Prélevé le : 15/02/2024"], "date_collected", "2024-02-15"),
    (["Data prelievo: 15/02/2024"], "date_collected", "2024-02-15"),
    (["Entnahme: 15.02.2024"], "date_collected", "2024-02-15"),
])
def test_metadata_labels(lines, field, value):
    doc = document(page([[(40, 40 + 15 * i, line)] for i, line in enumerate(lines)]))
    assert getattr(extract_metadata(doc), field) == value


@pytest.mark.parametrize("lines, language, field, value", [
    (["Prélevé le : 04/06/2024"], "fr", "date_collected", "2024-06-04"),  # day first in French
    (["Collected: 04/06/2024"], "en", "date_collected", None),  # English, nothing settles it: null
    (["Entnahme: 3. März 2024"], "de", "date_collected", "2024-03-03"),
    (["Fecha de extracción: 12 de marzo de 2024"], "es", "date_collected", "2024-03-12"),
])
def test_dates_read_with_the_report_language(lines, language, field, value):
    doc = document(page([[(40, 40 + 15 * i, line)] for i, line in enumerate(lines)]))
    assert getattr(extract_metadata(doc, language), field) == value


@pytest.mark.parametrize("texts, kind", [
    (("Glucosa", "BIOQUÍMICA EN SANGRE"), "serum_plasma_blood"),
    (("Sodio", "ORINA"), "urine"),
    (("Leukozyten", "Urinstatus"), "urine"),
    (("Leucocytes", "Hématologie"), "serum_plasma_blood"),
    (("Velocidad de sedimentación", "HEMATOLOGÍA"), "serum_plasma_blood"),  # not urine sediment
])
def test_sample_type_from_non_english_panels(texts, kind):
    from parser.panels import sample_type

    assert sample_type(*texts) == kind


@pytest.mark.parametrize("phrase, parts", [
    ("Apellidos: GARCÍA LÓPEZ Doctor: DR PÉREZ", ["Apellidos: GARCÍA LÓPEZ", "Doctor: DR PÉREZ"]),
    ("Fecha nacimiento: 01/01/1980 Sexo: M Origen: A. Primaria",
     ["Fecha nacimiento: 01/01/1980", "Sexo: M", "Origen: A. Primaria"]),
    ("Patient Name: John Smith Age: 45", ["Patient Name: John Smith", "Age: 45"]),
    ("Time: 10:20", ["Time: 10:20"]),  # a colon inside a value is not a label
])
def test_phrases_holding_several_labels_are_cut_before_each(phrase, parts):
    from parser.metadata_split import split_at_labels

    assert split_at_labels(phrase) == parts
