"""Classes opened with real-like batch 14's European reports (session 17): a range printed as
two limit columns ("Norm von" / "bis"), a range with its label on a line under the name
("V.R.: 12,0 - 15,5") in a table without a range column, a flag letter set apart between the
value and the unit ("11,6 B g/dL"), an earlier result printed under the value ("4,26 le
12/09/24") and a restating "soit" line, and sub-section headings of a typewriter print."""

import page_builder
from page_builder import document, page

from parser.api import parse_document
from parser.page import Word


def _results(*pages):
    return parse_document(document(*pages)).results


def _limit_rows(lower: str, upper: str, first_name: str = "Leukozyten"):
    """A German table whose range is printed as a lower and an upper limit column."""
    rows = [[(40, 100, "Untersuchung"), (200, 100, "Ergebnis"), (260, 100, "Einheit"), (330, 100, lower),
             (420, 100, upper), (470, 100, "Vorbefund")]]
    lines = [(first_name, "5,8", "", "Tsd/µl", "3,9", "10,2", "6,1"),
             ("Glucose (Plasma)", "132", "+", "mg/dl", "70", "100", "118"),
             ("eGFR nach CKD-EPI", "54", "-", "ml/min", "60", "", "61"),
             ("GOT (ASAT)", "31", "", "U/l", "", "35", "27"),
             ("Gamma-GT", "88", "++", "U/l", "", "40", "61"),
             ("HDL-Cholesterin", "41", "-", "mg/dl", "45", "", "44"),
             ("TSH basal", "1,62", "", "µU/ml", "0,27", "4,2", "1,87")]
    for y, (name, value, sign, unit, low, high, previous) in zip(range(115, 400, 13), lines):
        row = [(40, y, name), (200, y, value), (260, y, unit), (470, y, previous)]
        row += [(345, y, low)] if low else []
        row += [(420, y, high)] if high else []
        row += [(225, y, sign)] if sign else []
        rows.append(row)
    return rows


def test_a_range_printed_as_lower_and_upper_limit_columns_reads_each_limit_by_its_column():
    """"Norm von | bis": both limits, the lower alone (>= it) or the upper alone (<= it); the
    signs after the values are flags; the previous results stay out."""
    results = _results(page(_limit_rows("Norm von", "bis")))
    read = [(r.test_name, r.value, r.min_reference_range, r.max_reference_range, r.interpretation)
            for r in results]
    assert read == [
        ("Leukozyten", "5,8", 3.9, 10.2, "normal"),
        ("Glucose (Plasma)", "132", 70.0, 100.0, "abnormal"),
        ("eGFR nach CKD-EPI", "54", 60.0, None, "abnormal"),
        ("GOT (ASAT)", "31", None, 35.0, "normal"),
        ("Gamma-GT", "88", None, 40.0, "abnormal"),
        ("HDL-Cholesterin", "41", 45.0, None, "abnormal"),
        ("TSH basal", "1,62", 0.27, 4.2, "normal"),
    ]


def test_limit_columns_labelled_min_and_max_read_the_same():
    """Any language's pair of limit labels ("Min | Max", "Ref Low | Ref High")."""
    for lower, upper in (("Min", "Max"), ("Ref Low", "Ref High")):
        results = {r.test_name: r for r in _results(page(_limit_rows(lower, upper)))}
        assert (results["eGFR nach CKD-EPI"].min_reference_range, results["eGFR nach CKD-EPI"].max_reference_range) \
            == (60.0, None)
        assert (results["GOT (ASAT)"].min_reference_range, results["GOT (ASAT)"].max_reference_range) == (None, 35.0)
        assert (results["Leukozyten"].min_reference_range, results["Leukozyten"].max_reference_range) == (3.9, 10.2)


_LINES = [("Hematíes", "4,02", "10^6/µL", "V.R.: 3,80 - 5,20"),
          ("Hemoglobina", "11,2*", "g/dL", "V.R.: 12,0 - 15,5"),
          ("Colesterol total", "214*", "mg/dL", "V.R.: < 200"),
          ("Colesterol HDL", "52", "mg/dL", "V.R.: > 45")]
