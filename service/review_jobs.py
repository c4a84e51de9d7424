"""Review operations on stored jobs, shared by the JSON API and the web pages.

Each function takes the open session and the `Actor` (reviewer or team key), checks
that the job belongs to the actor's team (404 otherwise, as if it did not exist),
applies one `review/` rule or correction, and writes its audit entries. The caller's
session commits them together.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, status
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from loinc.annotate import match_result, to_loinc_match
from loinc.matcher import MAX_NAME_LENGTH, alias_key, get_matcher
from loinc.ucum import to_ucum
from parser.models import LabReportResult, LoincMatch, LoincMatchStatus, ReportData
from review import corrections, explain
from review.corrections import Change, CorrectionError, LoincRematch
from review.queue import API_KEY_ACTOR, Claim, ClaimConflict, is_live, order_queue, take_claim, utcnow
from review.routing import RoutingDecision, route_report
from service.jobs import set_status
from service.review_auth import Actor
from service.review_tables import Reviewer, ReviewAudit, ReviewClaim
from service.runner import alias_lookup_key, team_aliases
from service.tables import COMPLETED, PENDING_REVIEW, Job, TeamLoincAlias

log = logging.getLogger(__name__)


def load_job(session: Session, actor: Actor, job_id: str, *, for_update: bool = False) -> Job:
    """The job if it belongs to the actor's team; 404 for unknown and other teams' jobs alike.

    `for_update` locks the row (PostgreSQL) so two corrections of one job never overwrite
    each other's data; SQLite serializes writers by itself.
    """
    locking = for_update and session.bind.dialect.name != "sqlite"
    job = session.get(Job, job_id, with_for_update=locking)
    if job is None or job.team_id != actor.team.id or job.deleted_at is not None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="job not found")
    return job


def pending_jobs(session: Session, actor: Actor) -> list[Job]:
    """The team's jobs waiting for review, oldest first."""
    return list(
        session.scalars(
            select(Job)
            .where(
                Job.team_id == actor.team.id,
                Job.status == PENDING_REVIEW,
                Job.deleted_at.is_(None),
            )
            .order_by(Job.created_at, Job.id)
        )
    )


def report_of(job: Job) -> ReportData:
    """The stored report with what routing reads beside the wire's `data` (unread result lines,
    pages read by OCR: None for a job stored before the service kept them, see review.document)."""
    if not job.data_json:
        return ReportData()
    report = ReportData.model_validate_json(job.data_json)
    report.unread_result_lines = job.unread_result_lines or 0
    report.ocr_pages = None if job.ocr_pages_json is None else json.loads(job.ocr_pages_json)
    return report


def routing_of(job: Job, threshold: float, report: ReportData | None = None) -> RoutingDecision:
    """The job's routing; pass `report` when it is already parsed, to skip parsing it again."""
    report = report_of(job) if report is None else report
    return route_report(report, threshold=threshold, forced=job.needs_human_review)


def row_notes(report: ReportData, decision: RoutingDecision) -> list[tuple[int, str, str]]:
    """(row, field, note) for marked fields whose job-level reason is not enough (see
    `review.explain`); the notes quote values, so they are shown, never logged."""
    marked: dict[int, set[str]] = {}
    for index, field in decision.uncertain:
        marked.setdefault(index, set()).add(field)
    notes = []
    for index, fields in sorted(marked.items()):
        if 0 <= index < len(report.results):
            for field, note in explain.field_notes(report.results[index], fields).items():
                notes.append((index, field, note))
    return notes


def file_label(job: Job) -> str | None:
    """The uploaded file's name, or the first of several ("scan1.png (+2)")."""
    names = [stored.original_name for stored in job.files if stored.original_name]
    if not names:
        return None
    return names[0] if len(names) == 1 else f"{names[0]} (+{len(names) - 1})"


