import json

from typer.testing import CliRunner

from cli.loinc_cmd import app

runner = CliRunner()


def test_match_answers_every_line_in_order():
    lines = ["Hemoglobin\tg/dL", "", "@@@", "SGPT", "Neutrophils\t%", "   "]
    result = runner.invoke(app, ["match", "--top", "2"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert [a["query"] for a in answers] == ["Hemoglobin", "", "@@@", "SGPT", "Neutrophils", ""]
    assert [a["unit"] for a in answers] == ["g/dL", None, None, None, "%", None]
    assert answers[0]["loinc_match_status"] == "auto_match"
    assert answers[0]["loinc_matches"][0]["loinc_code"] == "718-7"
    assert answers[1] == {"query": "", "unit": None, "loinc_match_status": "no_match", "loinc_matches": []}
    assert answers[2]["loinc_match_status"] == "no_match"
    assert answers[3]["loinc_matches"][0]["loinc_code"] == "1742-6"
    assert answers[4]["loinc_matches"][0]["loinc_code"] in ("26511-6", "770-8")  # method siblings
    assert all(len(a["loinc_matches"]) <= 2 for a in answers)
    assert set(answers[0]["loinc_matches"][0]) == {"loinc_code", "loinc_name", "display_name", "aliases",
                                                   "confidence_score"}


def test_search_prints_a_table():
    result = runner.invoke(app, ["search", "alanine aminotransferase", "--top", "3"])
    assert result.exit_code == 0
    assert "1742-6" in result.stdout


def test_search_by_code_and_nothing_found():
    assert "Hemoglobin" in runner.invoke(app, ["search", "718-7"]).stdout
    missing = runner.invoke(app, ["search", "@@@"])
    assert missing.exit_code == 1


def test_match_survives_bytes_that_are_not_utf8():
    result = runner.invoke(app, ["match"], input=b"Creatinine\tmg/dL\n\xff\xfe garbage\nSodium\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 3
    assert answers[0]["loinc_matches"][0]["loinc_code"] == "2160-0"
    assert answers[1]["loinc_match_status"] == "no_match"


def test_match_lists_each_alias_once():
    # The table repeats a label for every fluid and unit it was seen with (WBC: three times).
    names = ["WBC", "Glucose\tmg/dL", "Creatinine"]
    result = runner.invoke(app, ["match"], input="\n".join(names) + "\n")
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines():
        for match in json.loads(line)["loinc_matches"]:
            folded = [alias.casefold() for alias in match["aliases"]]
            assert len(folded) == len(set(folded)), match
    matches = json.loads(result.stdout.splitlines()[0])["loinc_matches"]
    assert matches[0]["loinc_code"] == "26464-8"  # the method-less sibling leads (issue 10)
    wbc = next(m for m in matches if m["loinc_code"] == "6690-2")
    assert "White Blood Cells" in wbc["aliases"]
