"""`GET /lab_report/v1/parser/job/{id}/fhir` end to end: upload, review with a correction,
complete, and read the Bundle; 409 without data, 404 for another team, in the OpenAPI page."""

from __future__ import annotations

import pytest
from fhir.resources.R4B.bundle import Bundle

from service.fhir import FHIR_JSON
from service.tables import Job, User
from tests.service.helpers import DIGITAL_REPORT, make_team, upload, wait_for_job

JOBS = "/lab_report/v1/parser/job"
REVIEW = "/lab_report/v1/review"


@pytest.fixture
def team(client, app, settings):
    return make_team(app, settings, "alpha")


@pytest.fixture
def headers(team) -> dict[str, str]:
    return {"x-service-api-key": team.api_key}


@pytest.fixture
def user_id(client, headers) -> str:
    response = client.post("/v2/user", json={"client_user_id": "fhir-ref-1"}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["user_id"]


def _bundle(client, headers, job_id: str) -> dict:
    response = client.get(f"{JOBS}/{job_id}/fhir", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(FHIR_JSON)
    Bundle.model_validate_json(response.content)  # a valid FHIR Bundle
    return response.json()


def _resources(bundle: dict, kind: str) -> list[dict]:
    return [e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == kind]


def test_review_correction_flows_into_a_final_bundle(client, headers, user_id):
    pdf = DIGITAL_REPORT.read_bytes()
    files = [("cbc.pdf", pdf, "application/pdf")]
    job = upload(client, headers, user_id, files, needs_human_review=True).json()
    job = wait_for_job(client, headers, job["id"])
    assert job["status"] == "pending_review"
    results = job["data"]["results"]

    draft = _bundle(client, headers, job["id"])
    (report,) = _resources(draft, "DiagnosticReport")
    assert report["status"] == "preliminary"
    observations = _resources(draft, "Observation")
    assert [o["code"]["text"] for o in observations] == [r["test_name"] for r in results]
    assert all(o["status"] == "preliminary" for o in observations)
    assert _bundle(client, headers, job["id"]) == draft  # stable ids: a re-read is the same Bundle

    # The reviewer corrects the first row's value and unit, and its LOINC code.
    fix = {"value": "12.5", "units": "gm/dl", "loinc_code": "718-7"}
    response = client.patch(f"{REVIEW}/{job['id']}/results/0", json=fix, headers=headers)
    assert response.status_code == 200, response.text
    done = client.post(f"{REVIEW}/{job['id']}/complete", json={"confirm_uncertain": True}, headers=headers)
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "completed"

    final = _bundle(client, headers, job["id"])
    (report,) = _resources(final, "DiagnosticReport")
    assert report["status"] == "final"
    first = _resources(final, "Observation")[0]
    assert first["status"] == "final"
    assert first["valueQuantity"]["value"] == 12.5
    assert first["valueQuantity"]["unit"] == "gm/dl" and first["valueQuantity"]["code"] == "g/dL"
    assert first["code"]["coding"][0] == {
        "system": "http://loinc.org", "code": "718-7", "display": first["code"]["coding"][0]["display"]}
    assert first["id"] == _resources(draft, "Observation")[0]["id"]


def test_no_data_is_409_and_another_teams_job_is_404(client, app, settings, headers, user_id):
    with app.state.database.session_scope() as session:
        team_id = session.get(User, user_id).team_id
        waiting = Job(team_id=team_id, user_id=user_id, status="started", needs_human_review=False,
                      is_reviewed=False, attempts=0, page_count=1)
        session.add(waiting)
        session.flush()
        waiting_id = waiting.id
    response = client.get(f"{JOBS}/{waiting_id}/fhir", headers=headers)
    assert response.status_code == 409 and "no data" in response.json()["detail"]

    other = make_team(app, settings, "beta")
    response = client.get(f"{JOBS}/{waiting_id}/fhir", headers={"x-service-api-key": other.api_key})
    assert response.status_code == 404
    assert client.get(f"{JOBS}/{waiting_id}/fhir").status_code == 401


def test_fhir_route_is_in_the_openapi_page(client):
    spec = client.get("/openapi.json").json()
    operation = spec["paths"][f"{JOBS}/{{job_id}}/fhir"]["get"]
    assert FHIR_JSON in operation["responses"]["200"]["content"]
    assert {"404", "409"} <= set(operation["responses"])
