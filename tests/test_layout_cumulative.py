"""Cumulative tables: value columns headed by sampling dates; the latest date is the result."""

from page_builder import document, page

from parser.layout import document_rows


def _cumulative(dates, values_by_row, step=60):
    units = 170 + step * len(dates)
    rows = [[(40, 80, "FULL BLOOD COUNT")],
            [(126, 95, "Date"), *[(160 + step * k, 95, d) for k, d in enumerate(dates)]],
            [(126, 108, "Lab No"), *[(160 + step * k, 108, f"2338114{k}") for k in range(len(dates))],
             (units, 108, "Units"), (units + 70, 108, "Reference")]]
    y = 125
    for name, values, unit, ref in values_by_row:
        rows.append([(40, y, name), *[(160 + step * k, y, v) for k, v in enumerate(values)],
                     (units, y, unit), (units + 70, y, ref)])
        y += 14
    return document(page(rows))


TABLE = [("Haemoglobin", ["128", "122", "109 L"], "g/L", "(115-165)"),
         ("WCC", ["6.1", "5.8", "6.4"], "x10^9/L", "(4.0-11.0)"),
         ("Platelets", ["288", "301", "352"], "x10^9/L", "(150-450)")]


def test_the_latest_dates_column_is_the_result_and_the_others_are_not_rows():
    rows = document_rows(_cumulative(["12/09/23", "18/07/24", "04/03/25"], TABLE))
    assert [(r.name, r.value, r.units, r.range_text) for r in rows] == [
        ("Haemoglobin", "109 L", "g/L", "(115-165)"), ("WCC", "6.4", "x10^9/L", "(4.0-11.0)"),
        ("Platelets", "352", "x10^9/L", "(150-450)")]


def test_the_latest_date_may_stand_first():
    rows = document_rows(_cumulative(["04/03/25", "18/07/24", "12/09/23"], TABLE))
    assert [r.value for r in rows] == ["128", "6.1", "288"]


def test_dates_that_order_differently_read_day_or_month_first_make_no_table():
    # 03/04/24 is 3 April day first but 4 March month first: which column is today's is unknown,
    # and a previous result must never be given as the result.
    rows = document_rows(_cumulative(["03/04/24", "04/03/24"],
                                     [(n, v[:2], u, r) for n, v, u, r in TABLE]))
    assert rows == []



def test_explain_names_the_dates_line_of_a_cumulative_table():
    from parser.explain import explain_document, format_explanation

    text = format_explanation(explain_document(_cumulative(["12/09/23", "18/07/24", "04/03/25"], TABLE)))
    assert "'Date 12/09/23 18/07/24 04/03/25': dates heading a cumulative table's columns" in text
    assert "read: 'Haemoglobin' = '109 L'" in text


def _netcare_page(number, tables):
    dates = ["2025-Mar-14 09:12", "2024-Nov-02 08:40", "2024-Jun-19 10:05"]
    rows, y = [[(40, 40, "WOLFE-LINDQVIST, Brandon James")]], 80
    for title, table in tables:
        rows += [[(40, y, title)], [(140 + 110 * k, y + 15, d) for k, d in enumerate(dates)],
                 [(40, y + 28, "Test"), *[(140 + 110 * k, y + 28, f"C25-07{k}-1042") for k in range(3)],
                  (480, y + 28, "Units"), (530, y + 28, "Range")]]
        y += 45
        for name, values, unit, ref in table:
            rows.append([(40, y, name), *[(140 + 110 * k, y, v) for k, v in enumerate(values)],
                         (480, y, unit), (530, y, ref)])
            y += 14
        y += 20
    return page(rows, number=number)


def test_dates_with_month_names_and_times_head_the_columns_over_each_table():
    """Alberta Netcare kind: "2025-Mar-14 09:12" over each table, on every page (repeated, as a
    page's running text is), lab numbers and "Units  Range" on the line under the dates."""
    sodium = [("Sodium", ["136", "139", "140"], "mmol/L", "133-145")]
    glucose = [("Glucose", ["9.7", "8.2", "7.4"], "mmol/L", "3.3-11.0")]
    doc = document(_netcare_page(1, [("Complete Blood Count", TABLE[:2]), ("Electrolytes", sodium)]),
                   _netcare_page(2, [("Glucose", glucose)]))
    assert [(r.page, r.name, r.value) for r in document_rows(doc)] == [
        (1, "Haemoglobin", "128"), (1, "WCC", "6.1"), (1, "Sodium", "136"), (2, "Glucose", "9.7")]


