"""`Idempotency-Key` reservations: one job per key and team within the window, even when concurrent."""

from __future__ import annotations

from datetime import timedelta

import pytest

from service import idempotency
from service.jobs import create_job
from service.tables import IdempotencyKey, Team, User
from tests.service.helpers import DIGITAL_REPORT, upload

WINDOW = timedelta(hours=24)


def test_reserve_bind_and_replay(client, app, team, user_id):
    team_id = str(team.team_id)
    with app.state.database.session_scope() as session:
        assert idempotency.reserve(session, team_id, "k1", window=WINDOW) is None
        # A second request while the first is still uploading must not create a job.
        with pytest.raises(idempotency.KeyInUse):
            idempotency.reserve(session, team_id, "k1", window=WINDOW)
        job = create_job(session, team=session.get(Team, team_id), user=session.get(User, user_id),
                         needs_human_review=False)
        idempotency.bind(session, team_id, "k1", job.id)
        session.commit()
        assert idempotency.reserve(session, team_id, "k1", window=WINDOW) == job.id


def test_expired_keys_and_stale_reservations_start_over(client, app, team, user_id):
    team_id = str(team.team_id)
    with app.state.database.session_scope() as session:
        idempotency.reserve(session, team_id, "stale", window=WINDOW)
        row = session.get(IdempotencyKey, (team_id, "stale"))
        row.created_at -= idempotency.RESERVATION_TIMEOUT + timedelta(seconds=1)
        session.commit()
        assert idempotency.reserve(session, team_id, "stale", window=WINDOW) is None

        job = create_job(session, team=session.get(Team, team_id), user=session.get(User, user_id),
                         needs_human_review=False)
        idempotency.bind(session, team_id, "stale", job.id)
        session.get(IdempotencyKey, (team_id, "stale")).created_at -= WINDOW + timedelta(seconds=1)
        session.commit()
        assert idempotency.reserve(session, team_id, "stale", window=WINDOW) is None


def test_a_rejected_upload_frees_its_key(client, headers, user_id):
    key = {**headers, "Idempotency-Key": "retry-me"}
    rejected = upload(client, key, user_id, [("a.pdf", b"", "application/pdf")])
    assert rejected.status_code == 400
    accepted = upload(client, key, user_id, [("a.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")])
    assert accepted.status_code == 200
    again = upload(client, key, user_id, [("b.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")])
    assert again.json()["id"] == accepted.json()["id"]