@dataclass
class QueueEntry:
    """One pending job as the queue (JSON and web page) lists it; the attributes below
    `claimed_by` are what `review.queue.order_queue` filters and sorts on."""

    job: Job
    result_count: int
    decision: RoutingDecision
    claim: ReviewClaim | None
    claimed_by: str | None
    file_name: str | None
    lab_name: str | None
    date_collected: str | None
    pages: int | None

    @property
    def created_at(self):
        return self.job.created_at

    @property
    def to_check(self) -> int:
        """Rows with at least one marked field: what a reviewer will have to look at."""
        return len({index for index, _field in self.decision.uncertain})


def queue_entries(
    session: Session, actor: Actor, *, sort: str = "created_at", query: str | None = None
) -> list[QueueEntry]:
    """The team's pending jobs, each with its routing and live claim, filtered by `query`
    (file name, lab, collection date, reasons) and sorted by `sort` (see `review.queue`)."""
    entries = []
    for job in pending_jobs(session, actor):
        report = report_of(job)
        claim = live_claim(session, job.id)
        entries.append(
            QueueEntry(
                job=job,
                result_count=len(report.results),
                decision=routing_of(job, actor.team.review_threshold, report),
                claim=claim,
                claimed_by=claimant_label(session, claim.reviewer) if claim else None,
                file_name=file_label(job),
                lab_name=report.metadata.lab_name,
                date_collected=report.metadata.date_collected,
                pages=job.page_count,
            )
        )
    return order_queue(entries, sort, query)


# --- claims -----------------------------------------------------------------------------


def _claim_row(session: Session, job_id: str) -> ReviewClaim | None:
    return session.get(ReviewClaim, job_id)


def _as_claim(row: ReviewClaim | None) -> Claim | None:
    return None if row is None else Claim(row.job_id, row.reviewer, row.expires_at)


def live_claim(session: Session, job_id: str) -> ReviewClaim | None:
    row = _claim_row(session, job_id)
    return row if is_live(_as_claim(row), utcnow()) else None


def claimant_label(session: Session, reviewer: str) -> str:
    if reviewer == API_KEY_ACTOR:
        return API_KEY_ACTOR
    person = session.get(Reviewer, reviewer)
    return person.email if person else reviewer


def claim_job(session: Session, actor: Actor, job: Job) -> ReviewClaim:
    """Take or renew the actor's claim; 409 while another reviewer's claim is live."""
    _require_pending(job)
    row = _claim_row(session, job.id)
    try:
        claim = take_claim(_as_claim(row), job.id, actor.actor_id, utcnow())
    except ClaimConflict as conflict:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(conflict)) from None
    if row is None:
        row = ReviewClaim(job_id=job.id, reviewer=claim.reviewer, expires_at=claim.expires_at)
        session.add(row)
    else:
        if row.reviewer != claim.reviewer:
            row.claimed_at = utcnow()
        row.reviewer, row.expires_at = claim.reviewer, claim.expires_at
    try:
        session.flush()
    except IntegrityError:  # another reviewer's claim landed between our read and write
        raise HTTPException(status.HTTP_409_CONFLICT, detail="the job was just claimed by another reviewer") from None
    return row


def release_claim(session: Session, actor: Actor, job: Job) -> None:
    row = _claim_row(session, job.id)
    if row is not None and row.reviewer == actor.actor_id:
        session.delete(row)


def _require_pending(job: Job) -> None:
    if job.status != PENDING_REVIEW:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            detail=f"the job is {job.status}, not pending_review; only jobs under review can be changed",
        )


# --- corrections ------------------------------------------------------------------------


def _audit(session: Session, actor: Actor, job: Job, change: Change) -> None:
    session.add(
        ReviewAudit(
            job_id=job.id,
            team_id=job.team_id,
            actor=actor.actor_id,
            at=utcnow(),
            action=change.action,
            result_index=change.result_index,
            field=change.field,
            before_json=json.dumps(change.before),
            after_json=json.dumps(change.after),
        )
    )


def lookup_loinc(code: str) -> LoincMatch | None:
    entry = get_matcher().lookup(code)
    return None if entry is None else to_loinc_match(entry, 1.0)


