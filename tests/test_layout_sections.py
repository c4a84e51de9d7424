"""Section lines right above a row in tables whose fonts do not set them apart (monospace
printouts): a section, not the first line of the row's wrapped name; and a value cell holding
a flag, the value and a spaced unit."""

from page_builder import document, page

from parser.layout import document_rows


def _rows(*pages):
    return [(r.name, r.value, r.panel) for r in document_rows(document(*pages))]


HEADER = [(40, 100, "TEST"), (250, 100, "RESULT"), (330, 100, "UNITS"), (420, 100, "RANGE")]


def test_capitals_section_that_leaves_room_for_the_next_word_is_no_wrapped_name():
    """'FUNZIONALITA RENALE' plus 'UREA' fit within the widest name: the name did not wrap."""
    rows = _rows(page([
        HEADER,
        [(40, 120, "FUNZIONALITA RENALE")],
        [(40, 131, "UREA"), (250, 131, "6,1"), (330, 131, "mmol/L"), (420, 131, "2,5 - 7,8")],
        [(40, 142, "SATURAZIONE DELLA TRANSFERRINA"), (250, 142, "40"), (330, 142, "%"),
         (420, 142, "20 - 50")],
    ]))
    assert rows == [("UREA", "6,1", "FUNZIONALITA RENALE"),
                    ("SATURAZIONE DELLA TRANSFERRINA", "40", "FUNZIONALITA RENALE")]


def test_name_that_could_not_fit_its_next_word_stays_wrapped():
    rows = _rows(page([
        HEADER,
        [(40, 120, "ALKALINE PHOSPHATASE ENZYME")],
        [(40, 131, "ACTIVITY"), (250, 131, "76"), (330, 131, "U/L"), (420, 131, "44 - 147")],
        [(40, 142, "ALKALINE PHOSPHATASE ENZ"), (250, 142, "40"), (330, 142, "U/L"),
         (420, 142, "20 - 50")],
    ]))
    assert rows[0][:2] == ("ALKALINE PHOSPHATASE ENZYME ACTIVITY", "76")


def test_small_letters_line_over_a_capitals_name_in_a_capitals_table_is_a_section():
    rows = _rows(page([
        HEADER,
        [(40, 120, "Thyroid Function Test")],
        [(40, 131, "THYROID STIMULATING"), (250, 131, "2.85"), (330, 131, "mU/L"),
         (420, 131, "0.27 - 4.20")],
        [(40, 142, "FREE T4"), (250, 142, "9.2"), (330, 142, "pmol/L"), (420, 142, "12 - 22")],
    ]))
    assert [r[0] for r in rows] == ["THYROID STIMULATING", "FREE T4"]
    assert rows[0][2] == "Thyroid Function Test"


def test_flag_value_and_spaced_unit_in_the_value_cell_is_a_value_not_prose():
    rows = _rows(page([
        [(40, 100, "TEST"), (250, 100, "RESULT"), (420, 100, "REFERENCE INTERVAL")],
        [(40, 120, "CREATININE"), (250, 120, "L 44 umol / L"), (420, 120, "(62 - 115)")],
        [(40, 135, "EGFR NON-AFR. AMERICAN"), (250, 135, "L 40 mL / min / 1.73m2"),
         (420, 135, "(More than 60)")],
    ]))
    assert [r[:2] for r in rows] == [("CREATININE", "L 44 umol / L"),
                                     ("EGFR NON-AFR. AMERICAN", "L 40 mL / min / 1.73m2")]


def test_value_cell_with_a_five_word_spaced_unit_then_its_range():
    from parser.normalize import _bracketed_range

    assert _bracketed_range(">90 mL / min / 1.73m2 (>60)") == (">90 mL / min / 1.73m2", "(>60)")
    assert _bracketed_range("L 40 mL / min / 1.73m2 (More than 60)") == (
        "L 40 mL / min / 1.73m2", "(More than 60)")


def test_ocr_range_whose_high_end_drifted_toward_the_value_column_stays_one_range():
    rows = _rows(page([
        [(40, 100, "Prueba"), (260, 100, "Unidades"), (310, 100, "Rango"), (410, 100, "Valor")],
        [(40, 120, "LEUCOCITOS"), (260, 120, "/mm³"), (310, 120, "4.000 -"), (365, 120, "11.000"),
         (410, 120, "5.700")],
        [(40, 135, "HEMATIES"), (260, 135, "T/l"), (310, 135, "4,50 - 5,90"), (410, 135, "4,75")],
    ], source="ocr"))
    assert [r[:2] for r in rows] == [("LEUCOCITOS", "5.700"), ("HEMATIES", "4,75")]


def test_ocr_slips_in_count_and_per_field_units():
    from parser.normalize import repair_unit

    assert repair_unit("/[cumm") == "/cumm"
    assert repair_unit("JHPF") == "/HPF"
    assert repair_unit("/mm?") == "/mm³"
    assert repair_unit("mg?") == "mg?"  # a '?' is a cube only after mm or cm
    assert repair_unit('10”"12/I') == "10^12/l"  # printed without "x", caret read as quotes
    assert repair_unit("10^9/L") == "10^9/L"