def test_units_and_range_labelled_left_of_the_dates():
    """Swiss Kumulativbericht: "Analyse  Einheit  Referenzbereich" then the dates, a time under
    each; a section heading and a specimen line between the header and the rows."""
    rows = [[(365, 174, "21.03.25"), (447, 174, "19.03.25"), (527, 174, "17.03.25")],
            [(38, 182, "Analyse"), (180, 182, "Einheit"), (248, 182, "Referenzbereich"), (377, 182, "06:30"),
             (458, 182, "06:20"), (537, 182, "21:48")],
            [(38, 200, "Hämatologie I", 10.0, True)],
            [(38, 212, "Material: EDTA-Blut")],
            [(38, 226, "Hämoglobin"), (180, 226, "g/l"), (248, 226, "117-157"), (378, 226, "104*"), (464, 226, "99*"),
             (538, 226, "112*")],
            [(38, 240, "MCV"), (180, 240, "fl"), (248, 240, "80-98"), (378, 240, "92"), (464, 240, "91"),
             (538, 240, "92")]]
    got = document_rows(document(page(rows)))
    assert [(r.name, r.value, r.units, r.range_text, r.panel) for r in got] == [
        ("Hämoglobin", "104*", "g/l", "117-157", "Hämatologie I"), ("MCV", "92", "fl", "80-98", "Hämatologie I")]


def _flowsheet(dates, rows_by_name, labels=("Result Name", "Ref Range", "Units")):
    """Cerner PowerChart flowsheet kind: "Result Name  Ref Range  Units" on the dates' line,
    range and unit LEFT of the value columns, "Current" over the latest one."""
    rows = [[(480, 82, "Current", 8)],
            [(31, 95, labels[0], 8), (162, 95, labels[1], 8), (230, 95, labels[2], 8),
             *[(300 + 90 * k, 95, d, 8) for k, d in enumerate(dates)]],
            [(31, 110, "Chemistry", 8)]]
    y = 124
    for name, ref, unit, values in rows_by_name:
        rows.append([(31, y, name, 8), (162, y, ref, 8), (230, y, unit, 8),
                     *[(300 + 90 * k, y, v, 8) for k, v in enumerate(values) if v]])
        y += 12
    return document(page(rows))


FLOWSHEET = [("Sodium Lvl", "135-145", "mmol/L", ["131 L", "132 L", "133 L"]),
             ("eGFR CKD-EPI 2021", ">=60", "mL/min/1.73m2", ["39 L", "46 L", "52 L"]),
             ("Magnesium Lvl", "1.6-2.6", "mg/dL", ["", "1.7", "1.9"])]


def test_a_flowsheet_prints_the_other_columns_labels_on_the_dates_line():
    rows = document_rows(_flowsheet(["01/14/2025 22:47", "01/15/2025 04:15", "01/16/2025 04:30"], FLOWSHEET))
    assert [(r.name, r.value, r.units, r.range_text) for r in rows] == [
        ("Sodium Lvl", "133 L", "mmol/L", "135-145"),
        ("eGFR CKD-EPI 2021", "52 L", "mL/min/1.73m2", ">=60"),  # the year is the name's
        ("Magnesium Lvl", "1.9", "mg/dL", "1.6-2.6")]


def test_words_before_the_dates_that_are_not_column_labels_make_no_dates_line():
    from parser.layout.cumulative import dates_line
    from parser.lines import page_lines

    doc = _flowsheet(["01/14/2025", "01/15/2025"], FLOWSHEET, labels=("Drawn by", "nurse", "Units"))
    line = next(l for l in page_lines(doc.pages[0]) if "01/14/2025" in l.text)
    assert dates_line(line) is None


def test_the_column_headed_current_is_the_result_wherever_it_stands():
    # "Attuale 04/03/25": the current column's label printed with its date in one cell, last.
    rows = document_rows(_cumulative(["12/09/23", "18/07/24", "Attuale 04/03/25"], TABLE, step=90))
    assert [r.value for r in rows] == ["109 L", "6.4", "352"]
    # An undated "Aktuell" column first, the earlier samplings dated after it.
    rows = document_rows(_cumulative(["Aktuell", "18/07/24", "12/09/23"], TABLE))
    assert [r.value for r in rows] == ["128", "6.1", "288"]


def test_a_current_label_over_a_column_older_than_another_makes_no_table():
    # The label and the dates disagree: a previous result must never be given as the result.
    rows = document_rows(_cumulative(["Current 12/09/23", "18/07/24", "04/03/25"], TABLE, step=90))
    assert rows == []


