"""parse_document's checks before layout: readable text and English."""

import pytest
from page_builder import document, header_line, page, table_line

from parser.api import parse_document
from parser.exceptions import LowQualityError, NotEnglishError
from parser.language import is_english
from parser.page import Page, Word


def test_page_without_words_is_low_quality():
    with pytest.raises(LowQualityError):
        parse_document(document(Page(1, 600, 800, [], "ocr")))


def test_ocr_noise_is_low_quality():
    words = [Word(t, i * 20, 0, i * 20 + 10, 10, conf=0.1) for i, t in enumerate("~ ,, ;i '' ._ |' ~~".split())]
    with pytest.raises(LowQualityError):
        parse_document(document(Page(1, 600, 800, words, "ocr")))


def test_spanish_labels_are_not_english():
    words = ("Informe de resultados del paciente Nombre Fecha de nacimiento Sexo Mujer Muestra Sangre "
             "Prueba Resultado Unidades Valores de referencia Hemograma Leucocitos Plaquetas Glucosa "
             "Observaciones del laboratorio para el médico").split()
    assert not is_english(words)


def test_english_report_with_few_foreign_words_is_english():
    words = "Patient Name Date of Birth Test Result Units Reference Range Glucose de la Hemoglobin".split()
    assert is_english(words)


def test_report_in_an_unsupported_language_raises_naming_it():
    rows = [[(40, 40 + 15 * i, line)] for i, line in enumerate([
        "Laudo de exames do laboratório", "Nome do paciente: Ana", "Data da coleta",
        "Valores de referência para o exame", "Resultado dos exames de sangue e urina",
        "Leucócitos e plaquetas no sangue"])]
    with pytest.raises(NotEnglishError, match="Portuguese.*English, French, German, Italian, Spanish"):
        parse_document(document(page(rows)))


def test_spanish_report_passes_the_language_gate_and_carries_its_language():
    rows = [[(40, 40 + 15 * i, line)] for i, line in enumerate([
        "Informe de resultados del laboratorio", "Nombre del paciente: Ana", "Fecha de la muestra",
        "Valores de referencia para la prueba", "Observaciones: sin hallazgos en el hemograma",
        "Leucocitos y plaquetas en sangre"])]
    assert parse_document(document(page(rows))).language == "es"


def test_parse_document_returns_results_and_metadata():
    report = parse_document(document(page([
        [(40, 40, "Patient Name: Grace Okafor")],
        header_line(),
        table_line(120, "Glucose", "112", "H", "mg/dL", "70 - 99"),
    ])))
    assert report.metadata.patient_last_name == "Okafor"
    [glucose] = report.results
    assert (glucose.value, glucose.interpretation, glucose.is_above_max_range, glucose.page) == (
        "112", "abnormal", True, 1)
    assert glucose.loinc_matches == [] and glucose.loinc_match_status == "no_match"


def test_word_soup_never_crashes_the_parser():
    # Whatever the extraction hands over, the parser answers with results or a LabReportError.
    import random

    from parser.exceptions import LabReportError
    from parser.page import Document

    rng = random.Random(7)
    vocab = ["Test", "Name", "Result", "Units", "Reference", "Range", "Flag", "Glucose", "H", "<5",
             "3.5-5.1", "mg/dL", "Negative", "|", "Page", "1", ":", "Name:", "DOB:", "12/03/2024",
             "In", "Out", "Of", "Previous", "", "Male:", "13-17", "↑", "1O.2", "Age", "BLOOD", "4,2"]
    for _ in range(60):
        pages = []
        for number in range(1, rng.randint(1, 3) + 1):
            words = []
            for _ in range(rng.randint(0, 120)):
                x, y = rng.uniform(0, 600), round(rng.uniform(0, 800) / 14) * 14
                height = rng.choice([0, 0.5, 10, 40])
                words.append(Word(rng.choice(vocab), x, y, x + rng.uniform(0, 60), y + height,
                                  rng.random(), rng.choice([0, 10]), rng.random() < 0.3))
            pages.append(Page(number, 600, 800, words, rng.choice(["text", "ocr"])))
        try:
            report = parse_document(Document("pdf", pages))
        except LabReportError:
            continue
        for result in report.results:
            assert result.value and result.test_name