def test_european_flag_headings_place_a_lone_dash_flag():
    rows = _rows(page([
        [(40, 100, "Parameter"), (250, 100, "Ergebnis"), (330, 100, "Kennz."), (420, 100, "Referenzbereich")],
        [(40, 120, "Thrombozyten"), (250, 120, "81566"), (335, 120, "-"), (420, 120, "150000-410000 /cumm")],
    ]))
    assert rows[0][:2] == ("Thrombozyten", "81566")


def test_wide_heading_spanning_name_and_range_columns_is_no_range_tier():
    from parser.layout import document_rows

    rows = document_rows(document(page([
        [(40, 100, "Examination"), (150, 100, "Reference Value"), (330, 100, "Patient Result")],
        [(40, 120, "Platelet Count"), (150, 120, "150000 to 410000 /cumm"), (330, 120, "237909")],
        [(40, 135, "INFLAMMATION AND TUMOUR MARKERS")],
        [(40, 150, "C-Reactive Protein"), (150, 150, "Up to 5.0 mg/L"), (330, 150, "5.8")],
    ])))
    assert [r.range_text for r in rows] == ["150000 to 410000 /cumm", "Up to 5.0 mg/L"]
    assert rows[1].panel == "INFLAMMATION AND TUMOUR MARKERS"


def test_flag_letter_before_a_litre_per_litre_unit_is_part_of_the_unit():
    from parser.normalize import split_value

    assert split_value("0,39 L / L") == ("0,39", None, "L/L", False)
    assert split_value("2,636 L / cumm") == ("2,636", "L", "/cumm", False)


def test_a_flag_before_the_value_after_a_long_name_is_a_row_not_running_text():
    rows = _rows(page([
        [(40, 100, "Test"), (300, 100, "Befund")],
        [(40, 120, "LEUKOZYTEN IM SEDIMENT"), (300, 120, "H 6 /HPF (0 - 5)")],
        [(40, 135, "ERYTHROZYTEN IM SEDIMENT"), (300, 135, "1 /HPF (0 - 2)")],
    ]))
    assert [r[0] for r in rows] == ["LEUKOZYTEN IM SEDIMENT", "ERYTHROZYTEN IM SEDIMENT"]


def test_a_name_then_its_value_and_a_comparator_range_in_a_narrow_side_table_is_a_row():
    from parser.lines import Line, is_prose
    from page_builder import cell_words

    words = cell_words(310, 100, "Débit de filtration glomérulaire", 8) + \
        cell_words(440, 100, "75", 8) + cell_words(480, 100, "> 60 mL/min/1.73m2", 8)
    assert not is_prose(Line(words, 1))
    sentence = cell_words(40, 100, "Results to be correlated clinically with the patient history", 8)
    assert is_prose(Line(sentence, 1))


def test_capitalised_flag_word_a_flag_column_put_after_a_capitals_name():
    from parser.normalize import _trailing_flag

    assert _trailing_flag("EMOGLOBINA Basso").group(1) == "Basso"
    assert _trailing_flag("SODIO Alto").group(1) == "Alto"
    assert _trailing_flag("Sodio Alto") is None  # no capitals name to stand out from
    assert _trailing_flag("GLOBULI ROSSI") is None


def test_ocr_arrow_flag_read_as_a_mark_between_value_and_unit_goes():
    from parser.normalize import drop_arrow_mark

    assert drop_arrow_mark("9,4 T mmol/L (2,5-7,8)") == "9,4 mmol/L (2,5-7,8)"
    assert drop_arrow_mark("133 |! mmol/L (136-145)") == "133 mmol/L (136-145)"
    assert drop_arrow_mark("8,1 t pmol/L") == "8,1 pmol/L"
    assert drop_arrow_mark("7.2 T (3.5-5.0)") == "7.2 T (3.5-5.0)"  # no unit after the mark


def test_single_spaced_row_with_a_long_name_unit_and_range_is_no_running_text():
    rows = _rows(page([
        [(40, 100, "Prueba"), (300, 100, "Resultado"), (400, 100, "Unidades"), (480, 100, "Referencia")],
        [(40, 120, "Alanina aminotransferasa (ALT/GPT) 15 U/L 1 - 50")],
        [(40, 135, "La muestra se recibió hemolizada y se repite el análisis mañana")],
    ]))
    assert [r[:2] for r in rows] == [("Alanina aminotransferasa (ALT/GPT)", "15")]


def test_flag_between_value_and_an_ocr_damaged_unit():
    from parser.normalize import split_value

    assert split_value("2,5 L mmotl/L") == ("2,5", "L", "mmotl/L", False)
    from parser.units import repair

    assert repair("jumol/L") == "µmol/L"  # the micro sign read as "ju"


