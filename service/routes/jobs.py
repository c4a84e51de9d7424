"""`/lab_report/v1/parser/job`: upload a report, read its job, delete its data."""

from __future__ import annotations

import functools
import logging
import uuid
from datetime import timedelta

import anyio
from fastapi import APIRouter, Depends, Header, HTTPException, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.requests import ClientDisconnect

from parser.exceptions import LabReportError
from parser.models import ReportData
from service import idempotency
from service.auth import api_key_header, authenticate, hash_api_key, require_team
from service.db import Database, SessionDep
from service.fhir import FHIR_JSON, build_bundle, bundle_json
from service.jobs import create_job, set_status
from service.outbox import scrub_job_payloads
from service.review_jobs import scrub_review_data
from service.routes.users import team_user
from service.schemas import ErrorBody, ParsingJob, parsing_job_json
from service.settings import Settings
from service.storage import Storage
from service.tables import COMPLETED, FAILED, PENDING_REVIEW, Job, StoredFile, Team, utcnow
from service.uploads import ReceivedUpload, receive_upload
from service.validation import check_upload

log = logging.getLogger(__name__)
router = APIRouter(prefix="/lab_report/v1/parser/job", tags=["parsing jobs"])

FAILURE_DELETED = "deleted"  # (ext) failure_reason of a job deleted before it finished

_UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file", "user_id"],
                    "properties": {
                        "file": {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "minItems": 1,
                            "maxItems": 8,
                            "description": "One PDF, JPEG or PNG (10 MB at most), or up to 8 "
                            "JPEG/PNG parts all named `file`, merged in order.",
                        },
                        "user_id": {"type": "string", "format": "uuid"},
                        "needs_human_review": {"type": "boolean", "default": False},
                    },
                }
            }
        },
    }
}

_REJECTIONS = {
    400: {"model": ErrorBody, "description": "The file cannot be accepted (detail says why)"},
    404: {"model": ErrorBody, "description": "user_id is not a user of this team"},
    413: {"model": ErrorBody, "description": "Over 10 MB"},
}

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}


def _missing(name: str) -> dict:
    return {"type": "missing", "loc": ("body", name), "msg": "Field required", "input": None}


def _form_values(upload: ReceivedUpload) -> tuple[uuid.UUID, bool]:
    """The validated `user_id` and `needs_human_review` fields, or a FastAPI 422 list."""
    errors: list[dict] = []
    if not any(received.field_name == "file" for received in upload.files):
        errors.append(_missing("file"))
    user_id = None
    raw_user = upload.fields.get("user_id")
    if not raw_user:
        errors.append(_missing("user_id"))
    else:
        try:
            user_id = uuid.UUID(raw_user[0].strip())
        except ValueError:
            errors.append(
                {
                    "type": "uuid_parsing",
                    "loc": ("body", "user_id"),
                    "msg": "Input should be a valid UUID",
                    "input": raw_user[0],
                }
            )
    needs_review = False
    raw_review = upload.fields.get("needs_human_review")
    if raw_review:
        value = raw_review[0].strip().lower()
        if value in _TRUE:
            needs_review = True
        elif value not in _FALSE:
            errors.append(
                {
                    "type": "bool_parsing",
                    "loc": ("body", "needs_human_review"),
                    "msg": "Input should be a valid boolean",
                    "input": raw_review[0],
                }
            )
    if errors:
        raise RequestValidationError(errors)
    return user_id, needs_review


async def _upload_work(request: Request, function, *args):
    """Run an upload's blocking step `function(app, *args)` (checks, database) in a worker
    thread, at most `upload_limiter` uploads at a time: twenty uploads' Python work at once
    starved GET job of the interpreter (p99 above 50 ms); the bytes keep streaming in meanwhile."""
    limiter = getattr(request.app.state, "upload_limiter", None)
    return await anyio.to_thread.run_sync(functools.partial(function, request.app, *args), limiter=limiter)


def _team_job(session: Session, team: Team, job_id: uuid.UUID) -> Job:
    job = session.get(Job, str(job_id))
    if job is None or job.team_id != team.id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="job not found")
    return job


