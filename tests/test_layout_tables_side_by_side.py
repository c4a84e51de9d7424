"""Two tables side by side, each with its own header and its own line rhythm."""

from page_builder import document, page

from parser.layout import document_rows

LEFT = [(120, "Haemoglobin", "11.2", "g/dL", "13.0 - 17.0"), (131, "Mean Corpuscular", "88.3", "fL", "83 - 101"),
        (139.5, "Volume (MCV)", "", "", ""), (150, "Mean Corpuscular", "28.6", "pg", "27 - 32"),
        (158.5, "Haemoglobin (MCH)", "", "", ""), (169, "Mean Corpuscular", "32.4", "g/dL", "31.5 - 34.5"),
        (177.5, "Haemoglobin", "", "", ""), (186, "Concentration (MCHC)", "", "", ""),
        (197, "Platelet Count", "2.12", "lakhs/cumm", "1.5 - 4.1")]
RIGHT = ["Blood Urea", "Serum Creatinine", "Serum Uric Acid", "Serum Sodium", "Serum Potassium", "Serum Chloride",
         "Serum Calcium"]


def _two_tables(offset: float, spacing: float):
    """The left table's names wrap on tight lines; the right one's rows run `spacing` apart,
    starting `offset` lower, so some of its rows share a text line with a wrapped name."""
    header = [(36, 100, "Investigation"), (135, 100, "Result"), (175, 100, "Units"), (229, 100, "Ref. Range"),
              (306, 100, "Investigation"), (405, 100, "Result"), (444, 100, "Units"), (498, 100, "Ref. Range")]
    rows = [header]
    for y, name, value, unit, ref in LEFT:
        rows.append([(36, y, name), *[(x, y, t) for x, t in ((135, value), (175, unit), (229, ref)) if t]])
    for k, name in enumerate(RIGHT):
        y = 120 + offset + spacing * k
        rows.append([(306, y, name), (405, y, f"{k + 2}.5"), (444, y, "mmol/L"), (498, y, "1.0 - 9.0")])
    return document(page(rows))


def test_a_name_wrapped_on_a_line_the_next_table_shares_stays_its_rows():
    for offset, spacing in ((3.75, 11.5), (1.5, 12.0), (4.5, 10.5)):
        rows = document_rows(_two_tables(offset, spacing))
        left = [(r.name, r.value) for r in rows if r.words[0].x0 < 300]
        assert left == [("Haemoglobin", "11.2"), ("Mean Corpuscular Volume (MCV)", "88.3"),
                        ("Mean Corpuscular Haemoglobin (MCH)", "28.6"),
                        ("Mean Corpuscular Haemoglobin Concentration (MCHC)", "32.4"),
                        ("Platelet Count", "2.12")], (offset, spacing)
        assert [r.name for r in rows if r.words[0].x0 > 300] == RIGHT