def _row(y, name, value, unit, ref):
    return [(51, y, name), (260, y, value), (330, y, unit), (420, y, ref)]


def test_a_bold_title_over_rows_names_their_panel_on_a_page_without_a_header():
    """Community-pathology and GP-system prints read by content: each block's bold title (after
    a date alone, in a GP system) is the panel; the specimen or department right of it is not."""
    rows = _rows(page([
        [(37, 100, "Full Blood Count", 10, True), (480, 100, "EDTA whole blood")],
        _row(114, "Haemoglobin", "151", "g/L", "130-180"),
        _row(126, "Platelets", "142 L", "x10^9/L", "150-400"),
        [(44, 150, "11-Mar-2025"), (118, 150, "Urea and electrolytes", 10, True),
         (415, 150, "Pathology result · Clinical biochemistry")],
        _row(164, "Serum sodium level", "140", "mmol/L", "133-146"),
        [(44, 190, "Comment: repeat in 3 months", 10, True)],  # not a title: a label
        _row(204, "Serum urea level", "5.1", "mmol/L", "2.5-7.8"),
    ]))
    assert rows == [("Haemoglobin", "151", "Full Blood Count"), ("Platelets", "142", "Full Blood Count"),
                    ("Serum sodium level", "140", "Urea and electrolytes"),
                    ("Serum urea level", "5.1", "Urea and electrolytes")]


def test_a_title_in_the_rows_own_type_names_no_panel():
    rows = _rows(page([[(37, 100, "Full Blood Count"), (480, 100, "EDTA whole blood")],
                       _row(114, "Haemoglobin", "151", "g/L", "130-180")]))
    assert rows == [("Haemoglobin", "151", None)]


def test_a_group_label_left_of_the_indented_names_is_a_section_not_the_first_rows_name_start():
    """A plain-text print (MEDITECH) sets each order's label at the margin and its tests indented
    under it, no blank line between: 'CALCIUM/MAGNESIUM' over 'CALCIUM' is no wrapped name."""
    rows = _rows(page([
        HEADER,
        [(30, 120, "CALCIUM/MAGNESIUM")],
        [(40, 131, "CALCIUM"), (250, 131, "2.18"), (330, 131, "mmol/L"), (420, 131, "2.10-2.55")],
        [(40, 142, "MAGNESIUM"), (250, 142, "0.61"), (330, 142, "mmol/L"), (420, 142, "0.65-1.05")],
        [(30, 164, "HEMOGLOBIN A1C")],
        [(40, 175, "HEMOGLOBIN A1C"), (250, 175, "8.1"), (330, 175, "%"), (420, 175, "4.0-6.0")],
    ]))
    assert rows == [("CALCIUM", "2.18", "CALCIUM/MAGNESIUM"), ("MAGNESIUM", "0.61", "CALCIUM/MAGNESIUM"),
                    ("HEMOGLOBIN A1C", "8.1", "HEMOGLOBIN A1C")]



def test_a_footer_left_of_the_names_after_the_last_row_names_no_panel():
    """Only over a row does a line left of the names read as a heading on a text layer: a
    footer after a table ("**** End of Report ****") names no panel of the next one."""
    header = [(50, 0, "TEST"), (250, 0, "RESULT"), (330, 0, "UNITS"), (420, 0, "RANGE")]
    rows = _rows(page([
        [(x, 100, text) for x, _, text in header],
        [(40, 115, "CHEMISTRY", 10.0, True)],
        [(50, 128, "UREA"), (250, 128, "6.1"), (330, 128, "mmol/L"), (420, 128, "2.5 - 7.8")],
        [(40, 150, "**** End of Report ****")],
        [(x, 260, text) for x, _, text in header],
        [(50, 275, "SODIUM"), (250, 275, "139"), (330, 275, "mmol/L"), (420, 275, "135 - 145")],
    ]))
    assert [panel for _, _, panel in rows] == ["CHEMISTRY", "CHEMISTRY"]


def _remarks_rows(remarks):
    from parser.layout import document_rows

    lines = [[(40, 100, "Test"), (250, 100, "Result"), (310, 100, "Units"), (380, 100, "Reference Range"),
              (490, 100, "Remarks")]]
    for y, (name, value, remark) in zip(range(115, 200, 12), [("WBC", "11.8", remarks[0]), ("RBC", "4.12", remarks[1]),
                                                               ("HGB", "10.6", remarks[2])]):
        lines.append([(40, y, name), (250, y, value), (310, y, "g/dL"), (380, y, "4.0 - 10.0")]
                     + ([(490, y, remark)] if remark else []))
    return [r.flag for r in document_rows(document(page(lines)))]


def test_a_remarks_column_holding_only_flag_words_is_the_flag_column():
    assert _remarks_rows(["High", "", "Low"]) == ["High", None, "Low"]
    assert _remarks_rows(["High", "Haemolysed sample", "Low"]) == [None, None, None]  # comments