@router.post("", response_model=ParsingJob, responses=_REJECTIONS, openapi_extra=_UPLOAD_BODY)
async def create_parsing_job(
    request: Request,
    api_key: str | None = Depends(api_key_header),
    idempotency_key: str | None = Header(default=None, max_length=255),
) -> Response:
    """Upload a report; the job is parsed asynchronously (watch the webhooks or poll GET)."""
    # Two trips to a worker thread per upload (before and after the body), each opening its
    # own session: the key check, user lookup, checks and commit used to take seven trips
    # (session and team dependencies, their commits), and twenty uploads' trips queued
    # GET job behind them on the event loop (see benchmarks/service.py).
    team, earlier = await _upload_work(request, _admit, api_key, idempotency_key)
    if earlier is not None:
        return Response(earlier, media_type="application/json")
    try:
        upload = await receive_upload(
            request, request.app.state.files, limit=request.app.state.settings.max_upload_bytes,
            file_fields={"file"},
        )
    except BaseException as error:
        if idempotency_key:
            await _upload_work(request, _release_key, team.id, idempotency_key)
        if isinstance(error, ClientDisconnect):
            # The client hung up mid-upload: nothing was stored and nobody reads an answer. Not
            # an error of ours, so no traceback; the team id only (no file name: it may be PHI).
            log.info("upload of team %s abandoned: the client disconnected", team.id)
            return Response(status_code=400)
        raise
    job_id, body = await _upload_work(request, _store_upload, team, upload, idempotency_key)
    request.app.state.job_queue.submit(job_id)
    return Response(body, media_type="application/json")


def _admit(app, api_key: str | None, idempotency_key: str | None) -> tuple[Team, bytes | None]:
    """The calling team (else 401) and, for a key seen before, the earlier job's JSON."""
    settings: Settings = app.state.settings
    with app.state.database.session_scope() as session:
        team = authenticate(session, api_key)
        if not idempotency_key:
            return team, None
        try:
            earlier_id = idempotency.reserve(
                session, team.id, idempotency_key,
                window=timedelta(seconds=settings.idempotency_window_seconds),
            )
        except idempotency.KeyInUse:
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                detail="a request with this Idempotency-Key is still being uploaded; retry later",
            ) from None
        if earlier_id is None:
            return team, None
        return team, parsing_job_json(session.get(Job, earlier_id))


def _release_key(app, team_id: str, idempotency_key: str) -> None:
    with app.state.database.session_scope() as session:
        idempotency.release(session, team_id, idempotency_key)


def _store_upload(app, team: Team, upload: ReceivedUpload, idempotency_key: str | None) -> tuple[str, bytes]:
    """Validate the received upload and create its job (binding the key) in one commit;
    on any refusal the received files are removed and the key released."""
    try:
        with app.state.database.session_scope() as session:
            job = _create_checked_job(session, app.state.settings, app.state.files, team, upload)
            if idempotency_key:
                idempotency.bind(session, team.id, idempotency_key, job.id)
            session.commit()
            return job.id, parsing_job_json(job)
    except BaseException:
        upload.discard()
        if idempotency_key:
            _release_key(app, team.id, idempotency_key)
        raise


def _create_checked_job(
    session: Session, settings: Settings, store: Storage, team: Team, upload: ReceivedUpload
) -> Job:
    """The contract's refusals in order (422 fields, 404 user, 400 files), then the job."""
    user_id, needs_review = _form_values(upload)
    user = team_user(session, team, user_id)
    unexpected = sorted({f.field_name for f in upload.files} - {"file"})
    if unexpected:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            detail=f"unexpected file field(s) {unexpected}: send files in the 'file' field",
        )
    try:
        checked = check_upload(
            [(f.path, f.declared_type) for f in upload.files],
            max_files=settings.max_files, max_pages=settings.max_pages,
        )
    except LabReportError as error:
        raise HTTPException(error.http_status, detail=error.message) from None
    job = create_job(session, team=team, user=user, needs_human_review=needs_review)
    job.page_count = sum(item.pages for item in checked)
    for position, (received, item) in enumerate(zip(upload.files, checked, strict=True)):
        relative = store.keep(session, job.id, position, received.path, item.extension)
        session.add(
            StoredFile(
                job_id=job.id,
                position=position,
                path=relative,
                media_type=item.media_type,
                size=received.size,
                sha256=item.sha256,
                original_name=(received.filename or "")[:255] or None,
            )
        )
    return job


