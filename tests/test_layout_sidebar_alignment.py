

def test_a_labelled_note_in_one_run_across_the_columns_is_not_a_row():
    """'Diagnosi di diabete: HbA1c ≥ 48 mmol/mol.' under a row: a label, a threshold and a
    full stop, set without column gaps; a single-spaced row beside it stays a row."""
    rows = [
        [(40, 100, "Esame"), (250, 100, "Risultato"), (330, 100, "U.M."), (420, 100, "Valori di riferimento")],
        [(40, 120, "Emoglobina glicata"), (250, 120, "41"), (330, 120, "mmol/mol"), (420, 120, "20 - 42")],
        [(50, 135, "Diagnosi di diabete: HbA1c ≥ 48 mmol/mol.")],
        [(40, 150, "Glucosio 96 mg/dL")],
    ]
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value) for r in results] == [("Emoglobina glicata", "41"),
                                                         ("Glucosio", "96")]
