"""Root of the `labreport` command; each group lives in its own module."""

from __future__ import annotations

import typer

from cli import loinc_cmd, parse_cmd, review_cmd, service_cmd

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Lab report parsing service.")
parse_cmd.register(app)
app.add_typer(loinc_cmd.app, name="loinc")
service_cmd.register(app)
review_cmd.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