def _labelled_both_sides(dates, above, after_labels, rows_by_name, size=8.5):
    """A hospital cumulative report: the names' label, then the dates (a line of labels over
    them may name this report's column), then the flag, unit and range labels; the previous
    result printed BEFORE the current one, its flag after it."""
    x_dates = [230, 290]
    rows = []
    if above:
        rows.append([(x, 160, label, size) for x, label in zip(x_dates, above) if label])
    header = [(37, 170, "Analyse", size), *[(x, 170, d, size) for x, d in zip(x_dates, dates)]]
    header += [(x, 170, label, size) for x, label in after_labels]
    rows.append(header)
    y = 190
    for name, previous, current, unit, ref in rows_by_name:
        rows.append([(37, y, name), (240, y, previous), (298, y, current), (398, y, unit), (450, y, ref)])
        y += 11
    return document(page(rows))


LABELLED_ROWS = [("Leucocytes", "6,4", "8,9", "G/L", "4,0 - 10,0"),
                 ("Hématies", "3,98", "3,71 bas", "T/L", "3,9 - 5,2"),
                 ("Plaquettes", "355", "412 élevé", "G/L", "150 - 400")]


def test_labels_after_the_dates_set_close_in_one_cell_are_read_each():
    # "Interprétation Unité" printed as one cell (single-spaced), the range's label apart.
    doc = _labelled_both_sides(["12/11/24", "14/03/25"], None,
                               [(337, "Interprétation Unité"), (450, "Valeurs de référence")], LABELLED_ROWS)
    assert [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)] == [
        ("Leucocytes", "8,9", "G/L", "4,0 - 10,0"), ("Hématies", "3,71 bas", "T/L", "3,9 - 5,2"),
        ("Plaquettes", "412 élevé", "G/L", "150 - 400")]


def test_dates_between_the_names_label_and_the_other_labels_head_a_cumulative_table():
    # German wording, a label the vocabulary lacks over the earlier date ("Vorsorge") and the
    # current column's label over the latest; the flag column labelled after the dates.
    rows = [("Gamma-GT", "39", "68 erhöht", "U/l", "< 40"), ("GOT (ASAT)", "26", "31", "U/l", "< 35")]
    doc = _labelled_both_sides(["08.03.2022", "11.03.2025"], ["Vorsorge", "Aktuell"],
                               [(398, "Einheit"), (450, "Referenzbereich"), (530, "Bewertung")], rows)
    assert [(r.name, r.value, r.units) for r in document_rows(doc)] == [
        ("Gamma-GT", "68 erhöht", "U/l"), ("GOT (ASAT)", "31", "U/l")]


def test_a_label_over_the_dates_disagreeing_with_them_makes_no_table():
    # "Current" printed over the OLDER date: which value is today's is unknown, so no row
    # takes a previous result for its value.
    doc = _labelled_both_sides(["12/11/24", "14/03/25"], ["Current", None],
                               [(345, "Flag Units"), (450, "Reference Range")], LABELLED_ROWS)
    assert all(r.value not in ("6,4", "3,98", "355") for r in document_rows(doc))
    assert not [r for r in document_rows(doc) if not r.ambiguous]


def test_a_label_over_the_dates_decides_when_the_dates_read_both_ways():
    # 03/04/24 and 04/03/24 order differently read day or month first; "Aktuell" over the
    # second says which column is this report's.
    doc = _labelled_both_sides(["03/04/24", "04/03/24"], [None, "Aktuell"],
                               [(398, "Units"), (450, "Reference Range")], LABELLED_ROWS)
    assert [r.value for r in document_rows(doc)] == ["8,9", "3,71 bas", "412 élevé"]


def test_a_date_run_on_into_the_next_label_still_heads_its_column():
    # OCR sets a narrow gap as a space: "11.03.2025 Bewertung" comes as one cell.
    rows = [("Gamma-GT", "39", "68", "U/l", "< 40"), ("Kreatinin", "0,81", "0,86", "mg/dl", "0,50 - 0,90")]
    for dates, after in ((["08.03.2022", "11.03.2025 Bewertung"], [(398, "Einheit"), (450, "Referenzbereich")]),
                         (["12/11/24", "14/03/25 Flag"], [(398, "Units"), (450, "Reference range")])):
        doc = _labelled_both_sides(dates, None, after, rows)
        assert [(r.name, r.value) for r in document_rows(doc)] == [("Gamma-GT", "68"), ("Kreatinin", "0,86")], dates
