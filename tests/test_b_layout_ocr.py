"""OCR pages: a value read onto the method line under its name (session 5, helper B)."""

from parser.layout import document_rows
from parser.page import Document, Page, Word


def _cell(text: str, x: float, top: float, bottom: float, conf: float = 0.93) -> list[Word]:
    words = []
    for token in text.split():
        words.append(Word(token, x, top, x + 9 * len(token), bottom, conf, 0.0))
        x += 9 * len(token) + 8
    return words


def test_a_value_on_the_method_line_under_its_name_belongs_to_that_name():
    # A tilted photo: the value sits between the name and the method line under it, and
    # OCR puts it on the method's line ("Modified Jaffe, Kinetic  92 umol/L (62-115)").
    words = _cell("Test", 100, 600, 625) + _cell("Result", 800, 600, 625) + \
        _cell("Reference", 950, 600, 625)
    y = 660
    for name, method, value, rng in (("Urea", "Urease UV", "4,1 mmol/L", "(2,5-7,8)"),
                                     ("Creatinina", "Modified Jaffe, Kinetic", "92 umol/L", "(62-115)"),
                                     ("Sodio", "Indirect ISE", "140 mmol/L", "(136-145)"),
                                     ("Potasio", "Indirect ISE", "4,6 mmol/L", "(3,5-5,1)")):
        words += _cell(name, 100, y, y + 25)
        words += _cell(method, 101, y + 35, y + 52) + _cell(value, 806, y + 21, y + 46) + \
            _cell(rng, 950, y + 25, y + 50)
        y += 80
    rows = document_rows(Document("pdf", [Page(1, 1200, 1600, words, "ocr")]))
    got = [(r.name, r.value.split()[0], r.method) for r in rows]
    assert ("Creatinina", "92", "Modified Jaffe, Kinetic") in got
    assert [name for name, _, _ in got] == ["Urea", "Creatinina", "Sodio", "Potasio"]
