"""Headers whose value heading the vocabulary lacks, and tight tables (session 5, helper B)."""

from parser import columns as cols
from parser.layout import document_rows
from tests.page_builder import document, page

SIZE = 7.0


def _cells(x: float, y: float, *texts_at: tuple[str, float]) -> list[tuple]:
    return [(x + dx, y, text, SIZE) for text, dx in texts_at if text]


def _rows(pg):
    return [(r.name, r.value, r.flag, r.units) for r in document_rows(document(pg))]


def test_side_by_side_headers_with_unknown_value_and_abn_flag_headings_in_a_compact_table():
    # "DESCRIPTION  ABN  REFERENCE RANGE  READING  UNIT" twice, columns 8 units apart (less
    # than 1.5 line heights): ABN is also a flag word, READING a heading the vocabulary lacks.
    head = [("DESCRIPTION", 0), ("ABN", 103), ("REFERENCE RANGE", 122), ("READING", 182),
            ("UNIT", 215)]
    rows = [("Haemoglobin", "L", "(13.5 to 17.5)", "6.0", "g/dL"),
            ("Haematocrit", "H", "(41.0 to 53.0)", "56.1", "%"),
            ("Platelet Count", "", "(150 to 400)", "295", "x10^3/uL"),
            ("Ferritin", "L", "(30 to 400)", "15", "ng/mL")]
    lines = [_cells(38, 100, *head) + _cells(310, 100, *head)]
    for i, (name, flag, rng, value, unit) in enumerate(rows):
        cells = [(name, 0), (flag, 104), (rng, 122), (value, 184), (unit, 215)]
        lines.append(_cells(38, 120 + 16 * i, *cells) + _cells(310, 120 + 16 * i, *cells))
    found = _rows(page(lines))
    assert len(found) == 8
    assert ("Haemoglobin", "6.0", "L", "g/dL") in found
    assert sum(r == ("Ferritin", "15", "L", "ng/mL") for r in found) == 2


def test_out_of_range_table_keeps_its_unknown_value_heading_when_it_is_the_last_one():
    # "TEST NAME  OUT OF RANGE  EXPECTED VALUES  READING" twice: the right table's READING is
    # the line's last word, after every label.
    head = [("TEST NAME", 0), ("OUT OF RANGE", 100), ("EXPECTED VALUES", 150), ("READING", 210)]
    rows = [("Creatinine", "H", "[62-115]", "131"), ("Sodium", "", "[136-145]", "141"),
            ("Chloride", "", "[98-107]", "101"), ("Albumin", "L", "[35-50]", "30")]
    lines = [_cells(38, 100, *head) + _cells(320, 100, *head)]
    for i, (name, flag, rng, value) in enumerate(rows):
        cells = [(name, 0), (flag, 110), (rng, 150), (value, 212)]
        lines.append(_cells(38, 120 + 16 * i, *cells) + _cells(320, 120 + 16 * i, *cells))
    found = _rows(page(lines, width=620))
    assert len(found) == 8
    assert sum(r[:3] == ("Creatinine", "131", "H") for r in found) == 2


def test_section_titles_side_by_side_are_not_a_header():
    # A title that starts with a names' label word ("EXAMEN DES URINES") beside another one:
    # its words run on with single spaces, never a column's gap after the label.
    words = [("EXAMEN", 39.0, 67.0), ("DES", 69.0, 84.0), ("URINES", 86.0, 109.0),
             ("HÉMOGRAMME", 319.0, 368.0)]
    assert cols.find_headers(words, 100.0, 108.0, 1, 612.0) == []
    header = cols.find_headers([("TEST", 39.0, 60.0), ("OBSERVATION", 200.0, 260.0)],
                               100.0, 108.0, 1, 612.0)
    assert [c.kind for c in header[0].columns] == [cols.NAME, cols.UNKNOWN]


def test_a_many_word_name_in_a_tight_table_is_a_row_not_running_text():
    # Eight words with gaps of 8 units (about one line height) between the cells read like
    # prose by spacing alone; the cells sit in their columns: value, unit, range.
    lines = [_cells(40, 100, ("Parameter", 0), ("Test Result", 81.5), ("U.O.M.", 126),
                    ("Normal Range", 179.5))]
    rows = [("Urea", "4.8", "mmol/L", "2.5-7.8"), ("Creatinine, Serum", "99", "umol/L", "62-115"),
            ("eGFR Non-Afr. American", "103", "mL/min/1.73m2", "More than 60"),
            ("Sodium, Serum", "141", "mmol/L", "136-145")]
    for i, (name, value, unit, rng) in enumerate(rows):
        lines.append(_cells(40, 120 + 16 * i, (name, 0), (value, 81.5), (unit, 126), (rng, 179.5)))
    found = _rows(page(lines))
    assert ("eGFR Non-Afr. American", "103", None, "mL/min/1.73m2") in found
    assert len(found) == 4


