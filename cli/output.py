"""How admin commands print: JSON with `--json` (for scripts), a table otherwise (for people).

    emit({"team_id": ..., "api_key": ...}, as_json=json_flag)         # one record
    emit([{"id": ..., "email": ...}, ...], as_json=json_flag, columns=[...], empty="no reviewers")

Every admin command (`labreport team ...`, `labreport reviewer ...`) goes through `emit`, so
they all print the same way. JSON goes to stdout as one document; so does the table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of a table.")


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(_plain(value))


def emit(
    data: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    as_json: bool,
    columns: Sequence[str] | None = None,
    empty: str = "nothing to show",
) -> None:
    """Print one record (a field/value table) or a list of records (one row each)."""
    if as_json:
        if isinstance(data, Mapping):
            payload: Any = {key: _plain(value) for key, value in data.items()}
        else:
            payload = [{key: _plain(value) for key, value in record.items()} for record in data]
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    # Wide enough that keys and ids are never cut: a table that truncates a secret is useless.
    console = Console(width=max(Console().width, 200), soft_wrap=True, highlight=False)
    if isinstance(data, Mapping):
        table = Table(show_header=True)
        table.add_column("field", style="bold")
        table.add_column("value", overflow="fold")
        for key, value in data.items():
            table.add_row(key, _cell(value))
        console.print(table)
        return
    if not data:
        typer.echo(empty)
        return
    names = list(columns or data[0].keys())
    table = Table(show_header=True)
    for name in names:
        table.add_column(name, overflow="fold")
    for record in data:
        table.add_row(*(_cell(record.get(name)) for name in names))
    console.print(table)
