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


def test_a_count_beside_its_share_is_read_when_the_older_results_label_is_lost():
    # A photo of a French differential: "%  7,72 G/l  1,50 - 7,00" then two columns of older
    # results whose heading ("Antériorités") OCR misread; those columns are unlabelled, so the
    # line held two unnamed cells, the count and an older result, and the count was dropped.
    words = _cell("Analyse", 100, 450, 475) + _cell("Résultat", 620, 450, 475) + \
        _cell("Valeurs de référence", 860, 450, 475) + _cell("note", 1260, 450, 475)
    y = 520
    for name, share, count, rng, older in (("Neutrophiles", "71,2%", "7,72 G/l", "1,50 - 7,00", "4,91"),
                                           ("Eosinophiles", "2,4%", "0,26 G/l", "< 0,50", "0,19"),
                                           ("Lymphocytes", "19,6%", "2,12 G/l", "1,00 - 4,00", "2,19"),
                                           ("Monocytes", "6,3%", "0,68 G/l", "0,20 - 1,00", "0,59")):
        words += _cell(name, 100, y, y + 25) + _cell(share, 626, y, y + 25) + _cell(count, 712, y, y + 25) + \
            _cell(rng, 868, y, y + 25) + _cell(older, 1265, y, y + 25)
        y += 32
    rows = document_rows(Document("pdf", [Page(1, 1500, 2000, words, "ocr")]))
    got = [(r.name, r.value, r.units) for r in rows]
    assert ("Lymphocytes", "19,6", "%") in got and ("Lymphocytes", "2,12", "G/l") in got
    assert not any(r.value.startswith(("4,91", "0,19", "2,19", "0,59")) for r in rows)


def test_a_wrapped_bilingual_range_heading_keeps_the_range_column():
    # A scan of a South Tyrol report: "Referenzbereich / Intervallo di" wraps, "riferimento"
    # on the line under it at the cell's left edge. Read as one header over two lines, that
    # word stacked under "Referenzbereich" made it an unknown heading and the ranges were lost.
    words = _cell("Untersuchung / Esame", 100, 600, 625) + _cell("Ergebnis /", 560, 600, 625) + \
        _cell("Einheit / Unità", 700, 600, 625) + _cell("Referenzbereich / Intervallo di", 860, 600, 625)
    words += _cell("Risultato", 560, 628, 653) + _cell("riferimento", 860, 628, 653)
    y = 690
    for name, value, unit, rng in (("Leukozyten / Leucociti", "5,8", "10^3/µL", "4,0 - 10,0"),
                                   ("Erythrozyten / Eritrociti", "4,02", "10^6/µL", "3,9 - 5,2"),
                                   ("Thrombozyten / Piastrine", "281", "10^3/µL", "150 - 400"),
                                   ("Kalium / Potassio", "4,7", "mmol/L", "3,5 - 5,1")):
        words += _cell(name, 100, y, y + 25) + _cell(value, 600, y, y + 25) + _cell(unit, 700, y, y + 25) + \
            _cell(rng, 860, y, y + 25)
        y += 32
    rows = document_rows(Document("pdf", [Page(1, 1300, 1800, words, "ocr")]))
    got = [(r.name, r.value, r.range_text) for r in rows]
    assert got == [("Leukozyten / Leucociti", "5,8", "4,0 - 10,0"), ("Erythrozyten / Eritrociti", "4,02", "3,9 - 5,2"),
                   ("Thrombozyten / Piastrine", "281", "150 - 400"), ("Kalium / Potassio", "4,7", "3,5 - 5,1")]
