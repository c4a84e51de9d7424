"""`labreport reviewer ...`: reviewer accounts of a team."""

from __future__ import annotations

import typer

reviewer_app = typer.Typer(no_args_is_help=True, help="Reviewer accounts for the review web page.")


@reviewer_app.command("create")
def create(
    email: str = typer.Argument(..., help="The reviewer's e-mail address (their login)."),
    team: str = typer.Option(..., "--team", help="Id of the team whose jobs they review."),
) -> None:
    """Create a reviewer and print their one-time password (shown only now)."""
    # Imported here so other `labreport` commands start without the service stack.
    from service.db import Database, upgrade
    from service.review_auth import create_reviewer
    from service.settings import get_settings

    url = get_settings().resolved_database_url()
    upgrade(url)
    database = Database(url)
    try:
        with database.session_scope() as session:
            reviewer, password = create_reviewer(session, team, email)
            reviewer_id, email = reviewer.id, reviewer.email  # email as stored (normalized)
    except ValueError as error:  # includes ReviewerExists and UnknownTeam
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    finally:
        database.dispose()
    typer.echo(f"reviewer_id: {reviewer_id}")
    typer.echo(f"email: {email}")
    typer.echo(f"password: {password}")
    typer.echo("Give the password to the reviewer now; it is stored only as a hash.", err=True)


def register(app: typer.Typer) -> None:
    app.add_typer(reviewer_app, name="reviewer")
