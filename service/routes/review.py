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
from service.review_auth import Actor, require_actor
from service.review_schemas import (
    ChangeOut,
    ClaimOut,
    HistoryEntry,
    LoincSearchResult,
    PageImage,
    QueueItem,
    ResultChanged,
    ReviewJob,
    UncertainField,
)
from service.schemas import ParsingJob
from service.settings import get_settings
from service.storage import Storage, make_storage
from service.tables import Job

PREFIX = "/lab_report/v1/review"
router = APIRouter(prefix=PREFIX, tags=["review"])

# Upper bound of a LOINC search answer; the box shows a short list.
MAX_SEARCH_RESULTS = 20


def _uncertain(job: Job, actor: Actor) -> list[UncertainField]:
    decision = review_jobs.routing_of(job, actor.team.review_threshold)
    return [UncertainField(index=i, field=f) for i, f in decision.uncertain]


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
def read_queue(actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """The team's jobs in `pending_review`, oldest first."""
    return [
        QueueItem(
            job_id=entry.job.id,
            created_at=entry.job.created_at,
            updated_at=entry.job.updated_at,
            needs_human_review=entry.job.needs_human_review,
            result_count=entry.result_count,
            uncertain_count=len(entry.decision.uncertain),
            reasons=entry.decision.reasons,
            claimed_by=entry.claimed_by,
            claim_expires_at=entry.claim.expires_at if entry.claim else None,
        )
        for entry in review_jobs.queue_entries(session, actor)
    ]


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
    return ReviewJob(
        job=ParsingJob.from_row(job),
        reasons=decision.reasons,
        uncertain=[UncertainField(index=i, field=f) for i, f in decision.uncertain],
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
    # Imported on first use: the API process loads the PDF/OCR stack only when a page is shown.
    from parser.document import render_page_png

    png = render_page_png(data, page_in_file)
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def _file_store(request: Request) -> Storage:
    store = getattr(request.app.state, "files", None)
    return store if store is not None else make_storage(get_settings())


def _changed(job: Job, actor: Actor, index: int | None, report, changes) -> ResultChanged:
    result = report.results[index] if index is not None and index < len(report.results) else None
    return ResultChanged(
        index=index,
        result=result,
        changes=[ChangeOut(**vars(c)) for c in changes],
        uncertain=_uncertain(job, actor),
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
    """Change fields of one result; `loinc_code` sets the LOINC match (and teaches the team alias)."""
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


@router.post("/{job_id}/complete", response_model=ParsingJob)
def complete(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """Finish the review: `completed`, `is_reviewed: true`, and the `updated` webhook."""
    job = review_jobs.load_job(session, actor, job_id, for_update=True)
    review_jobs.complete(session, actor, job)
    return ParsingJob.from_row(job)


@router.get("/{job_id}/history", response_model=list[HistoryEntry])
def read_history(job_id: str, actor: Actor = Depends(require_actor), session: Session = SessionDep):
    """Every change made in review: who, when, what, before and after."""
    job = review_jobs.load_job(session, actor, job_id)
    return review_jobs.history(session, job)
