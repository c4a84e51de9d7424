"""Root of the `labreport` command; each group lives in its own module."""

from __future__ import annotations

import logging
import sys

import typer

from cli import loinc_cmd, parse_cmd, review_cmd, service_cmd, team_cmd

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Lab report parsing service.")
parse_cmd.register(app)
app.add_typer(loinc_cmd.app, name="loinc")
service_cmd.register(app)
team_cmd.register(app)
review_cmd.register(app)


def main() -> None:
    # Warnings and errors on stderr, so stdout stays the command's JSON; `serve` sets its own.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    app()


if __name__ == "__main__":
    main()
