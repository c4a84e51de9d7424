"""Classes opened with real-like batch 10 (session 13): a collection date-time column before
the names, a heading that opens in bold and runs on in smaller type (its specimen or order
note), a line restating the row above in other units ("soit ..."), and a share set close after
the name. Pages built here, never the fixtures."""

from page_builder import document, page

from parser.api import parse_document


def _rows(rows):
    return [(r.test_name, r.value) for r in parse_document(document(page(rows))).results]


def _ehr_listing(order_lines: bool = True):
    stamp = "03/14/2025 05:42 EDT"
    rows = [[(31, 100, "Collected Date/Time", 8.6, True), (128, 100, "Result Name", 8.6, True),
             (249, 100, "Result", 8.6, True), (312, 100, "Units", 8.6, True),
             (380, 100, "Reference Range", 8.6, True), (451, 100, "Status", 8.6, True)],
            [(31, 120, "Hematology", 10.5, True)]]
    y = 135
    for name, value, unit, ref in [("WBC", "14.2", "K/uL", "4.5-11.0"), ("RBC", "3.71", "M/uL", "4.50-5.90"),
                                   ("Hemoglobin", "10.9", "g/dL", "13.5-17.5"), ("Platelets", "188", "K/uL", "150-400")]:
        rows.append([(31, y, stamp, 9.1), (128, y, name, 9.1), (249, y, value, 9.1), (312, y, unit, 9.1),
                     (380, y, ref, 9.1), (451, y, "Final", 9.1)])
        y += 12
    if order_lines:  # an order's title in bold, its specimen in smaller type, over its row
        rows.append([(31, y + 8, "Magnesium Level", 9.1, True), (116, y + 9, "Plasma · Light green top", 8.4)])
        y += 20
    rows.append([(31, y, stamp, 9.1), (128, y, "Magnesium", 9.1), (249, y, "2.4", 9.1), (312, y, "mg/dL", 9.1),
                 (380, y, "1.6-2.6", 9.1), (451, y, "Final", 9.1)])
    return rows


def test_a_collection_date_time_column_before_the_names_is_not_part_of_them():
    assert _rows(_ehr_listing(order_lines=False)) == [
        ("WBC", "14.2"), ("RBC", "3.71"), ("Hemoglobin", "10.9"), ("Platelets", "188"), ("Magnesium", "2.4")]


def test_an_order_title_with_its_specimen_over_a_named_row_is_no_part_of_its_name():
    assert _rows(_ehr_listing())[-1] == ("Magnesium", "2.4")


def test_a_heading_opening_in_bold_with_its_specimen_in_small_type_is_a_heading():
    rows = [[(42, 100, "Determinación", 8.4, True), (280, 100, "Resultado", 8.4, True),
             (346, 100, "Unidades", 8.4, True), (414, 100, "Intervalo de referencia", 8.4, True)],
            [(42, 118, "Glucosa", 9.3), (304, 118, "131", 9.3), (346, 118, "mg/dL", 9.3), (414, 118, "74 - 106", 9.3)],
            [(42, 131, "Urea", 9.3), (310, 131, "38", 9.3), (346, 131, "mg/dL", 9.3), (414, 131, "17 - 49", 9.3)],
            [(42, 150, "HEMOGLOBINA GLICADA", 9.5, True), (150, 151, "· Sangre total EDTA", 8.6)],
            [(42, 163, "Hemoglobina glicada (HbA1c)", 9.3), (306, 163, "6,8", 9.3), (346, 163, "%", 9.3),
             (414, 163, "4,0 - 6,0", 9.3)],
            [(42, 180, "Hematología", 9.5, True), (100, 181, "· Sangre total EDTA", 8.6)],
            [(42, 193, "Leucocitos", 9.3), (303, 193, "6,21", 9.3), (346, 193, "10^3/µL", 9.3),
             (414, 193, "3,9 - 10,2", 9.3)]]
    assert _rows(rows) == [("Glucosa", "131"), ("Urea", "38"), ("Hemoglobina glicada (HbA1c)", "6,8"),
                           ("Leucocitos", "6,21")]