@router.get(
    "/{job_id}",
    response_model=ParsingJob,
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)
async def read_parsing_job(
    job_id: uuid.UUID, request: Request, api_key: str | None = Depends(api_key_header)
) -> Response:
    """The job's status and, once parsed, its data (also while it waits for review)."""
    database: Database = request.app.state.database

    def load() -> bytes:
        with database.session_scope() as session:
            # One statement on the hot path: the job, if the key is its team's.
            job = session.scalar(
                select(Job).join(Team, Team.id == Job.team_id)
                .where(Job.id == str(job_id), Team.api_key_hash == hash_api_key(api_key or ""))
            )
            if job is None:  # which answer: 401 (key) or 404 (job)
                job = _team_job(session, authenticate(session, api_key), job_id)
            return parsing_job_json(job)

    # Clients poll this. A local SQLite read never waits for a writer (WAL) and takes about a
    # millisecond: done on the event loop, it skips two thread hand-overs, which cost GET job
    # tens of milliseconds while uploads kept the worker threads busy. A networked database
    # is read from a worker thread (its round trip must not stall the loop).
    if database.local_reads:
        return Response(load(), media_type="application/json")
    return Response(await run_in_threadpool(load), media_type="application/json")


_FHIR_RESPONSES = {
    200: {
        "description": "A FHIR R4 Bundle (collection): Patient, DiagnosticReport, one Observation per result",
        "content": {FHIR_JSON: {"schema": {"type": "object", "title": "Bundle"}}},
    },
    401: {"model": ErrorBody},
    404: {"model": ErrorBody},
    409: {"model": ErrorBody, "description": "The job has no data (yet)"},
}


@router.get("/{job_id}/fhir", response_class=Response, responses=_FHIR_RESPONSES)
async def read_parsing_job_fhir(
    job_id: uuid.UUID, request: Request, api_key: str | None = Depends(api_key_header)
) -> Response:
    """(ext) The job's data as a FHIR R4 Bundle: `preliminary` while in review, `final` once completed."""
    database: Database = request.app.state.database

    def load() -> str:
        with database.session_scope() as session:
            job = _team_job(session, authenticate(session, api_key), job_id)
            if not job.data_json:
                raise HTTPException(status.HTTP_409_CONFLICT, detail=f"the job has no data (status {job.status})")
            report = ReportData.model_validate_json(job.data_json)
            bundle = build_bundle(report, key=job.id, final=job.status == COMPLETED, reviewed=job.is_reviewed)
            return bundle_json(bundle)

    return Response(await run_in_threadpool(load), media_type=FHIR_JSON)


@router.delete("/{job_id}", response_model=ParsingJob, responses={404: {"model": ErrorBody}})
def delete_parsing_job(
    job_id: uuid.UUID,
    request: Request,
    team: Team = Depends(require_team),
    session: Session = SessionDep,
) -> ParsingJob:
    """Remove the job's files and extracted data; the record stays, marked `deleted_at`.

    A job deleted before it finished ends as `failed` with failure_reason `deleted` (ext); a
    finished one keeps its status (with `data: null`). Either way an `updated` webhook says so.
    """
    job = _team_job(session, team, job_id)
    if job.deleted_at is None:
        store: Storage = request.app.state.files
        store.delete_job(session, job.id)
        for stored in list(job.files):
            session.delete(stored)
        job.data_json = None
        job.review_reasons_json = None
        job.deleted_at = utcnow()
        if job.status not in (COMPLETED, FAILED, PENDING_REVIEW):
            set_status(session, job, FAILED, failure_reason=FAILURE_DELETED)
        else:
            set_status(session, job, job.status)  # same status; the webhook reports the deletion
        scrub_job_payloads(session, job)
        scrub_review_data(session, job)  # the review audit keeps who/when, not the values
        session.commit()
    return ParsingJob.from_row(job)
