"""Fixtures of the review tests: a real app on a temp LABREPORT_HOME, a team, reviewers,
and jobs placed straight into `pending_review` with a chosen report (no parsing needed)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parser.models import LabReportResult, LoincMatch, ReportData
from service.review_auth import create_reviewer
from service.schemas import TeamCredentials
from service.tables import PENDING_REVIEW, Job, StoredFile, User, utcnow
from tests.service.helpers import make_team

REPO = Path(__file__).resolve().parents[2]
SAMPLE_PDF = REPO / "fixtures" / "real" / "cbc_normal_drlogy.pdf"


def glucose_row(**changes) -> LabReportResult:
    fields = dict(
        test_name="Glucose",
        value="95",
        units="mg/dL",
        min_reference_range=70.0,
        max_reference_range=99.0,
        page=1,
        bbox=[0.1, 0.2, 0.9, 0.25],
        loinc_matches=[
            LoincMatch(
                loinc_code="2345-7",
                loinc_name="Glucose [Mass/volume] in Serum or Plasma",
                display_name="Glucose SerPl-mCnc",
                confidence_score=0.97,
            )
        ],
        loinc_match_status="auto_match",
        interpretation="normal",
        is_above_max_range=False,
        is_below_min_range=False,
    )
    fields.update(changes)
    return LabReportResult(**fields)


def sample_report() -> ReportData:
    """Two rows: a sure glucose and a hemoglobin whose value lost its decimal point."""
    return ReportData(
        results=[
            glucose_row(),
            LabReportResult(
                test_name="Hb",
                value="135",
                units="g/dL",
                min_reference_range=13.0,
                max_reference_range=17.0,
                page=1,
                bbox=[0.1, 0.3, 0.9, 0.35],
                loinc_matches=[
                    LoincMatch(
                        loinc_code="718-7",
                        loinc_name="Hemoglobin [Mass/volume] in Blood",
                        display_name="Hgb Bld-mCnc",
                        confidence_score=0.55,
                    )
                ],
                loinc_match_status="needs_review",
                extraction_confidence=0.62,
            ),
        ]
    )


@pytest.fixture
def team(client, app, settings) -> TeamCredentials:
    return make_team(app, settings, "alpha")


@pytest.fixture
def other_team(client, app, settings) -> TeamCredentials:
    return make_team(app, settings, "beta")


@pytest.fixture
def headers(team: TeamCredentials) -> dict[str, str]:
    return {"x-service-api-key": team.api_key}


@pytest.fixture
def add_reviewer(app) -> Callable[[TeamCredentials, str], tuple[str, str]]:
    """Create a reviewer of `team`; returns (reviewer id, password). The password counts as
    their own unless `one_time` (then the first login must replace it)."""

    def add(team: TeamCredentials, email: str, *, one_time: bool = False) -> tuple[str, str]:
        with app.state.database.session_scope() as session:
            reviewer, password = create_reviewer(session, str(team.team_id), email)
            # As after their first login, unless the test is about that login.
            reviewer.must_change_password = one_time
            return reviewer.id, password

    return add


@pytest.fixture
def pending_job(app, settings) -> Callable[..., str]:
    """Store a job of `team` in pending_review with `report`; returns its id.

    `age` makes it older (queue order); `with_file` stores the sample PDF as its upload.
    """
    counter = iter(range(1_000_000))

    def make(
        team: TeamCredentials,
        report: ReportData | None = None,
        *,
        age: timedelta = timedelta(0),
        with_file: bool = False,
        needs_human_review: bool = False,
    ) -> str:
        report = report or sample_report()
        with app.state.database.session_scope() as session:
            user = User(team_id=str(team.team_id), client_user_id=f"ref-{next(counter)}")
            session.add(user)
            session.flush()
            created = utcnow() - age
            job = Job(
                team_id=str(team.team_id),
                user_id=user.id,
                status=PENDING_REVIEW,
                data_json=report.model_dump_json(),
                needs_human_review=needs_human_review,
                is_reviewed=False,
                attempts=1,
                page_count=1,
                created_at=created,
                updated_at=created,
            )
            session.add(job)
            session.flush()
            if with_file:
                relative = f"{job.id}/0.pdf"
                target = settings.files_dir / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                data = SAMPLE_PDF.read_bytes()
                target.write_bytes(data)
                session.add(
                    StoredFile(
                        job_id=job.id, position=0, path=relative, media_type="application/pdf",
                        size=len(data), sha256="0" * 64,
                    )
                )
            return job.id

    return make


CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
LOGIN_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def login(client: TestClient, email: str, password: str) -> str:
    """Log `client` in through the login form; returns the session's CSRF token."""
    form = client.get("/review/login")
    token = LOGIN_CSRF.search(form.text).group(1)
    response = client.post(
        "/review/login",
        data={"email": email, "password": password, "csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    page = client.get("/review/queue")
    assert page.status_code == 200
    return CSRF_META.search(page.text).group(1)
