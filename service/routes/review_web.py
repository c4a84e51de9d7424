"""The reviewers' web pages: `/review` login, queue and job pages (Jinja2 + plain JS).

The pages are rendered here; the job page's script talks to the JSON API in
`service.routes.review` with the session cookie and the page's CSRF token.
Login forms carry a double-submit CSRF token (cookie + hidden field) because no
session exists yet to hold one.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from fastapi import APIRouter, Form, HTTPException, Request, status
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session

from parser.models import LabReportResult
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
FIELDS = (TEST_NAME, VALUE, UNITS, REFERENCE_RANGE, SOURCE_FLAG, LOINC_CODE)

router = APIRouter(prefix="/review", include_in_schema=False)


def number_text(number: float) -> str:
    """13.0 -> "13", 13.5 -> "13.5": the way the page's script prints numbers too."""
    return str(int(number)) if float(number).is_integer() else repr(number)


def range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{number_text(low)} - {number_text(high)}"
    if high is not None:
        return f"< {number_text(high)}"
    if low is not None:
        return f"> {number_text(low)}"
    return ""


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
        REFERENCE_RANGE: range_text(result.min_reference_range, result.max_reference_range),
        SOURCE_FLAG: result.source_flag or "",
        LOINC_CODE: loinc_text(result),
    }


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
    reviewer = authenticate(session, email, password)
    if reviewer is None:
        return _login_form(request, "Wrong e-mail or password.", status.HTTP_401_UNAUTHORIZED)
    token = open_session(session, reviewer)
    response = RedirectResponse("/review/queue", status_code=status.HTTP_303_SEE_OTHER)
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
def queue_page(request: Request, session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        return _to_login()
    rows = [
        {
            "job": entry.job,
            "results": entry.result_count,
            "uncertain": len(entry.decision.uncertain),
            "reasons": entry.decision.reasons,
            "claimed_by": entry.claimed_by,
        }
        for entry in review_jobs.queue_entries(session, actor)
    ]
    return _page(request, "queue.html", {"actor": actor, "rows": rows})


@router.get("/jobs/{job_id}")
def job_page(job_id: str, request: Request, session: Session = SessionDep):
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        return _to_login()
    job = review_jobs.load_job(session, actor, job_id)
    report = review_jobs.report_of(job)
    decision = review_jobs.routing_of(job, actor.team.review_threshold, report)
    uncertain: dict[int, set[str]] = {}
    for index, field in decision.uncertain:
        uncertain.setdefault(index, set()).add(field)
    pages = page_urls(job)
    rows = [
        {"cells": cell_texts(result), "uncertain": uncertain.get(index, set())}
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
    }
    context = {
        "actor": actor,
        "job": job,
        "rows": rows,
        "fields": FIELDS,
        "reasons": decision.reasons,
        "pages": pages,
        "payload": payload,
    }
    return _page(request, "job.html", context)


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
