"""The job code: one report's bytes to its finished `data` object.

The same function serves the API workers (in-process or Celery) and the batch
command, so a report parses the same way everywhere.
"""

from __future__ import annotations

from loinc.annotate import annotate_report
from loinc.ucum import annotate_units
from parser.api import parse_report
from parser.models import ReportData


def process_document(
    data: bytes | list[bytes],
    *,
    filename: str | None = None,
    max_pages: int = 30,
    aliases: dict[tuple[str, str], str] | None = None,
) -> ReportData:
    """Parse the report and fill the LOINC fields (and the UCUM unit) of every result.

    `aliases` maps a team's (normalized printed name, normalized unit) to a LOINC code
    learnt from its reviewers' corrections; exact hits win over the matcher.
    A list of images (the API's multi-file upload) is merged in order into one document.
    """
    report = parse_report(data, filename=filename, max_pages=max_pages)
    annotate_report(report, aliases=aliases)
    annotate_units(report.results)
    return report
