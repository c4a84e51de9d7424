"""What a reviewer needs beyond editing rows: a queue to pick work from, report metadata and
interpretations to correct, a LOINC re-match after a renamed row, notes that say which printed
value to believe, and a completion that does not wave marked fields through."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from loinc.annotate import match_result
from parser.models import LabReportResult, LoincMatch, ReportData, ResultMetadata
from service.review_tables import ReviewClaim
from service.tables import StoredFile
from tests.review.conftest import glucose_row, login, sample_report

API = "/lab_report/v1/review"


def _named(app, job_id: str, name: str) -> None:
    with app.state.database.session_scope() as session:
        session.add(StoredFile(job_id=job_id, position=0, path=f"{job_id}/0.pdf", media_type="application/pdf",
                               size=1, sha256="0" * 64, original_name=name))


def _report(lab: str | None, collected: str | None, rows: int = 1) -> ReportData:
    return ReportData(
        metadata=ResultMetadata(lab_name=lab, date_collected=collected),
        results=[glucose_row(extraction_confidence=0.5)] * rows,
    )


def test_queue_shows_file_lab_date_pages_and_sorts_and_filters(app, client, team, headers, pending_job):
    north = pending_job(team, _report("North Lab", "2024-03-02", rows=1), age=timedelta(hours=3))
    south = pending_job(team, _report("South Clinic", "2024-01-15", rows=3), age=timedelta(hours=1))
    unnamed = pending_job(team, _report(None, None), age=timedelta(hours=2))
    _named(app, north, "north-march.pdf")
    _named(app, south, "south-jan.pdf")

    items = client.get(f"{API}/queue", headers=headers).json()
    assert [item["job_id"] for item in items] == [north, unnamed, south]  # oldest first
    first = items[0]
    assert (first["file_name"], first["lab_name"], first["date_collected"], first["page_count"]) == (
        "north-march.pdf", "North Lab", "2024-03-02", 1)
    assert {item["job_id"]: item["rows_to_check"] for item in items} == {north: 1, unnamed: 1, south: 3}

    def order(**params) -> list[str]:
        response = client.get(f"{API}/queue", params=params, headers=headers)
        assert response.status_code == 200, response.text
        return [item["job_id"] for item in response.json()]

    assert order(sort="date_collected") == [south, north, unnamed]  # missing values last
    assert order(sort="-date_collected") == [north, south, unnamed]
    assert order(sort="-to_check") == [south, north, unnamed]  # 3 marked rows, then 1 each
    assert order(sort="lab_name") == [north, south, unnamed]
    assert order(q="clinic") == [south]
    assert order(q="north MARCH") == [north]
    refused = client.get(f"{API}/queue", params={"sort": "patient"}, headers=headers)
    assert refused.status_code == 422 and "created_at" in refused.json()["detail"]


def test_queue_page_lists_what_a_reviewer_picks_work_by(app, client, team, pending_job, add_reviewer):
    job_id = pending_job(team, _report("North Lab", "2024-03-02"), age=timedelta(hours=5))
    pending_job(team, _report("South Clinic", "2024-01-15"))
    _named(app, job_id, "north-march.pdf")
    _, password = add_reviewer(team, "ria@example.org")
    login(client, "ria@example.org", password)

    page = client.get("/review/queue").text
    for shown in ("north-march.pdf", "North Lab", "2024-03-02", "5 h"):
        assert shown in page
    filtered = client.get("/review/queue", params={"q": "south"}).text
    assert "South Clinic" in filtered and "North Lab" not in filtered
    by_date = client.get("/review/queue", params={"sort": "date_collected"}).text
    assert by_date.index("2024-01-15") < by_date.index("2024-03-02")


def test_metadata_is_corrected_and_audited(client, team, headers, pending_job):
    job_id = pending_job(team, ReportData(metadata=ResultMetadata(dob="1908-02-03", lab_name="Nrth Lab"),
                                          results=sample_report().results))

    changed = client.patch(f"{API}/{job_id}/metadata",
                           json={"dob": "1980-02-03", "lab_name": "North Lab", "gender": "female"}, headers=headers)

    assert changed.status_code == 200, changed.text
    assert changed.json()["metadata"]["dob"] == "1980-02-03"
    stored = client.get(f"{API}/{job_id}", headers=headers).json()["job"]["data"]["metadata"]
    assert (stored["dob"], stored["lab_name"], stored["gender"]) == ("1980-02-03", "North Lab", "female")
    history = client.get(f"{API}/{job_id}/history", headers=headers).json()
    assert {(h["field"], h["before"], h["after"]) for h in history} == {
        ("metadata.dob", "1908-02-03", "1980-02-03"),
        ("metadata.lab_name", "Nrth Lab", "North Lab"),
        ("metadata.gender", None, "female"),
    }
    for body, text in [({"dob": "03/02/1980"}, "YYYY-MM-DD"), ({"dob": "1980-02-31"}, "YYYY-MM-DD"),
                       ({"gender": "x"}, "gender"), ({"ward": "3"}, "cannot be changed")]:
        refused = client.patch(f"{API}/{job_id}/metadata", json=body, headers=headers)
        assert refused.status_code == 422 and text in refused.json()["detail"], refused.text


def test_interpretation_is_visible_and_correctable(client, team, headers, pending_job):
    job_id = pending_job(team)
    changed = client.patch(f"{API}/{job_id}/results/0", json={"interpretation": "abnormal"}, headers=headers)
    assert changed.status_code == 200, changed.text
    assert changed.json()["result"]["interpretation"] == "abnormal"
    history = client.get(f"{API}/{job_id}/history", headers=headers).json()
    assert [(h["field"], h["before"], h["after"]) for h in history] == [("interpretation", "normal", "abnormal")]


def test_a_renamed_row_is_matched_again_and_shows_the_new_candidates(app, client, team, headers, pending_job):
    from service.tables import TeamLoincAlias

    misread = LabReportResult(
        test_name="hog Protein", value="7.1", units="g/dL", min_reference_range=6.4, max_reference_range=8.3,
        loinc_matches=[LoincMatch(loinc_code="2885-2", loinc_name="Protein [Mass/volume] in Serum or Plasma",
                                  display_name="Protein", confidence_score=0.34)],
        loinc_match_status="needs_review",
    )
    job_id = pending_job(team, ReportData(results=[misread]))

    renamed = client.patch(f"{API}/{job_id}/results/0", json={"test_name": "Total Protein"}, headers=headers)

    assert renamed.status_code == 200, renamed.text
    result = renamed.json()["result"]
    assert result["loinc_matches"][0]["loinc_code"] == "2885-2"
    assert result["loinc_matches"][0]["confidence_score"] > 0.34  # the new name's score, not the old
    assert len(result["loinc_matches"]) > 1  # the candidates the reviewer can pick from
    rematch = next(c for c in renamed.json()["changes"] if c["action"] == "rematch")
    assert rematch["before"]["loinc_code"] == "2885-2" and rematch["after"]["loinc_code"] == "2885-2"
    # The matcher's own answer is no reviewer's choice: it teaches the team nothing.
    with app.state.database.session_scope() as session:
        assert session.query(TeamLoincAlias).count() == 0
    unit_fixed = client.patch(f"{API}/{job_id}/results/0", json={"units": "mmol/L"}, headers=headers)
    expected = match_result(LabReportResult(test_name="Total Protein", value="7.1", units="mmol/L"))
    assert [m["loinc_code"] for m in unit_fixed.json()["result"]["loinc_matches"]] == [
        entry.code for entry, _score in expected.matches[:5]]
    # Setting the code in the same change keeps the reviewer's code.
    chosen = client.patch(f"{API}/{job_id}/results/0", json={"test_name": "Protein", "loinc_code": "2885-2"},
                          headers=headers)
    assert not any(c["action"] == "rematch" for c in chosen.json()["changes"])


def test_a_contradicting_flag_says_which_to_believe(client, team, headers, pending_job):
    platelets = LabReportResult(
        test_name="Platelet Count", value="20000", units="/cumm", min_reference_range=150000,
        max_reference_range=410000, source_flag="Normal", loinc_match_status="auto_match",
        loinc_matches=[LoincMatch(loinc_code="777-3", loinc_name="Platelets", display_name="Platelets",
                                  confidence_score=0.95)],
    )
    job_id = pending_job(team, ReportData(results=[glucose_row(), platelets]))

    body = client.get(f"{API}/{job_id}", headers=headers).json()

    assert (1, "source_flag") in {(u["index"], u["field"]) for u in body["uncertain"]}
    [note] = [n for n in body["notes"] if n["index"] == 1 and n["field"] == "source_flag"]
    assert note["note"].startswith("printed flag 'Normal' but 20000 is below the range 150000-410000: "
                                   "check the value and the flag")
    assert "trust the range" in note["note"]


def test_completion_with_marked_fields_asks_once_and_records_the_confirmation(client, team, headers, pending_job):
    job_id = pending_job(team)
    marked = {(u["index"], u["field"]) for u in client.get(f"{API}/{job_id}", headers=headers).json()["uncertain"]}
    assert marked

    asked = client.post(f"{API}/{job_id}/complete", headers=headers)

    assert asked.status_code == 409
    assert f"{len(marked)} fields are still marked uncertain" in asked.json()["detail"]
    assert client.get(f"{API}/{job_id}/history", headers=headers).json() == []  # nothing recorded yet
    done = client.post(f"{API}/{job_id}/complete", json={"confirm_uncertain": True}, headers=headers)
    assert done.status_code == 200, done.text
    history = client.get(f"{API}/{job_id}/history", headers=headers).json()
    confirmed = {(h["result_index"], h["field"]) for h in history if h["action"] == "confirm"}
    assert confirmed == marked
    value_confirmation = next(h for h in history if h["action"] == "confirm" and h["field"] == "value")
    assert value_confirmation["before"] == "135" and value_confirmation["after"] == "confirmed as read"
    assert history[-1]["action"] == "complete"


def test_a_job_with_nothing_marked_completes_without_asking(client, team, headers, pending_job):
    job_id = pending_job(team, ReportData(results=[glucose_row()]), needs_human_review=True)
    assert client.get(f"{API}/{job_id}", headers=headers).json()["uncertain"] == []
    assert client.post(f"{API}/{job_id}/complete", headers=headers).status_code == 200


def test_reading_a_job_claims_nothing_an_edit_does(app, client, team, pending_job, add_reviewer):
    job_id = pending_job(team)
    _, password_a = add_reviewer(team, "ana@example.org")
    _, password_b = add_reviewer(team, "ben@example.org")
    with TestClient(app) as second:
        csrf_a = login(client, "ana@example.org", password_a)
        csrf_b = login(second, "ben@example.org", password_b)
        assert client.get(f"/review/jobs/{job_id}").status_code == 200
        assert client.get(f"{API}/{job_id}").status_code == 200
        with app.state.database.session_scope() as session:
            assert session.get(ReviewClaim, job_id) is None
        assert second.get(f"{API}/queue").json()[0]["claimed_by"] is None

        edited = client.patch(f"{API}/{job_id}/results/0", json={"value": "96"}, headers={"x-csrf-token": csrf_a})
        assert edited.status_code == 200
        assert second.get(f"{API}/queue").json()[0]["claimed_by"] == "ana@example.org"
        blocked = second.patch(f"{API}/{job_id}/metadata", json={"lab_name": "X"}, headers={"x-csrf-token": csrf_b})
        assert blocked.status_code == 409


def test_the_jobs_review_reasons_follow_the_corrections(client, team, headers, pending_job):
    job_id = pending_job(team, needs_human_review=True)
    marked = client.get(f"{API}/{job_id}", headers=headers).json()["reasons"]
    assert any("implausible" in reason for reason in marked)  # Hb 135 g/dL

    client.patch(f"{API}/{job_id}/results/1", json={"value": "13.5"}, headers=headers)

    job = client.get(f"/lab_report/v1/parser/job/{job_id}", headers=headers).json()
    assert job["review_reasons"] == client.get(f"{API}/{job_id}", headers=headers).json()["reasons"]
    assert "needs_human_review was requested" in job["review_reasons"]
    assert not any("implausible" in reason for reason in job["review_reasons"])
