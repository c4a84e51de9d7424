"""The broker outbox: jobs reach the broker from the database, retried until it takes them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from service.db import Database, upgrade
from service.job_outbox import STALE_AFTER, BrokerJobQueue
from service.jobs import create_job
from service.settings import Settings
from service.tables import STARTED, Job, Team, User, utcnow
from service.teams import create_team


class Broker:
    """Stands in for Celery's send_task: records what it took, or refuses while down."""

    def __init__(self):
        self.down = False
        self.taken: list[str] = []

    def send(self, job_id: str) -> None:
        if self.down:
            raise ConnectionError("broker unreachable")
        self.taken.append(job_id)


@pytest.fixture
def outbox(tmp_path):
    settings = Settings(home=tmp_path, broker_url="redis://127.0.0.1:1/0",
                        dispatch_retry_seconds=60, dispatch_recheck_seconds=60)
    url = settings.resolved_database_url()
    upgrade(url)
    database = Database(url)
    broker = Broker()
    yield BrokerJobQueue(settings, database, send=broker.send), database, broker
    database.dispose()


def _new_job(database: Database, settings_home) -> str:
    with database.session_scope() as session:
        credentials = create_team(session, "t", webhook_url=None, settings=Settings(home=settings_home))
        team = session.get(Team, str(credentials.team_id))
        user = User(team_id=team.id, client_user_id="u")
        session.add(user)
        session.flush()
        return create_job(session, team=team, user=user, needs_human_review=False).id


def _age(database: Database, job_id: str, **changes) -> None:
    """Move the job's clock: past its dispatch lease or recheck, or make it long `started`."""
    with database.session_scope() as session:
        job = session.get(Job, job_id)
        for name, value in changes.items():
            setattr(job, name, value)


def test_a_job_waits_out_a_broker_outage_and_is_handed_over_once_it_is_back(outbox, tmp_path):
    queue, database, broker = outbox
    job_id = _new_job(database, tmp_path)
    broker.down = True
    queue.dispatch_due()
    assert broker.taken == [] and queue.broker_down
    queue.dispatch_due()  # leased for dispatch_retry_seconds: not tried again at once
    broker.down = False
    queue.dispatch_due()
    assert broker.taken == []
    _age(database, job_id, next_dispatch_at=utcnow() - timedelta(seconds=1))  # the lease ran out
    queue.dispatch_due()
    assert broker.taken == [job_id] and not queue.broker_down
    queue.dispatch_due()
    assert broker.taken == [job_id]  # handed over: not sent again before the recheck


def test_a_job_the_broker_lost_is_handed_over_again_less_and_less_often(outbox, tmp_path):
    queue, database, broker = outbox
    job_id = _new_job(database, tmp_path)
    queue.dispatch_due()
    waits = []
    for _ in range(3):
        with database.session_scope() as session:
            job = session.get(Job, job_id)
            waits.append((job.next_dispatch_at - utcnow()).total_seconds())
        _age(database, job_id, next_dispatch_at=utcnow() - timedelta(seconds=1))
        queue.dispatch_due()  # still upload_pending after the recheck: the broker lost it
    assert broker.taken == [job_id] * 4
    assert [round(w / 60) for w in waits] == [1, 2, 4]  # 60 s doubling


def test_only_waiting_or_abandoned_jobs_are_handed_over(outbox, tmp_path):
    queue, database, broker = outbox
    running = _new_job(database, tmp_path)
    abandoned = _new_job(database, tmp_path)
    deleted = _new_job(database, tmp_path)
    finished = _new_job(database, tmp_path)
    _age(database, running, status=STARTED, updated_at=utcnow())
    _age(database, abandoned, status=STARTED, updated_at=utcnow() - STALE_AFTER - timedelta(minutes=1))
    _age(database, deleted, deleted_at=utcnow())
    _age(database, finished, status="completed")
    queue.dispatch_due()
    assert broker.taken == [abandoned]