def _french(rows):
    header = [(42, 100, "Examen", 8.1, True), (231, 100, "Résultat", 8.1, True), (286, 100, "Unités", 8.1, True),
              (357, 100, "Valeurs de référence", 8.1, True)]
    return _rows([header, *rows])


def test_a_line_restating_the_row_above_in_other_units_is_no_row():
    rows = [[(42, 120, "Glycémie à jeun", 9.5), (243, 120, "1,18", 9.5), (286, 120, "g/L", 9.5),
             (357, 120, "0,70 à 1,10", 9.5)],
            [(234, 131, "soit 6,55", 7.9), (286, 131, "mmol/L", 7.9), (357, 131, "3,89 à 6,11", 7.9)],
            [(42, 141, "Urée", 9.5), (245, 141, "0,31", 9.5), (286, 141, "g/L", 9.5), (357, 141, "0,15 à 0,45", 9.5)],
            [(234, 152, "soit 5,16", 7.9), (286, 152, "mmol/L", 7.9), (357, 152, "2,50 à 7,49", 7.9)],
            [(42, 162, "Sodium", 9.5), (248, 162, "139", 9.5), (286, 162, "mmol/L", 9.5), (357, 162, "136 à 145", 9.5)]]
    assert _french(rows) == [("Glycémie à jeun", "1,18"), ("Urée", "0,31"), ("Sodium", "139")]


def test_a_share_set_close_after_the_name_is_a_second_measurement():
    """"Polynucléaires neutrophiles   61,2 %   3,93 G/L": the share sits nearer the name than
    three letters' widths, yet it is a cell of its own, never the name's end."""
    rows = []
    for y, (name, x, share, count) in zip(range(120, 200, 12), [
            ("Polynucléaires neutrophiles", 181, "61,2 %", "3,93"), ("Polynucléaires éosinophiles", 186, "2,8 %", "0,18"),
            ("Lymphocytes", 181, "28,5 %", "1,83"), ("Monocytes", 186, "6,9 %", "0,44")]):
        rows.append([(42, y, name, 9.5), (x, y, share, 9.5), (245, y, count, 9.5), (286, y, "G/L", 9.5),
                     (357, y, "1,00 à 4,00", 9.5)])
    read = _french(rows)
    assert ("Polynucléaires neutrophiles", "61,2") in read and ("Polynucléaires neutrophiles", "3,93") in read
    assert len(read) == 8 and all(name in {"Polynucléaires neutrophiles", "Polynucléaires éosinophiles",
                                           "Lymphocytes", "Monocytes"} for name, _ in read)


def test_a_status_column_read_as_the_flags_gives_way_to_the_flag_printed_with_the_value():
    """"Status" labels a flag column, but "Final" is no flag: "14.2 (HH)" is critical, a flag
    the numbers alone (above the range: abnormal) cannot tell."""
    rows = _ehr_listing(order_lines=False)
    rows[2][2] = (249, rows[2][2][1], "14.2 (HH)", 9.1)
    first = parse_document(document(page(rows))).results[0]
    assert (first.test_name, first.value, first.interpretation) == ("WBC", "14.2", "critical")


def test_a_collection_date_time_run_into_the_name_is_no_part_of_it():
    """OCR joins a narrow date column to the names ("03/14/2025 05:42 EDT WBC", one phrase):
    no test name starts with a date and a time of day."""
    rows = _ehr_listing(order_lines=False)
    for row in rows[2:]:
        stamp, name = row[0], row[1]
        row[:2] = [(stamp[0], stamp[1], f"{stamp[2]} {name[2]}", 9.1)]
    assert _rows(rows) == [
        ("WBC", "14.2"), ("RBC", "3.71"), ("Hemoglobin", "10.9"), ("Platelets", "188"), ("Magnesium", "2.4")]
