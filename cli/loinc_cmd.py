"""`labreport loinc match` and `labreport loinc search`: the matcher from a shell.

`match` reads one printed name per line from stdin (`name` or `name<TAB>unit`) and writes one
JSON object per line, in the same order, one answer for every input line (blank or garbage
lines get `no_match`). Each answer echoes the query as `query` and `unit` (null when none). `search TEXT` prints the best codes for a name or a code as a table.
"""

from __future__ import annotations

import json
import sys

import typer
from rich.console import Console
from rich.table import Table

from loinc.annotate import to_loinc_match
from loinc.matcher import NO_MATCH, get_matcher

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Map printed test names to LOINC.")


def _answer(line: str, top: int) -> dict:
    name, _, unit = line.rstrip("\r\n").partition("\t")
    name, unit = name.strip(), unit.strip() or None
    if not name:
        return {"query": name, "unit": unit, "loinc_match_status": NO_MATCH, "loinc_matches": []}
    result = get_matcher().match(name, unit, top=top)
    return {
        "query": name,
        "unit": unit,
        "loinc_match_status": result.status,
        "loinc_matches": [to_loinc_match(entry, confidence).model_dump() for entry, confidence in result.matches[:top]],
    }


@app.command()
def match(
    top: int = typer.Option(5, "--top", min=1, max=50, help="Codes per name, best first."),
) -> None:
    """Match names read from stdin (`name` or `name<TAB>unit` per line); print JSON lines."""
    out = sys.stdout
    # Bytes in, decoded leniently: a line that is not UTF-8 still gets its answer.
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace")
        out.write(json.dumps(_answer(line, top), ensure_ascii=False) + "\n")
    out.flush()


@app.command()
def search(
    text: str = typer.Argument(..., help="A printed test name, or a LOINC code."),
    top: int = typer.Option(10, "--top", min=1, max=50, help="Rows to show."),
) -> None:
    """Show the best LOINC codes for a name (or the entry for a code) as a table."""
    found = get_matcher().search(text, top=top)
    console = Console()
    if not found:
        console.print(f"no LOINC code matches {text!r}")
        raise typer.Exit(1)
    table = Table(title=f"LOINC matches for {text!r}")
    table.add_column("code", style="bold")
    table.add_column("long common name")
    table.add_column("short name")
    table.add_column("rank", justify="right")
    table.add_column("confidence", justify="right")
    for entry, confidence in found:
        table.add_row(entry.code, entry.long_name, entry.short_name, str(entry.rank or "-"), f"{confidence:.2f}")
    console.print(table)
