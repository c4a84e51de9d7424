"""Previous-results columns under one label ("Antériorités"), each column headed by its date
printed on a line under the header (Hexalis-kind French reports): the dates belong to the
header's previous columns, never head a cumulative table; the result column stays the result."""

from page_builder import document, page

from parser.layout import document_rows
from parser.layout.measures import split_measurements
from parser.layout.rows import RawRow


def _report(rows):
    lines = [[(40, 80, "Analyse"), (230, 80, "Résultat"), (320, 80, "Valeurs de référence"),
              (450, 80, "Antériorités")],
             [(450, 92, "12/09/2024"), (515, 92, "05/02/2024")]]
    y = 110
    for name, flag, value, second, ref, old1, old2 in rows:
        line = [(40, y, name), (230, y, value), (320, y, ref), (455, y, old1), (520, y, old2)]
        if flag:
            line.append((214, y, flag))
        if second:
            line.append((270, y, second))
        lines.append(line)
        y += 14
    return document(page(lines))


ROWS = [("Hématies", "", "4,61 T/l", None, "4,30 - 5,70", "4,70", "4,74"),
        ("Leucocytes", "*", "10,84 G/l", None, "4,00 - 10,00", "7,92", "6,80"),
        ("Neutrophiles", "*", "71,2 %", "7,72 G/l", "1,50 - 7,00", "4,91", "4,02"),
        ("Lymphocytes", "", "19,6 %", "2,12 G/l", "1,00 - 4,00", "2,19", "2,14"),
        ("Plaquettes", "", "246 G/l", None, "150 - 400", "231", "240")]


def test_dates_under_the_previous_label_leave_the_result_column_the_result():
    rows = document_rows(_report(ROWS))
    got = [(r.name, r.value, r.units, r.range_text, r.flag) for r in rows]
    assert got[0] == ("Hématies", "4,61 T/l", None, "4,30 - 5,70", None)
    assert got[1] == ("Leucocytes", "10,84 G/l", None, "4,00 - 10,00", "*")
    assert [r.value for r in rows if r.name == "Plaquettes"] == ["246 G/l"]
    assert not any(r.value in ("4,74", "4,70", "240", "231") for r in rows)


def test_share_and_count_with_two_dated_previous_columns_are_two_results():
    rows = [(r.name, r.value, r.units, r.range_text, r.flag) for r in document_rows(_report(ROWS))]
    assert ("Neutrophiles", "71,2", "%", None, None) in rows
    assert ("Neutrophiles", "7,72", "G/l", "1,50 - 7,00", "*") in rows
    assert ("Lymphocytes", "2,12", "G/l", "1,00 - 4,00", None) in rows


def test_the_flag_goes_with_the_measurement_that_has_the_range():
    row = RawRow(page=1, name="Neutrophiles", value="71,2", units="%", second="7,72 G/l",
                 range_text="1,50 - 7,00", flag="*")
    share, count = split_measurements(row)
    assert (share.flag, count.flag) == (None, "*")
    row = RawRow(page=1, name="Neutrophiles", value="61", units="%", second="4,5 G/l",
                 range_text="40 - 75", flag="H")
    share, count = split_measurements(row)
    assert (share.flag, count.flag) == ("H", None)
