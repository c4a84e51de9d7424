"""Language detection of a report from its words."""

import pytest

from parser.language import SUPPORTED, detect_language, fold, unsupported_message

REPORTS = {
    "en": "Patient Name: John Smith Date of Birth 01/02/1970 Collected 03/04/2024 "
          "Test Result Units Reference Range Flag Complete Blood Count White Blood Cells "
          "Hemoglobin Platelets Glucose fasting Cholesterol total",
    "fr": "Laboratoire de biologie médicale Nom : DUPONT Prénom : Marie Née le 12/03/1961 "
          "Prélevé le 04/05/2024 Analyse Résultat Unités Valeurs de référence Antériorités "
          "Numération formule sanguine Hématies Hémoglobine Leucocytes Polynucléaires neutrophiles "
          "Plaquettes Glycémie à jeun Créatinine",
    "de": "Labor Befund Name: Müller Vorname: Hans Geburtsdatum 12.03.1961 Entnahme 04.05.2024 "
          "Untersuchung Ergebnis Einheit Referenzbereich Vorwert Kleines Blutbild Leukozyten "
          "Erythrozyten Hämoglobin Thrombozyten Kreatinin erhöht Klinische Chemie",
    "it": "Laboratorio analisi Cognome: Rossi Nome: Mario Nato il 12/03/1961 Data prelievo "
          "04/05/2024 Esame Risultato Unità di misura Valori di riferimento Emocromo Globuli "
          "bianchi Globuli rossi Emoglobina Piastrine Glicemia Creatinina Colesterolo",
    "es": "Nombre: PACIENTE PRUEBA Apellidos: APELLIDO Fecha de nacimiento 01/01/1980 Sexo: M "
          "Fecha de extracción 24/06/25 Prueba Resultado Unidades Valores de referencia "
          "HEMATOLOGÍA Leucocitos Hematíes Hemoglobina Plaquetas BIOQUÍMICA Glucosa Creatinina",
}


@pytest.mark.parametrize("language", SUPPORTED)
def test_each_supported_language_is_detected(language):
    guess = detect_language(REPORTS[language].split())
    assert guess.language == language and guess.supported


@pytest.mark.parametrize("language", ["fr", "de", "it", "es"])
def test_detection_survives_ocr_dropping_the_accents(language):
    assert detect_language(fold(REPORTS[language]).split()).language == language


def test_portuguese_is_named_and_not_supported():
    words = ("Laudo de exames Nome do paciente Data de nascimento Data da coleta Exame Resultado "
             "Valores de referência Leucócitos Hemácias Plaquetas Glicose no sangue").split()
    guess = detect_language(words)
    assert guess.language == "pt" and not guess.supported
    assert unsupported_message(guess) == (
        "the report appears to be in Portuguese; supported languages are "
        "English, French, German, Italian, Spanish")


def test_english_report_with_a_few_foreign_words_stays_english():
    words = (REPORTS["en"] + " Hématies de la Leucocitos").split()
    assert detect_language(words).language == "en"


def test_thin_evidence_defaults_to_english():
    assert detect_language("WBC 5.4 RBC 4.5 HGB 13.2 de la".split()).language == "en"
    assert detect_language([]).language == "en"


def test_fold_strips_accents_and_case():
    assert fold("Hématies ÉLEVÉ Größe") == "hematies eleve grosse"


# ---- OCR: a second pass in the page's language, never on English pages ---------------------

def _ocr_words_recording(calls):
    from parser.page import Word

    def ocr_words(image, *, psm=4, dpi=300, language="eng"):
        calls.append(language)
        return [Word(f"{language}-word", 0, 0, 10, 10)]
    return ocr_words


def _words(text):
    from parser.page import Word

    return [Word(token, 10 * i, 0, 10 * i + 8, 10, conf=0.9) for i, token in enumerate(text.split())]


def test_english_page_is_not_read_twice(monkeypatch):
    from parser import ocr, tesseract

    calls = []
    monkeypatch.setattr(tesseract, "ocr_words", _ocr_words_recording(calls))
    words = _words(REPORTS["en"])
    assert ocr.reread_in_language(None, words, 300) is words
    assert calls == []


@pytest.mark.parametrize("language, code", [("fr", "fra"), ("de", "deu"), ("it", "ita"), ("es", "spa")])
def test_page_in_another_supported_language_is_read_again_with_its_data(monkeypatch, language, code):
    from parser import ocr, tesseract

    calls = []
    monkeypatch.setattr(tesseract, "ocr_words", _ocr_words_recording(calls))
    monkeypatch.setattr(tesseract, "installed_languages", lambda: frozenset({"eng", code}))
    reread = ocr.reread_in_language(None, _words(REPORTS[language]), 300)
    assert calls == [code] and [w.text for w in reread] == [f"{code}-word"]


def test_missing_language_data_keeps_the_english_reading(monkeypatch):
    from parser import ocr, tesseract

    calls = []
    monkeypatch.setattr(tesseract, "ocr_words", _ocr_words_recording(calls))
    monkeypatch.setattr(tesseract, "installed_languages", lambda: frozenset({"eng"}))
    words = _words(REPORTS["de"])
    assert ocr.reread_in_language(None, words, 300) is words and calls == []