def search_loinc(query: str, limit: int) -> list[LoincMatch]:
    return [to_loinc_match(entry, score) for entry, score in get_matcher().search(query, top=limit)]


def _learn_alias(session: Session, actor: Actor, job: Job, name: str, units: str | None, code: str) -> None:
    """Remember the corrected code for this printed name and unit, for the team's later reports.

    The alias keeps the printed forms (its key is computed when aliases are loaded: see
    service.runner.alias_lookup_key). Every alias of the team under the same key now takes the
    code, so none contradicts it; an alias stored with its key only gains the printed forms.
    """
    name = name[:MAX_NAME_LENGTH]  # as the matcher reads it: longer names share the key
    printed_unit = units or ""
    key = alias_key(name, units)
    same_key = [
        alias
        for alias in session.scalars(select(TeamLoincAlias).where(TeamLoincAlias.team_id == job.team_id))
        if alias_lookup_key(alias) == key
    ]
    for alias in same_key:
        alias.loinc_code, alias.created_by = code, actor.actor_id
    printed = next((a for a in same_key if (a.printed_name, a.printed_unit) == (name, printed_unit)), None)
    keyed_only = next((a for a in same_key if a.printed_name is None), None)
    row = printed or keyed_only
    if row is None:
        row = TeamLoincAlias(team_id=job.team_id, loinc_code=code, created_by=actor.actor_id, created_at=utcnow())
        session.add(row)
    row.printed_name, row.printed_unit = name, printed_unit
    row.name_key, row.unit_key = key


def _editable(session: Session, actor: Actor, job: Job) -> ReportData:
    """The job's report, once the actor may change it: under review, not someone else's claim."""
    claim_job(session, actor, job)  # checks pending_review; editing takes (or renews) the claim
    return report_of(job)


def _save(job: Job, report: ReportData, threshold: float) -> None:
    # A correction is not a status change: no webhook until the job completes.
    job.data_json = report.model_dump_json()
    job.updated_at = utcnow()
    # The job's `review_reasons` say why it is (still) in review.
    reasons = routing_of(job, threshold, report).reasons
    job.review_reasons_json = json.dumps(reasons) if reasons else None


def rematcher(session: Session, job: Job) -> LoincRematch:
    """The LOINC matcher for corrected rows, with the team's learnt aliases like the pipeline."""
    aliases: dict[tuple[str, str], str] | None = None

    def rematch(row: LabReportResult) -> tuple[LoincMatchStatus, list[LoincMatch]]:
        nonlocal aliases
        if aliases is None:
            aliases = team_aliases(session, job.team_id)
        found = match_result(row, aliases)
        return found.status, [to_loinc_match(entry, score) for entry, score in found.matches[:5]]

    return rematch


def _correction_failed(error: CorrectionError) -> HTTPException:
    return HTTPException(error.status_code, detail=error.message)


def _follow_units(report: ReportData, index: int) -> list[Change]:
    """A corrected printed unit brings its UCUM code along (unless the reviewer set that too)."""
    row = report.results[index]
    before, row.ucum_units = row.ucum_units, to_ucum(row.units)
    return [Change("update", index, "ucum_units", before, row.ucum_units)] if before != row.ucum_units else []


def update_result(
    session: Session, actor: Actor, job: Job, index: int, changes: dict[str, Any]
) -> tuple[ReportData, list[Change]]:
    report = _editable(session, actor, job)
    try:
        made = corrections.update_result(report, index, changes, lookup_loinc, rematcher(session, job))
    except CorrectionError as error:
        raise _correction_failed(error) from None
    if "units" in changes and "ucum_units" not in changes:
        made += _follow_units(report, index)
    learned = corrections.learned_alias(report, index, made)
    if learned is not None:
        _learn_alias(session, actor, job, *learned)
    for change in made:
        _audit(session, actor, job, change)
    _save(job, report, actor.team.review_threshold)
    return report, made


