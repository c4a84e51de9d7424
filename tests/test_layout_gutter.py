"""Two columns of rows side by side on a page without a header (analyzer tapes printed next to
each other): split at the gutter, left column first."""

from page_builder import document, page

from parser.api import parse_document


def _tapes():
    left = [("ALB", "3.9", "g/dL", "3.3-5.5"), ("ALP", "131", "U/L", "42-141"), ("CA", "9.4", "mg/dL", "8.0-10.3"),
            ("CRE", "1.3 H", "mg/dL", "0.6-1.2"), ("GLU", "182 H", "mg/dL", "73-118"), ("TP", "7.2", "g/dL", "6.4-8.1")]
    right = [("CHOL", "236 H", "mg/dL", "<200"), ("HDL", "38 L", "mg/dL", ">40"), ("TRG", "262 H", "mg/dL", "<150"),
             ("LDL", "146 H", "mg/dL", "<130"), ("VLDL", "52 H", "mg/dL", "<30")]
    rows = [[(48, 60, "COMPREHENSIVE METABOLIC"), (286, 60, "LIPID PANEL PLUS")]]
    for k, (a, b) in enumerate(zip(left, right + [None])):
        y = 80 + 12 * k
        line = [(48, y, a[0]), (89, y, a[1]), (130, y, a[2]), (175, y, a[3])]
        if b:
            line += [(286, y, b[0]), (327, y, b[1]), (370, y, b[2]), (420, y, b[3])]
        rows.append(line)
    return rows, left, right


def test_tapes_side_by_side_are_read_left_column_first():
    rows, left, right = _tapes()
    got = [(r.test_name, r.value.split()[0], r.units) for r in parse_document(document(page(rows))).results]
    assert got == [(n, v.split()[0], u) for n, v, u, _ in left + right]


def test_a_name_column_far_from_its_values_is_not_two_columns():
    rows = [[(48, 80 + 12 * k, name), (300, 80 + 12 * k, value), (350, 80 + 12 * k, "mg/dL"),
             (420, 80 + 12 * k, "70 - 99")] for k, (name, value) in
            enumerate([("Glucose", "92"), ("Urea", "31"), ("Creatinine", "0.9"), ("Uric acid", "5.1"),
                       ("Calcium", "9.4"), ("Total protein", "7.1")])]
    got = [(r.test_name, r.value) for r in parse_document(document(page(rows))).results]
    assert got == [("Glucose", "92"), ("Urea", "31"), ("Creatinine", "0.9"), ("Uric acid", "5.1"),
                   ("Calcium", "9.4"), ("Total protein", "7.1")]


def test_only_a_result_row_on_each_side_makes_a_line_cross_a_gutter():
    """A patient block ("Fall-Nr.: 240011837      Abnahme: 14.02.2025") or a row whose unit OCR
    misread ("aPTT 34      Ss 25 - 37 33 30") lines up with a gutter too: only a number with a
    unit or a range on each side counts."""
    from parser.layout.gutter import _two_rows
    from parser.lines import Line
    from parser.page import Word

    def line(*cells):
        return Line([Word(t, x, 100, x + 6 * len(t), 110) for x, t in cells], 1)

    assert _two_rows(line((48, "ALB"), (89, "3.9"), (116, "g/dL"), (148, "3.3-5.5"),
                          (286, "CHOL"), (327, "236"), (354, "mg/dL"), (386, "<200")), 250, 10)
    assert not _two_rows(line((42, "Fall-Nr.:"), (110, "240011837"), (300, "Abnahme:"), (360, "14.02.2025")), 250, 10)
    assert not _two_rows(line((42, "aPpTT"), (246, "34"), (314, "Ss"), (371, "25"), (385, "-"), (395, "37")), 280, 10)
