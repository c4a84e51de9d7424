"""Cumulative tables: value columns headed by sampling dates; the latest date is the result."""

from page_builder import document, page

from parser.layout import document_rows


def _cumulative(dates, values_by_row):
    rows = [[(40, 80, "FULL BLOOD COUNT")],
            [(126, 95, "Date"), *[(160 + 60 * k, 95, d) for k, d in enumerate(dates)]],
            [(126, 108, "Lab No"), *[(160 + 60 * k, 108, f"2338114{k}") for k in range(len(dates))],
             (350, 108, "Units"), (420, 108, "Reference")]]
    y = 125
    for name, values, unit, ref in values_by_row:
        rows.append([(40, y, name), *[(160 + 60 * k, y, v) for k, v in enumerate(values)],
                     (350, y, unit), (420, y, ref)])
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
