"""Metadata read through OCR's slips (session 5, helper B)."""

from parser.lines import body_words
from parser.metadata import extract_metadata
from parser.page import Document, Page, Word


def _words(y: float, height: float, *cells: tuple[str, float]) -> list[Word]:
    out = []
    for text, x in cells:
        for token in text.split():
            out.append(Word(token, x, y, x + 6 * len(token), y + height, 0.95, 0.0))
            x += 6 * len(token) + 4
    return out


def _page(words: list[Word]) -> Page:
    return Page(1, 600, 800, words, "ocr")


def test_a_name_made_tall_by_a_barcode_beside_it_is_body_text_not_a_watermark():
    # Tesseract gives a line's words the height of all of it: the barcode's.
    words = _words(100, 45, ("Yashvi M. Patel", 32), ("WMNQNU", 470))
    words[-1] = Word("WMNQNU", 470, 100, 570, 145, 0.0, 0.0)  # the barcode: wide letters too
    for y in range(150, 400, 14):
        words += _words(y, 10, ("Total RBC count", 32), ("5.00", 194), ("mill/cumm", 476))
    kept = {w.text for w in body_words(_page(words))}
    assert {"Yashvi", "Patel"} <= kept and "WMNQNU" not in kept


def test_unlabelled_name_above_age_even_when_its_box_reaches_into_the_age_line():
    words = _words(127, 28, ("Yashvi M. Patel", 30)) + _words(150, 11, ("Age :", 30), ("21 Years", 70))
    words += _words(166, 11, ("Sex :", 30), ("Female", 70))
    meta = extract_metadata(Document("pdf", [_page(words)]))
    assert (meta.patient_first_name, meta.patient_last_name) == ("Yashvi", "Patel")


def test_a_labels_colon_read_as_a_digit_is_not_the_value():
    words = _words(100, 11, ("Name", 30), ("3", 120), ("DUMMY", 140), ("Collected : 4/6/2021", 300))
    words += _words(120, 11, ("Lab No.", 30), ("3 DUMMYS056", 120), ("Age: 25 Years", 300))
    meta = extract_metadata(Document("pdf", [_page(words)]))
    assert meta.patient_first_name == "DUMMY"
    assert meta.specimen_number == "DUMMYS056"
