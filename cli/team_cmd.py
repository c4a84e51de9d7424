"""`labreport team ...`: create and list teams, point their webhooks, rotate their secrets.

Every command prints a table, or JSON with `--json` (cli.output). A new API key or webhook
secret is printed once: the key is stored only as a hash.
"""

from __future__ import annotations

import typer

from cli.output import JSON_OPTION, emit

# The commands import the service inside their bodies so `labreport --help` stays fast.

team_app = typer.Typer(
    no_args_is_help=True, help="Teams: create, list, webhooks, and rotating API keys and webhook secrets."
)


def _open_database():
    from cli.service_cmd import _open_database as open_database  # one-line errors for a missing database

    return open_database()


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _run(action):
    """Run `action(session)` in one transaction; known errors become one line and exit 2."""
    from service.teams import TeamNotFoundError
    from service.webhooks import WebhookUrlError

    database = _open_database()
    try:
        with database.session_scope() as session:
            return action(session)
    except (WebhookUrlError, TeamNotFoundError, ValueError) as error:
        _fail(str(error))
    finally:
        database.dispose()


@team_app.command("create")
def create(
    name: str = typer.Argument(..., help="The team's name."),
    webhook_url: str | None = typer.Option(None, help="Where the team's webhooks are sent."),
    review_threshold: float | None = typer.Option(
        None, min=0.0, max=1.0, help="Confidence below which rows go to review (default: the review module's)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Create a team; prints team_id, api_key and webhook_secret (the key is shown only now)."""
    from service.settings import get_settings
    from service.teams import create_team

    credentials = _run(lambda session: create_team(
        session, name, webhook_url=webhook_url, settings=get_settings(), review_threshold=review_threshold,
    ))
    emit(credentials.model_dump(mode="json"), as_json=as_json)


@team_app.command("list")
def list_(as_json: bool = JSON_OPTION) -> None:
    """List every team: id, name, webhook URL, review threshold, reviewers (no secrets)."""
    from service.teams import list_teams

    emit(_run(list_teams), as_json=as_json, empty="no teams yet: labreport team create NAME")


@team_app.command("set-webhook")
def set_webhook(
    team_id: str = typer.Argument(..., help="The team's id."),
    url: str = typer.Argument(..., help="The new webhook URL."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Point a team's webhooks at URL with a new signing secret; prints the secret."""
    from service.settings import get_settings
    from service.teams import set_webhook as set_team_webhook

    secret = _run(lambda session: set_team_webhook(session, team_id, url, settings=get_settings()))
    emit({"team_id": team_id, "webhook_url": url, "webhook_secret": secret}, as_json=as_json)


@team_app.command("rotate-key")
def rotate_key(team_id: str = typer.Argument(..., help="The team's id."), as_json: bool = JSON_OPTION) -> None:
    """Give the team a new API key; the old key stops working at once. Prints the key once."""
    from service.teams import rotate_api_key

    api_key = _run(lambda session: rotate_api_key(session, team_id))
    emit({"team_id": team_id, "api_key": api_key}, as_json=as_json)


@team_app.command("rotate-webhook-secret")
def rotate_webhook_secret(
    team_id: str = typer.Argument(..., help="The team's id."), as_json: bool = JSON_OPTION
) -> None:
    """Give the team a new webhook signing secret; every delivery from now on (retries too)
    is signed with it. Prints the secret."""
    from service.teams import rotate_webhook_secret as rotate

    secret = _run(lambda session: rotate(session, team_id))
    emit({"team_id": team_id, "webhook_secret": secret}, as_json=as_json)


def register(app: typer.Typer) -> None:
    app.add_typer(team_app, name="team")