def add_result(session: Session, actor: Actor, job: Job, fields: dict[str, Any]) -> tuple[ReportData, Change]:
    report = _editable(session, actor, job)
    if isinstance(fields.get("units"), str) and "ucum_units" not in fields:
        fields = {**fields, "ucum_units": to_ucum(fields["units"])}
    try:
        change = corrections.add_result(report, fields, lookup_loinc)
    except CorrectionError as error:
        raise _correction_failed(error) from None
    _audit(session, actor, job, change)
    _save(job, report, actor.team.review_threshold)
    return report, change


def remove_result(session: Session, actor: Actor, job: Job, index: int) -> tuple[ReportData, Change]:
    report = _editable(session, actor, job)
    try:
        change = corrections.remove_result(report, index)
    except CorrectionError as error:
        raise _correction_failed(error) from None
    _audit(session, actor, job, change)
    _save(job, report, actor.team.review_threshold)
    return report, change


def update_metadata(session: Session, actor: Actor, job: Job, changes: dict[str, Any]) -> tuple[ReportData, list[Change]]:
    """Correct the report's metadata (patient, dates, lab, specimen), audited like a row."""
    report = _editable(session, actor, job)
    try:
        made = corrections.update_metadata(report, changes)
    except CorrectionError as error:
        raise _correction_failed(error) from None
    for change in made:
        _audit(session, actor, job, change)
    _save(job, report, actor.team.review_threshold)
    return report, made


class UncertainFieldsLeft(HTTPException):
    """Completion asked while fields are still marked: the caller must confirm them once."""

    def __init__(self, count: int):
        self.count = count
        super().__init__(
            status.HTTP_409_CONFLICT,
            detail=(
                f"{count} field{'s are' if count != 1 else ' is'} still marked uncertain; check "
                f"{'them' if count != 1 else 'it'}, or complete with confirm_uncertain=true to record "
                "that each was read as it stands"
            ),
        )


def complete(session: Session, actor: Actor, job: Job, *, confirm_uncertain: bool = False) -> Job:
    """Completed and reviewed; the `updated` webhook goes out with the status change.

    Fields still marked uncertain need `confirm_uncertain`; each is then audited as a
    "confirm" entry (its value as confirmed), so the trail shows what was accepted as read.
    """
    report = _editable(session, actor, job)
    decision = routing_of(job, actor.team.review_threshold, report)
    if decision.uncertain and not confirm_uncertain:
        raise UncertainFieldsLeft(len(decision.uncertain))
    for change in corrections.confirmations(report, decision.uncertain):
        _audit(session, actor, job, change)
    _audit(session, actor, job, Change("complete", None, "status", PENDING_REVIEW, COMPLETED))
    set_status(session, job, COMPLETED, is_reviewed=True)
    row = _claim_row(session, job.id)
    if row is not None:
        session.delete(row)
    log.info("job %s review completed by %s", job.id, actor.actor_id)  # ids only, no report data
    return job


def scrub_review_data(session: Session, job: Job) -> None:
    """On deletion of a job's data: keep who changed what and when, drop the values."""
    session.execute(
        update(ReviewAudit).where(ReviewAudit.job_id == job.id).values(before_json=None, after_json=None)
    )
    row = _claim_row(session, job.id)
    if row is not None:
        session.delete(row)


def history(session: Session, job: Job) -> list[dict[str, Any]]:
    rows = session.scalars(
        select(ReviewAudit).where(ReviewAudit.job_id == job.id).order_by(ReviewAudit.id)
    )
    labels: dict[str, str] = {}
    entries = []
    for row in rows:
        if row.actor not in labels:
            labels[row.actor] = claimant_label(session, row.actor)
        entries.append(
            {
                "id": row.id,
                "at": row.at.isoformat(),
                "who": row.actor,
                "who_label": labels[row.actor],
                "action": row.action,
                "result_index": row.result_index,
                "field": row.field,
                "before": json.loads(row.before_json) if row.before_json else None,
                "after": json.loads(row.after_json) if row.after_json else None,
            }
        )
    return entries
