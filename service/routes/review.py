"""Review queue JSON API: `/lab_report/v1/review/...`.

Works with the team API key (automation) or a reviewer's session cookie plus its CSRF
token (the web page's JS). A team sees only its own jobs: anything else is 404.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request, Response, status
from sqlalchemy.orm import Session

from service import review_jobs
from service.db import SessionDep
from service.review_auth import Actor, require_actor, require_reviewer
from review.queue import QUEUE_SORTS, UnknownSort
from service.review_schemas import (
    ChangeOut,
    ClaimOut,
    CompleteRequest,
    HistoryEntry,
    LoincSearchResult,
    MetadataChanged,
    PageImage,
    PasswordChange,
    QueueItem,
    ResultChanged,
    ReviewJob,
    RowNote,
    UncertainField,
)
from service.reviewers import PasswordRejected, change_password
from service.schemas import ParsingJob
from service.settings import get_settings
from service.storage import Storage, make_storage
from service.tables import Job

PREFIX = "/lab_report/v1/review"
router = APIRouter(prefix=PREFIX, tags=["review"])

# Upper bound of a LOINC search answer; the box shows a short list.
MAX_SEARCH_RESULTS = 20


def _marks(job: Job, actor: Actor) -> tuple[list[UncertainField], list[RowNote]]:
    """The job's marked fields and the notes that explain some of them."""
    report = review_jobs.report_of(job)
    decision = review_jobs.routing_of(job, actor.team.review_threshold, report)
    notes = review_jobs.row_notes(report, decision)
    return (
        [UncertainField(index=i, field=f) for i, f in decision.uncertain],
        [RowNote(index=i, field=f, note=n) for i, f, n in notes],
    )


def page_count(job: Job) -> int:
    if job.page_count:
        return job.page_count
    pages = [r.page for r in review_jobs.report_of(job).results if r.page]
    return max(pages, default=1)


def page_urls(job: Job) -> list[PageImage]:
    return [
        PageImage(number=n, image_url=f"{PREFIX}/{job.id}/pages/{n}.png")
        for n in range(1, page_count(job) + 1)
    ]


@router.get("/queue", response_model=list[QueueItem])
def read_queue(
    sort: str = Query(
        "created_at", description=f"one of {', '.join(QUEUE_SORTS)}; prefix - to reverse (missing values last)"
    ),
    q: str | None = Query(None, max_length=200, description="words the file name, lab, collection date or reasons contain"),
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """The team's jobs in `pending_review` (oldest first unless `sort` says otherwise)."""
    try:
        entries = review_jobs.queue_entries(session, actor, sort=sort, query=q)
    except UnknownSort as error:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, detail=str(error)) from None
    return [
        QueueItem(
            job_id=entry.job.id,
            created_at=entry.job.created_at,
            updated_at=entry.job.updated_at,
            needs_human_review=entry.job.needs_human_review,
            file_name=entry.file_name,
            lab_name=entry.lab_name,
            date_collected=entry.date_collected,
            page_count=entry.pages,
            result_count=entry.result_count,
            uncertain_count=len(entry.decision.uncertain),
            rows_to_check=entry.to_check,
            reasons=entry.decision.reasons,
            claimed_by=entry.claimed_by,
            claim_expires_at=entry.claim.expires_at if entry.claim else None,
        )
        for entry in entries
    ]


@router.post("/password", status_code=status.HTTP_204_NO_CONTENT)
def change_own_password(
    body: PasswordChange, actor: Actor = Depends(require_reviewer), session: Session = SessionDep
):
    """A logged-in reviewer replaces their password (the one-time one must be replaced before
    anything else works); 403 for a wrong current password, 422 for a short or unchanged one."""
    assert actor.reviewer is not None
    try:
        change_password(session, actor.reviewer, body.current_password, body.new_password)
    except PasswordRejected as error:
        raise HTTPException(error.status_code, detail=str(error)) from None
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/loinc/search", response_model=LoincSearchResult)
def search_loinc(
    q: str = Query(min_length=1, max_length=200, description="a test name, code or part of one"),
    limit: int = Query(10, ge=1, le=MAX_SEARCH_RESULTS),
    actor: Actor = Depends(require_actor),
):
    return LoincSearchResult(query=q, matches=review_jobs.search_loinc(q, limit))


