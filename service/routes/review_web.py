"""The reviewers' web pages: `/review` login, queue and job pages (Jinja2 + plain JS).

The pages are rendered here; the job page's script talks to the JSON API in
`service.routes.review` with the session cookie and the page's CSRF token.
Login forms carry a double-submit CSRF token (cookie + hidden field) because no
session exists yet to hold one.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import get_args

from fastapi import APIRouter, Form, HTTPException, Request, status
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session

from parser.models import Gender, LabReportResult
from review.explain import range_text
from review.queue import QUEUE_SORTS, UnknownSort, utcnow
from review.routing import LOINC_CODE, REFERENCE_RANGE, SOURCE_FLAG, TEST_NAME, UNITS, VALUE
from service import review_jobs
from service.db import SessionDep
from service.review_auth import (
    SESSION_COOKIE,
    SESSION_TTL,
    authenticate,
    close_session,
    csrf_matches,
    open_session,
    reviewer_from_cookie,
)
from service.reviewers import MIN_PASSWORD_LENGTH, PasswordRejected, change_password
from service.routes.review import PREFIX as API_PREFIX
from service.routes.review import page_urls

PACKAGE_DIR = Path(__file__).resolve().parent.parent
templates = Jinja2Templates(directory=str(PACKAGE_DIR / "templates"))
STATIC_DIR = PACKAGE_DIR / "static"
STATIC_FILES = {"review.css": "text/css", "review.js": "text/javascript", "queue.js": "text/javascript"}

LOGIN_CSRF_COOKIE = "labreport_login_csrf"
# Pages are only ever shown by us: no framing, no foreign scripts, no inline scripts.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}

# Editable columns of the job page, named like the routing's uncertain fields.
INTERPRETATION = "interpretation"
FIELDS = (TEST_NAME, VALUE, UNITS, REFERENCE_RANGE, SOURCE_FLAG, INTERPRETATION, LOINC_CODE)
# The report's metadata form: (field, label), in the order a person reads a report header.
METADATA_FORM = (
    ("patient_first_name", "First name"),
    ("patient_last_name", "Last name"),
    ("dob", "Date of birth"),
    ("gender", "Gender"),
    ("lab_name", "Lab"),
    ("date_collected", "Collected"),
    ("date_reported", "Reported"),
    ("specimen_number", "Specimen no."),
)
# Queue columns a reviewer can sort by: (sort key, header).
QUEUE_COLUMNS = (
    ("created_at", "Age"),
    ("file_name", "File"),
    ("lab_name", "Lab"),
    ("date_collected", "Collected"),
    ("pages", "Pages"),
    ("to_check", "Rows to check"),
)

router = APIRouter(prefix="/review", include_in_schema=False)




def loinc_text(result: LabReportResult) -> str:
    if not result.loinc_matches:
        return f"— [{result.loinc_match_status}]"
    best = result.loinc_matches[0]
    text = f"{best.loinc_code} {best.display_name}"
    return text if result.loinc_match_status == "auto_match" else f"{text} [{result.loinc_match_status}]"


def cell_texts(result: LabReportResult) -> dict[str, str]:
    """What each editable column shows; review.js renders the same after an edit."""
    return {
        TEST_NAME: result.test_name,
        VALUE: result.value,
        UNITS: result.units or "",
        REFERENCE_RANGE: range_text(result.min_reference_range, result.max_reference_range, dash=" - "),
        SOURCE_FLAG: result.source_flag or "",
        INTERPRETATION: result.interpretation,
        LOINC_CODE: loinc_text(result),
    }


def age_text(created: datetime, now: datetime) -> str:
    """How long a job has waited, the way a person says it: "12 min", "5 h", "3 d"."""
    minutes = max(0, int((now - created).total_seconds() // 60))
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 48 * 60:
        return f"{minutes // 60} h"
    return f"{minutes // (24 * 60)} d"


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def _page(request: Request, template: str, context: dict, status_code: int = 200) -> HTMLResponse:
    response = templates.TemplateResponse(request, template, context, status_code=status_code)
    response.headers.update(SECURITY_HEADERS)
    return response


def _to_login() -> RedirectResponse:
    return RedirectResponse("/review/login", status_code=status.HTTP_303_SEE_OTHER)


@router.get("")
@router.get("/")
def home(request: Request, session: Session = SessionDep):
    if reviewer_from_cookie(request, session) is None:
        return _to_login()
    return RedirectResponse("/review/queue", status_code=status.HTTP_303_SEE_OTHER)


def _login_form(request: Request, error: str | None = None, status_code: int = 200) -> HTMLResponse:
    token = secrets.token_urlsafe(32)
    response = _page(request, "login.html", {"csrf_token": token, "error": error}, status_code)
    response.set_cookie(
        LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict", secure=_secure(request), path="/review"
    )
    return response


@router.get("/login")
def login_page(request: Request):
    return _login_form(request)


@router.post("/login")
def login(
    request: Request,
    email: str = Form(..., max_length=320),
    password: str = Form(..., max_length=500),
    csrf_token: str = Form(""),
    session: Session = SessionDep,
):
    if not csrf_matches(request.cookies.get(LOGIN_CSRF_COOKIE, ""), csrf_token):
        return _login_form(request, "The form expired; please log in again.", status.HTTP_403_FORBIDDEN)
    throttle = request.app.state.login_throttle
    address = request.client.host if request.client else None
    wait = throttle.retry_after(email, address)
    if wait is not None:  # locked out: not even the right password is checked
        minutes = max(1, round(wait / 60))
        response = _login_form(
            request, f"Too many failed logins; try again in {minutes} minute(s).", status.HTTP_429_TOO_MANY_REQUESTS
        )
        response.headers["Retry-After"] = str(int(wait) + 1)
        return response
    reviewer = authenticate(session, email, password)
    if reviewer is None:
        throttle.failed(email, address)
        return _login_form(request, "Wrong e-mail or password.", status.HTTP_401_UNAUTHORIZED)
    throttle.succeeded(email, address)
    token = open_session(session, reviewer)
    # A one-time password (new or reset account) is replaced before anything else.
    first_page = "/review/password" if reviewer.must_change_password else "/review/queue"
    response = RedirectResponse(first_page, status_code=status.HTTP_303_SEE_OTHER)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_TTL.total_seconds()),
        httponly=True,
        # Lax: a link to a job page from a mail still finds the session; every state
        # change needs the CSRF token besides, which another site cannot read.
        samesite="lax",
        secure=_secure(request),
        path="/",
    )
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/review")
    return response


@router.post("/logout")
def logout(request: Request, csrf_token: str = Form(""), session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is not None:
        if not csrf_matches(actor.csrf_token or "", csrf_token):
            raise HTTPException(status.HTTP_403_FORBIDDEN, detail="missing or wrong CSRF token")
        close_session(session, request.cookies.get(SESSION_COOKIE))
    response = _to_login()
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/queue")
def queue_page(request: Request, sort: str = "created_at", q: str = "", session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        return _to_login()
    if actor.reviewer is not None and actor.reviewer.must_change_password:
        return _to_password()
    try:
        entries = review_jobs.queue_entries(session, actor, sort=sort, query=q[:200])
    except UnknownSort:
        sort, entries = "created_at", review_jobs.queue_entries(session, actor, query=q[:200])
    now = utcnow()
    rows = [
        {
            "job": entry.job,
            "file_name": entry.file_name,
            "lab_name": entry.lab_name,
            "date_collected": entry.date_collected,
            "pages": entry.pages,
            "age": age_text(entry.job.created_at, now),
            "results": entry.result_count,
            "uncertain": entry.to_check,
            "reasons": entry.decision.reasons,
            "claimed_by": entry.claimed_by,
        }
        for entry in entries
    ]
    context = {"actor": actor, "rows": rows, "sort": sort, "q": q, "columns": QUEUE_COLUMNS, "sorts": QUEUE_SORTS}
    return _page(request, "queue.html", context)


@router.get("/jobs/{job_id}")
def job_page(job_id: str, request: Request, session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        return _to_login()
    if actor.reviewer is not None and actor.reviewer.must_change_password:
        return _to_password()
    job = review_jobs.load_job(session, actor, job_id)
    report = review_jobs.report_of(job)
    decision = review_jobs.routing_of(job, actor.team.review_threshold, report)
    uncertain: dict[int, set[str]] = {}
    for index, field in decision.uncertain:
        uncertain.setdefault(index, set()).add(field)
    notes: dict[int, list[str]] = {}
    for index, _field, note in review_jobs.row_notes(report, decision):
        notes.setdefault(index, []).append(note)
    claim = review_jobs.live_claim(session, job.id)
    pages = page_urls(job)
    rows = [
        {"cells": cell_texts(result), "uncertain": uncertain.get(index, set()), "notes": notes.get(index, [])}
        for index, result in enumerate(report.results)
    ]
    payload = {
        "api": f"{API_PREFIX}/{job.id}",
        "api_root": API_PREFIX,
        "status": job.status,
        "pages": [page.model_dump() for page in pages],
        "fields": list(FIELDS),
        "results": [result.model_dump(mode="json") for result in report.results],
        "uncertain": [list(pair) for pair in decision.uncertain],
        "notes": [list(note) for note in review_jobs.row_notes(report, decision)],
        "claimed_by_me": bool(claim and claim.reviewer == actor.actor_id),
        "claimed_by": review_jobs.claimant_label(session, claim.reviewer) if claim else None,
        "claim_expires_at": claim.expires_at.isoformat() if claim else None,
    }
    context = {
        "actor": actor,
        "job": job,
        "rows": rows,
        "fields": FIELDS,
        "reasons": decision.reasons,
        "pages": pages,
        "payload": payload,
        "metadata": report.metadata,
        "metadata_form": METADATA_FORM,
        "genders": get_args(Gender),
        "file_name": review_jobs.file_label(job),
    }
    return _page(request, "job.html", context)


# --- one's own password ---------------------------------------------------------------------


def _to_password() -> RedirectResponse:
    return RedirectResponse("/review/password", status_code=status.HTTP_303_SEE_OTHER)


def _password_form(request: Request, actor, error: str | None = None, status_code: int = 200) -> HTMLResponse:
    forced = bool(actor.reviewer and actor.reviewer.must_change_password)
    context = {"actor": actor, "error": error, "forced": forced, "min_length": MIN_PASSWORD_LENGTH}
    return _page(request, "password.html", context, status_code)


@router.get("/password")
def password_page(request: Request, session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        return _to_login()
    return _password_form(request, actor)


@router.post("/password")
def change_password_form(
    request: Request,
    current_password: str = Form(..., max_length=500),
    new_password: str = Form(..., max_length=500),
    repeat_password: str = Form(..., max_length=500),
    csrf_token: str = Form(""),
    session: Session = SessionDep,
):
    """Change one's own password; the one-time password must be replaced at first login."""
    actor = reviewer_from_cookie(request, session)
    if actor is None or actor.reviewer is None:
        return _to_login()
    if not csrf_matches(actor.csrf_token or "", csrf_token):
        return _password_form(request, actor, "The form expired; please try again.", status.HTTP_403_FORBIDDEN)
    if new_password != repeat_password:
        return _password_form(request, actor, "The two new passwords differ.", status.HTTP_422_UNPROCESSABLE_ENTITY)
    try:
        change_password(session, actor.reviewer, current_password, new_password)
    except PasswordRejected as error:
        return _password_form(request, actor, str(error), error.status_code)
    return RedirectResponse("/review/queue", status_code=status.HTTP_303_SEE_OTHER)


@router.get("/static/{name}")
def static_file(name: str):
    """The few static files of the pages (no build step, no directory listing)."""
    if name not in STATIC_FILES:
        return Response(status_code=status.HTTP_404_NOT_FOUND)
    return FileResponse(
        STATIC_DIR / name,
        media_type=STATIC_FILES[name],
        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
    )
