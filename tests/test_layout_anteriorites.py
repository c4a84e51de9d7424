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


def _previous_first(labels, rows):
    """The previous result's column printed BEFORE the result's (its label one of the
    vocabulary's, in any language), then unit and range."""
    name, previous, result, unit, ref = labels
    lines = [[(40, 80, name), (200, 80, previous), (300, 80, result), (370, 80, unit), (440, 80, ref)]]
    for k, (test, old, value, units, range_text) in enumerate(rows):
        lines.append([(40, 100 + 13 * k, test), (205, 100 + 13 * k, old), (300, 100 + 13 * k, value),
                      (370, 100 + 13 * k, units), (440, 100 + 13 * k, range_text)])
    return document(page(lines))


PREVIOUS_FIRST = [("Gamma-GT", "39", "68", "U/l", "< 40"), ("Kreatinin", "0,81", "0,86", "mg/dl", "0,50 - 0,90"),
                  ("TSH", "2,05", "1,74", "mU/l", "0,40 - 4,00")]


def test_a_previous_result_labelled_before_the_result_is_never_the_value():
    for labels in (("Parameter", "Letzte Untersuchung", "Ergebnis", "Einheit", "Referenzbereich"),
                   ("Analisi", "Ultimo risultato", "Risultato", "Unità", "Valori di riferimento"),
                   ("Prueba", "Último resultado", "Resultado", "Unidades", "Valores de referencia"),
                   ("Analyse", "Résultat précédent", "Résultat", "Unité", "Valeurs de référence"),
                   ("Test", "Prior value", "Result", "Units", "Reference range")):
        rows = document_rows(_previous_first(labels, PREVIOUS_FIRST))
        assert [(r.name, r.value, r.units) for r in rows] == [
            (name, value, unit) for name, _, value, unit, _ in PREVIOUS_FIRST], labels[1]
