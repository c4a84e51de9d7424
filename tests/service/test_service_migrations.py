"""The Alembic migrations build exactly the schema the ORM models describe, re-run harmlessly,
and leave rows stored before them working as they did."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import service.review_tables  # noqa: F401  (their tables are part of the schema too)
import service.tables  # noqa: F401
from parser.models import ReportData
from review.routing import REASON_OCR, route_report
from service.db import Base, Database, make_engine, upgrade
from service.review_jobs import report_of, routing_of
from service.runner import team_aliases
from service.tables import Job
from tests.review.conftest import glucose_row


def test_migrations_match_the_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    upgrade(url)
    upgrade(url)  # a second start finds nothing to do
    engine = make_engine(url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def _upgrade_to(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    from service.db import MIGRATIONS_DIR

    config = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = url
    command.upgrade(config, revision)


def _insert(connection, table: str, **values) -> None:
    connection.execute(sa.Table(table, sa.MetaData(), autoload_with=connection).insert().values(**values))


def _rows(*confidences: float) -> str:
    return ReportData(results=[glucose_row(test_name=f"Glucose {i}", extraction_confidence=c)
                               for i, c in enumerate(confidences)]).model_dump_json()


# Stored before 0008/0009: a scan's rows (recogniser confidences), a digital report's rows (text-layer
# doubt products), and an alias with its key only.
OLD_JOBS = {"scan": _rows(0.93, 0.874, 0.961), "digital": _rows(1.0, 0.85, 0.765)}
OLD_KEY = ("vitamin b 12", "pg/ml")  # as an older normalisation keyed it (today's: "vitamin b12")


def _database_before_0008(url: str) -> None:
    _upgrade_to(url, "0007_job_unread_lines")
    now = datetime.now(UTC)
    engine = make_engine(url)
    with engine.begin() as connection:
        _insert(connection, "teams", id="team-1", name="old", api_key_hash="0" * 64, webhook_secret="s",
                review_threshold=0.0, created_at=now)
        _insert(connection, "users", id="user-1", team_id="team-1", created_at=now, updated_at=now)
        for name, data in OLD_JOBS.items():
            _insert(connection, "jobs", id=name, team_id="team-1", user_id="user-1", status="pending_review",
                    data_json=data, needs_human_review=False, is_reviewed=False, attempts=1,
                    created_at=now, updated_at=now)
        _insert(connection, "team_loinc_aliases", team_id="team-1", name_key=OLD_KEY[0], unit_key=OLD_KEY[1],
                loinc_code="2132-9", created_at=now)
    engine.dispose()


def test_jobs_stored_before_the_ocr_pages_route_as_they_did(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    _database_before_0008(url)
    assert upgrade(url)[:2] == ["0008_job_ocr_pages", "0009_alias_printed_forms"]
    database = Database(url)
    with database.session_scope() as session:
        for name, data in OLD_JOBS.items():
            job = session.get(Job, name)
            assert job.ocr_pages_json is None and report_of(job).ocr_pages is None
            before = route_report(ReportData.model_validate_json(data), threshold=0.0)  # as routing read it then
            assert routing_of(job, 0.0).reasons == before.reasons
            assert (REASON_OCR in before.reasons) is (name == "scan")
    database.dispose()


def test_aliases_stored_with_their_key_only_are_keyed_again_by_todays_normalisation(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    _database_before_0008(url)
    upgrade(url)
    database = Database(url)
    with database.session_scope() as session:
        assert team_aliases(session, "team-1") == {("vitamin b12", "pg/ml"): "2132-9"}
    database.dispose()
