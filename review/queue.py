"""Claim policy of the review queue: who may work a job, and for how long.

A claim keeps two reviewers off the same job. It expires so a job is never stuck
behind a reviewer who went home; renewing one's own claim extends it. Storage lives
in service/; this module only decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

CLAIM_TTL = timedelta(minutes=30)

# Who acted, in claims and audit entries, when the team API key was used instead of a login.
API_KEY_ACTOR = "api-key"


class ClaimConflict(Exception):
    """Another reviewer holds a live claim on the job."""

    def __init__(self, expires_at: datetime):
        self.expires_at = expires_at
        super().__init__(f"the job is claimed by another reviewer until {expires_at.isoformat()}")


@dataclass(frozen=True)
class Claim:
    job_id: str
    reviewer: str  # reviewer id, or API_KEY_ACTOR
    expires_at: datetime


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def is_live(claim: Claim | None, now: datetime) -> bool:
    return claim is not None and claim.expires_at > now


def held_by_other(claim: Claim | None, reviewer: str, now: datetime) -> bool:
    """True when someone else's claim is still running: they own the job for now."""
    return is_live(claim, now) and claim is not None and claim.reviewer != reviewer


def take_claim(
    existing: Claim | None, job_id: str, reviewer: str, now: datetime, ttl: timedelta = CLAIM_TTL
) -> Claim:
    """The claim `reviewer` gets on `job_id`, or ClaimConflict if another reviewer holds it."""
    if held_by_other(existing, reviewer, now):
        assert existing is not None
        raise ClaimConflict(existing.expires_at)
    return Claim(job_id=job_id, reviewer=reviewer, expires_at=now + ttl)


# --- listing: what a reviewer picks work by ------------------------------------------------

# Sort keys of the queue (JSON `sort=` and the web page); "-key" sorts descending.
QUEUE_SORTS = ("created_at", "file_name", "lab_name", "date_collected", "pages", "to_check")
# Attributes a free-text filter searches, besides the routing's reasons.
_FILTERED = ("file_name", "lab_name", "date_collected")


class UnknownSort(ValueError):
    pass


def _matches(entry, words: list[str]) -> bool:
    texts = [getattr(entry, name) or "" for name in _FILTERED] + list(entry.decision.reasons)
    haystack = " ".join(texts).casefold()
    return all(word in haystack for word in words)


def order_queue(entries: list, sort: str = "created_at", query: str | None = None) -> list:
    """`entries` (objects with the QUEUE_SORTS attributes and a `decision`) whose file name,
    lab, collection date or reasons contain every word of `query`, sorted by `sort`.

    Missing values (no lab printed, say) sort last either way; ties keep the oldest first.
    """
    descending = sort.startswith("-")
    key = sort.lstrip("-")
    if key not in QUEUE_SORTS:
        raise UnknownSort(f"unknown sort {sort!r}; use one of {', '.join(QUEUE_SORTS)} (prefix - to reverse)")
    words = (query or "").casefold().split()
    chosen = [entry for entry in entries if _matches(entry, words)] if words else list(entries)
    chosen.sort(key=lambda entry: entry.created_at)  # the tie-break: stable sorts keep it
    present = [entry for entry in chosen if getattr(entry, key) is not None]
    missing = [entry for entry in chosen if getattr(entry, key) is None]
    present.sort(key=lambda entry: _sortable(getattr(entry, key)), reverse=descending)
    return present + missing


def _sortable(value):
    return value.casefold() if isinstance(value, str) else value