# Page 2: other tests, their ranges' digits in the same pattern at the same heights.
_LINES_2 = [("Sodio", "139", "mEq/L", "V.R.: 1,36 - 1,45"),
            ("Potasio", "4,7", "mEq/L", "V.R.: 35,0 - 51,0"),
            ("Triglicéridos", "142", "mg/dL", "V.R.: < 150"),
            ("Hierro", "38*", "µg/dL", "V.R.: > 50")]


def test_limit_columns_that_read_as_no_range_are_left_unread():
    """An upper limit below the lower, or far beyond any range's spread (OCR's "551" for
    "5,1"): the row keeps no range rather than a wrong one."""
    rows = _limit_rows("Norm von", "bis")
    for high in ("551", "2,0"):
        rows[1] = [cell if cell[2] != "10,2" else (cell[0], cell[1], high) for cell in rows[1]]
        leukocytes = _results(page(rows))[0]
        assert (leukocytes.test_name, leukocytes.min_reference_range, leukocytes.max_reference_range) \
            == ("Leukozyten", None, None)
        rows[1] = [cell if cell[2] != high else (cell[0], cell[1], "10,2") for cell in rows[1]]


def _ranges_under_names(lines=tuple(_LINES), y0: float = 100):
    rows = [[(40, y0, "Prueba"), (250, y0, "Resultado"), (330, y0, "Unidades"), (420, y0, "Resultado anterior")]]
    y = y0 + 15
    for name, value, unit, reference in lines:
        rows.append([(40, y, name), (250, y, value), (330, y, unit)])
        rows.append([(44, y + 11, reference, 7.0)])
        y += 22
    return rows


def test_a_labelled_range_on_its_own_line_under_the_name_is_that_rows_range():
    """"V.R.: 12,0 - 15,5" set small under the name, no range column: the row's range, and the
    asterisk glued to the value its flag. Page 2 prints the same lines at the same height (the
    digits' pattern recurs there: never a running header)."""
    results = _results(page(_ranges_under_names()), page(_ranges_under_names(_LINES_2), number=2))
    read = [(r.test_name, r.value, r.min_reference_range, r.max_reference_range, r.interpretation)
            for r in results]
    assert read == [("Hematíes", "4,02", 3.8, 5.2, "normal"), ("Hemoglobina", "11,2", 12.0, 15.5, "abnormal"),
                    ("Colesterol total", "214", None, 200.0, "abnormal"), ("Colesterol HDL", "52", 45.0, None, "normal"),
                    ("Sodio", "139", 1.36, 1.45, "abnormal"), ("Potasio", "4,7", 35.0, 51.0, "abnormal"),
                    ("Triglicéridos", "142", None, 150.0, "normal"), ("Hierro", "38", 50.0, None, "abnormal")]


def test_a_range_line_without_its_label_is_not_taken_for_the_rows_range():
    rows = _ranges_under_names()
    rows[2] = [(44, rows[2][0][1], "12,0 - 15,5", 7.0)]  # under Hematíes, no "V.R.:"
    results = _results(page(rows))
    assert results[0].test_name == "Hematíes" and results[0].min_reference_range is None


def _leader_rows():
    """A French page without a header: names with dotted leaders, a boxed flag letter between
    the value and the unit, the earlier result printed small under the value, a restating line."""
    dots = ". . . . . . . ."
    return [
        [(40, 100, f"Hématies {dots}"), (240, 100, "4,18"), (300, 100, "T/L"), (380, 100, "(3,90 à 5,20)")],
        [(232, 111, "4,26 le 12/09/24", 7.0)],
        [(40, 122, f"Hémoglobine {dots}"), (240, 122, "11,6"), (270, 122, "B"), (300, 122, "g/dL"),
         (380, 122, "(12,0 à 16,0)")],
        [(232, 133, "12,3 le 12/09/24", 7.0)],
        [(40, 144, f"Glycémie à jeun {dots}"), (240, 144, "1,09"), (270, 144, "H"), (300, 144, "g/L"),
         (380, 144, "(0,70 à 1,00)")],
        [(232, 155, "1,02 le 12/09/24", 7.0), (300, 155, "soit 6,05 mmol/L", 7.0)],
        [(40, 166, f"Cholestérol HDL {dots}"), (240, 166, "0,58"), (300, 166, "g/L"), (380, 166, "(> 0,40)")],
        [(300, 177, "soit 1,50 mmol/L", 7.0)],
    ]