@router.post("/{job_id}/claim", response_model=ClaimOut)
def claim(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """Claim the job for 30 minutes (renewing one's own claim); 409 if another reviewer holds it."""
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    row = review_jobs.claim_job(session, actor, job)
    return ClaimOut(job_id=job.id, claimed_by=actor.label, expires_at=row.expires_at)


@router.delete("/{job_id}/claim", status_code=status.HTTP_204_NO_CONTENT)
def release(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    job = review_jobs.load_job(session, actor, job_id)
    review_jobs.release_claim(session, actor, job)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{job_id}", response_model=ReviewJob)
def read_job(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """The job with its results, the fields to check, and its page images."""
    job = review_jobs.load_job(session, actor, job_id)
    decision = review_jobs.routing_of(job, actor.team.review_threshold)
    claim = review_jobs.live_claim(session, job.id)
    uncertain, notes = _marks(job, actor)
    return ReviewJob(
        job=ParsingJob.from_row(job),
        reasons=decision.reasons,
        uncertain=uncertain,
        notes=notes,
        pages=page_urls(job),
        claimed_by=review_jobs.claimant_label(session, claim.reviewer) if claim else None,
        claim_expires_at=claim.expires_at if claim else None,
    )


@router.get(
    "/{job_id}/pages/{number}.png",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}},
)
def page_image(
    job_id: str,
    number: int,
    request: Request,
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """Page `number` (1-based) of the uploaded report as PNG, for the reviewer's eyes."""
    job = review_jobs.load_job(session, actor, job_id)
    if not job.files:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="the job's file is no longer stored")
    if not 1 <= number <= page_count(job):
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"the report has no page {number}")
    store = _file_store(request)
    if len(job.files) > 1:
        # Several uploaded images make one document, one image per page, in upload order.
        if number > len(job.files):
            raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"the report has no page {number}")
        data, page_in_file = store.read(session, job.files[number - 1].path), 1
    else:
        data, page_in_file = store.read(session, job.files[0].path), number
    # Rendered in a separate process under the parse memory ceiling (service.previews):
    # whatever was uploaded, the API process never decodes its pixels.
    png = request.app.state.previews.render(data, page_in_file)
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def _file_store(request: Request) -> Storage:
    store = getattr(request.app.state, "files", None)
    return store if store is not None else make_storage(get_settings())


def _changed(job: Job, actor: Actor, index: int | None, report, changes) -> ResultChanged:
    result = report.results[index] if index is not None and index < len(report.results) else None
    uncertain, notes = _marks(job, actor)
    return ResultChanged(
        index=index,
        result=result,
        changes=[ChangeOut(**vars(c)) for c in changes],
        uncertain=uncertain,
        notes=notes,
    )


@router.patch("/{job_id}/results/{index}", response_model=ResultChanged)
def patch_result(
    job_id: str,
    index: int,
    changes: dict[str, Any] = Body(
        ..., examples=[{"value": "5.4"}, {"loinc_code": "2345-7"}], description="fields to change"
    ),
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """Change fields of one result; `loinc_code` sets the LOINC match (and teaches the team alias).

    A corrected `test_name` or `units` runs the LOINC matcher again: its new candidates are in
    the answer's `result.loinc_matches` (a `rematch` change), for the reviewer to confirm.
    """
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    report, made = review_jobs.update_result(session, actor, job, index, changes)
    return _changed(job, actor, index, report, made)


@router.post("/{job_id}/results", response_model=ResultChanged, status_code=status.HTTP_201_CREATED)
def add_result(
    job_id: str,
    fields: dict[str, Any] = Body(..., examples=[{"test_name": "Glucose", "value": "90", "units": "mg/dL"}]),
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """Add a row the parser missed."""
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    report, change = review_jobs.add_result(session, actor, job, fields)
    return _changed(job, actor, change.result_index, report, [change])


@router.delete("/{job_id}/results/{index}", response_model=ResultChanged)
def delete_result(
    job_id: str, index: int, actor: Actor = Depends(require_actor), session: Session = SessionDep
):
    """Remove a row the parser invented; the history keeps it."""
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    report, change = review_jobs.remove_result(session, actor, job, index)
    return _changed(job, actor, None, report, [change])


@router.patch("/{job_id}/metadata", response_model=MetadataChanged)
def patch_metadata(
    job_id: str,
    changes: dict[str, Any] = Body(
        ..., examples=[{"dob": "1980-02-28", "lab_name": "North Lab"}],
        description="report fields to change (patient_first_name, patient_last_name, dob, gender, "
        "lab_name, date_reported, date_collected, specimen_number); dates YYYY-MM-DD; \"\" or null clears",
    ),
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """Correct the report's metadata; every change is in the history like a row's."""
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    report, made = review_jobs.update_metadata(session, actor, job, changes)
    uncertain, _notes = _marks(job, actor)
    return MetadataChanged(
        metadata=report.metadata, changes=[ChangeOut(**vars(c)) for c in made], uncertain=uncertain
    )


@router.post(
    "/{job_id}/complete",
    response_model=ParsingJob,
    responses={409: {"description": "fields are still marked uncertain (send confirm_uncertain), "
                                    "or another reviewer holds the job"}},
)
def complete(
    job_id: str,
    body: CompleteRequest | None = Body(None),
    actor: Actor = Depends(require_actor),
    session: Session = SessionDep,
):
    """Finish the review: `completed`, `is_reviewed: true`, and the `updated` webhook.

    With fields still marked uncertain it answers 409 unless `confirm_uncertain` is true; the
    history then records each of them as confirmed as read.
    """
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    review_jobs.complete(session, actor, job, confirm_uncertain=bool(body and body.confirm_uncertain))
    return ParsingJob.from_row(job)


@router.get("/{job_id}/history", response_model=list[HistoryEntry])
def read_history(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """Every change made in review: who, when, what, before and after."""
    job = review_jobs.load_job(session, actor, job_id)
    return review_jobs.history(session, job)
