"""`/v2/user`: create, read, patch, validation, team isolation and API-key auth."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from service.tables import Team
from tests.service.helpers import make_team


def test_create_and_read_user(client, headers):
    created = client.post("/v2/user", json={"client_user_id": "ref-42"}, headers=headers)
    assert created.status_code == 200
    body = created.json()
    assert body["client_user_id"] == "ref-42"
    uuid.UUID(body["user_id"])
    read = client.get(f"/v2/user/{body['user_id']}", headers=headers)
    assert read.status_code == 200
    assert read.json()["client_user_id"] == "ref-42"


def test_duplicate_client_user_id_is_refused(client, headers):
    assert client.post("/v2/user", json={"client_user_id": "dup"}, headers=headers).status_code == 200
    again = client.post("/v2/user", json={"client_user_id": "dup"}, headers=headers)
    assert again.status_code == 400
    assert "already exists" in again.json()["detail"]


def test_client_user_id_must_not_be_personal_data(client, headers):
    for value in ("jane@example.com", "+1 415 555 0100"):
        response = client.post("/v2/user", json={"client_user_id": value}, headers=headers)
        assert response.status_code == 422, value
        assert isinstance(response.json()["detail"], list)


def test_patch_user_sets_and_clears_fields(client, headers, user_id):
    patch = {
        "fallback_time_zone": "Europe/Berlin",
        "fallback_birth_date": "1980-02-29",
        "ingestion_start": "2024-01-01",
        "client_user_id": "renamed",
    }
    response = client.patch(f"/v2/user/{user_id}", json=patch, headers=headers)
    assert response.status_code == 204
    assert response.content == b""
    user = client.get(f"/v2/user/{user_id}", headers=headers).json()
    assert user["fallback_time_zone"] == "Europe/Berlin"
    assert user["fallback_birth_date"] == "1980-02-29"
    assert user["client_user_id"] == "renamed"

    assert client.patch(f"/v2/user/{user_id}", json={"fallback_time_zone": None}, headers=headers).status_code == 204
    user = client.get(f"/v2/user/{user_id}", headers=headers).json()
    assert user["fallback_time_zone"] is None
    assert user["ingestion_start"] == "2024-01-01"  # untouched by a patch that omits it


def test_patch_user_rejects_invalid_fields_with_422(client, headers, user_id):
    for body in (
        {"fallback_time_zone": "Mars/Olympus_Mons"},
        {"fallback_birth_date": "29/02/1980"},
        {"ingestion_end": "not a date"},
        {"unknown_field": 1},
        {"client_user_id": "someone@example.org"},
    ):
        response = client.patch(f"/v2/user/{user_id}", json=body, headers=headers)
        assert response.status_code == 422, body
        assert "detail" in response.json()


def test_patch_to_a_taken_client_user_id_is_422(client, headers, user_id):
    client.post("/v2/user", json={"client_user_id": "taken"}, headers=headers)
    response = client.patch(f"/v2/user/{user_id}", json={"client_user_id": "taken"}, headers=headers)
    assert response.status_code == 422


def test_other_teams_user_is_not_found(client, app, settings, headers, user_id):
    other = make_team(app, settings, "beta")
    other_headers = {"x-service-api-key": other.api_key}
    assert client.get(f"/v2/user/{user_id}", headers=other_headers).status_code == 404
    assert client.patch(f"/v2/user/{user_id}", json={}, headers=other_headers).status_code == 404
    assert client.get(f"/v2/user/{uuid.uuid4()}", headers=headers).status_code == 404


def test_missing_or_wrong_api_key_is_401(client, user_id):
    missing = client.get(f"/v2/user/{user_id}")
    assert missing.status_code == 401
    assert "x-service-api-key" in missing.json()["detail"]
    wrong = client.get(f"/v2/user/{user_id}", headers={"x-service-api-key": "lr_wrong"})
    assert wrong.status_code == 401
    assert client.post("/lab_report/v1/parser/job", headers={"x-service-api-key": "nope"}).status_code == 401


def test_api_keys_are_stored_hashed(app, team):
    with app.state.database.session_scope() as session:
        stored = session.scalars(select(Team.api_key_hash)).all()
    assert team.api_key not in stored
    assert all(len(value) == 64 for value in stored)