def test_a_flag_letter_set_apart_before_the_unit_and_earlier_results_under_the_values():
    """"11,6 B g/dL": B (bas) stands where only a flag does; "1,02 le 12/09/24" (an earlier
    result) and "soit 6,05 mmol/L" (the row restated) are never rows of their own."""
    results = _results(page(_leader_rows()))
    read = [(r.test_name, r.value, r.interpretation, r.is_below_min_range) for r in results]
    assert read == [("Hématies", "4,18", "normal", False), ("Hémoglobine", "11,6", "abnormal", True),
                    ("Glycémie à jeun", "1,09", "abnormal", False), ("Cholestérol HDL", "0,58", "normal", False)]
    assert results[1].source_flag == "B"


def _typewriter_rows(heading: str):
    """A table's rows, an italic-like sub-section line over its first rows."""
    rows = [[(40, 100, "Untersuchung"), (250, 100, "Ergebnis"), (320, 100, "Einheit"),
             (400, 100, "Referenzbereich")],
            [(40, 113, "HÄMATOLOGIE", 10.0, True)],
            [(40, 126, heading)]]
    lines = [("Leukozyten", "5,8", "Tsd/µl", "3,9 - 10,2"), ("Erythrozyten", "4,31", "Mio/µl", "4,0 - 5,2"),
             ("eGFR nach CKD-EPI", "54", "ml/min", "> 60"), ("Harnstoff", "39", "mg/dl", "17 - 43")]
    for y, (name, value, unit, reference) in zip(range(139, 400, 13), lines):
        rows.append([(40, y, name), (250, y, value), (320, y, unit), (400, y, reference)])
    return rows


def _typewriter_page(rows, monkeypatch):
    """page_builder sets every character 5 pt wide; a typewriter also sets each space so."""
    monkeypatch.setattr(page_builder, "SPACE", page_builder.CHAR_WIDTH)
    return page(rows)


def test_a_sub_section_line_of_a_typewriter_table_is_no_part_of_the_name_under_it(monkeypatch):
    """"Kleines Blutbild" over "Leukozyten": with the row's first name word after it, it ends far
    before the value's field, so the name could not have wrapped there."""
    results = _results(_typewriter_page(_typewriter_rows("Kleines Blutbild"), monkeypatch))
    assert [r.test_name for r in results] == ["Leukozyten", "Erythrozyten", "eGFR nach CKD-EPI", "Harnstoff"]
    assert results[0].source_panel_name == "Kleines Blutbild"


def test_a_name_line_that_fills_the_typewriter_field_still_wraps(monkeypatch):
    """A first line that, with the next word, would run into the value's field did wrap."""
    results = _results(_typewriter_page(_typewriter_rows("Leukozytenzahl im peripheren Blut, gesamt"), monkeypatch))
    assert results[0].test_name == "Leukozytenzahl im peripheren Blut, gesamt Leukozyten"


def test_words_spaced_like_a_proportional_font_are_no_typewriter_print():
    """The same characters with half-width spaces: no fixed field is assumed, the line over
    the row stays the first line of its name (as any name-only line that may have wrapped)."""
    results = _results(page(_typewriter_rows("Kleines Blutbild")))
    assert results[0].test_name == "Kleines Blutbild Leukozyten"


def test_a_proportional_font_is_not_read_as_a_typewriter_field():
    """Words whose width per character differs beyond MAX_PITCH_SPREAD: no fixed field."""
    from parser.layout.typewriter import MAX_PITCH_SPREAD, pitch
    from parser.layout.cells import Cells
    from parser.lines import Line, Phrase

    words = [Word(text, 0.0, 0.0, width, 10.0, 1.0, 10.0, False)
             for text, width in (("Illite", 14.0), ("Mammoth", 49.0))] * 5
    cells = [Cells(Line([w], 1), {"name": [Phrase([w])], "result": []}) for w in words]
    assert pitch(cells) is None
    assert 49.0 / 7 > MAX_PITCH_SPREAD * 14.0 / 6