def test_a_monospace_table_with_dotted_leaders_keeps_its_unknown_value_heading():
    # "TEST NAME   OBSERVATION": the names' dotted leaders run up to the value column; they
    # brush it, they are not under it (their votes made the column a unit column).
    mono = 3.75  # a character's width at size 7.5 (tests/page_builder.py)
    lines = [[(34, 100, "TEST NAME", 7.5), (232, 100, "OBSERVATION", 7.5)]]
    rows = [("Serum Iron", "36 H µmol/L (10 - 30)"), ("Ferritin", "340 µg/L (30 - 400)"),
            ("Color", "Yellow Yellow"), ("Protein", "Negative Negative"),
            ("Glucose", "1+ * Negative")]
    for i, (name, cell) in enumerate(rows):
        leader = "." * int((219 - 34) / mono - len(name) - 1)
        lines.append([(34, 120 + 12 * i, f"{name} {leader}", 7.5), (232, 120 + 12 * i, cell, 7.5)])
    found = {r[0].rstrip(" ."): r[1] for r in _rows(page(lines))}
    assert found.get("Protein") == "Negative Negative" and found.get("Color") == "Yellow Yellow"
    assert len(found) == 5


def test_single_spaced_fields_read_a_flag_letter_that_begins_the_unit_as_the_unit():
    from parser.layout.fields import read_fields

    tokens = "HEMATOCRIT 0,51 L / L (0,41 - 0,53)".split()
    fields = read_fields(tokens)
    assert " ".join(tokens[slice(*fields.units)]) == "L / L" and fields.flag[0] == fields.flag[1]
    tokens = "Haemoglobin 10.2 L g/dL 13-17".split()
    assert " ".join(tokens[slice(*read_fields(tokens).flag)]) == "L"


def test_a_unit_followed_by_a_sex_label_is_not_one_unit():
    from parser.units import is_unit

    assert not is_unit("x10^6 / uL M:") and is_unit("x10^6 / uL")


def test_qualitative_results_vote_for_the_value_column_they_sit_in():
    # "EXAMINATION  READING  OUT OF RANGE": qualitative rows first ("Yellow Yellow", a
    # result and the expected one) must count as results, not units, under READING.
    lines = [[(34, 100, "EXAMINATION", 7.5), (151, 100, "READING", 7.5), (377, 100, "OUT OF RANGE", 7.5)]]
    rows = [("COLOR", "Yellow Yellow", ""), ("APPEARANCE", "Clear Clear", ""),
            ("PROTEIN", "Negative Negative", ""), ("GLUCOSE", "Negative Negative", ""),
            ("OCCULT BLOOD", "Trace Negative", "A"), ("SPECIFIC GRAVITY", "1.022 (1.005 - 1.030)", ""),
            ("PH", "7.4 (5.0 - 8.0)", "")]
    for i, (name, cell, flag) in enumerate(rows):
        line = [(34, 120 + 12 * i, name, 7.5), (151, 120 + 12 * i, cell, 7.5)]
        lines.append(line + ([(400, 120 + 12 * i, flag, 7.5)] if flag else []))
    found = {r[0]: r[1] for r in _rows(page(lines))}
    assert found.get("COLOR") == "Yellow Yellow" and found.get("OCCULT BLOOD") == "Trace Negative"
    assert len(found) == 7


def test_a_flag_apart_after_the_name_in_a_column_without_heading_is_the_flag():
    lines = [[(34, 100, "EXAMINATION", 7.5), (246, 100, "EXPECTED VALUES", 7.5),
              (327, 100, "RESULT VALUE", 7.5)]]
    rows = [("Sodium, Serum", "High", "136 to 145", "149 mmol / L"),
            ("Potassium, Serum", "Critical", "3.5 to 5.1", "2.6 mmol / L"),
            ("Chloride", "", "98 to 107", "101 mmol / L")]
    for i, (name, flag, rng, value) in enumerate(rows):
        line = [(34, 120 + 12 * i, name, 7.5), (246, 120 + 12 * i, rng, 7.5), (327, 120 + 12 * i, value, 7.5)]
        lines.append(line + ([(180, 120 + 12 * i, flag, 7.5)] if flag else []))
    found = {r[0]: r[2] for r in _rows(page(lines))}
    assert found == {"Sodium, Serum": "High", "Potassium, Serum": "Critical", "Chloride": None}


def test_side_by_side_tables_whose_value_heading_closes_each_table_find_each_names_heading():
    # "Particulars  Alert  Biological Ref. Interval  Reading" twice: before the right table's
    # labels come the left's "Reading" and then the right's "Particulars".
    words = []
    for dx in (0, 271):
        words += [("Particulars", 38 + dx, 78 + dx), ("Alert", 136 + dx, 154 + dx),
                  ("Biological", 162 + dx, 196 + dx), ("Ref.", 198 + dx, 212 + dx),
                  ("Interval", 214 + dx, 246 + dx), ("Reading", 255 + dx, 285 + dx)]
    left, right = cols.find_headers(words, 100.0, 108.0, 1, 595.0)
    assert [(c.kind, c.label) for c in right.columns][0] == (cols.NAME, "particulars")
    assert right.columns[0].x0 == 309 and left.columns[0].x0 == 38
