"""`labreport reviewer ...`: reviewer accounts of a team (create, list, disable, enable, reset).

Every command prints a table, or JSON with `--json` (cli.output). A new or reset password is
one-time: the reviewer must choose their own at the first login (the web page asks before
anything else; the review API refuses the session until then).
"""

from __future__ import annotations

import typer

from cli.output import JSON_OPTION, emit

reviewer_app = typer.Typer(no_args_is_help=True, help="Reviewer accounts for the review web page.")

WHO = typer.Argument(..., help="The reviewer's e-mail address or id.")
ONE_TIME_HINT = "Give the password to the reviewer now: it is stored only as a hash, and must be changed at the first login."


def _run(action):
    """Run `action(session)` in one transaction; known errors become one line and exit 2."""
    # Imported here so other `labreport` commands start without the service stack.
    from cli.service_cmd import _open_database
    from service.reviewers import ReviewerNotFound

    database = _open_database()
    try:
        with database.session_scope() as session:
            return action(session)
    except (ValueError, ReviewerNotFound) as error:  # ValueError: ReviewerExists, UnknownTeam, bad e-mail
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    finally:
        database.dispose()


def _row(reviewer) -> dict:
    return {
        "reviewer_id": reviewer.id,
        "email": reviewer.email,
        "team_id": reviewer.team_id,
        "disabled": reviewer.disabled,
        "must_change_password": reviewer.must_change_password,
        "created_at": reviewer.created_at,
    }


@reviewer_app.command("create")
def create(
    email: str = typer.Argument(..., help="The reviewer's e-mail address (their login)."),
    team: str = typer.Option(..., "--team", help="Id of the team whose jobs they review."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Create a reviewer and print their one-time password (shown only now)."""
    from service.review_auth import create_reviewer

    def action(session):
        reviewer, password = create_reviewer(session, team, email)
        return {"reviewer_id": reviewer.id, "email": reviewer.email, "team_id": team, "password": password}

    emit(_run(action), as_json=as_json)
    typer.echo(ONE_TIME_HINT, err=True)


@reviewer_app.command("list")
def list_(
    team: str | None = typer.Option(None, "--team", help="Only this team's reviewers."),
    as_json: bool = JSON_OPTION,
) -> None:
    """List reviewers: id, e-mail, team, disabled, whether the one-time password is still unchanged."""
    from service.reviewers import list_reviewers

    rows = _run(lambda session: [_row(r) for r in list_reviewers(session, team)])
    emit(rows, as_json=as_json, empty="no reviewers: labreport reviewer create EMAIL --team TEAM_ID")


def _set_disabled(who: str, disabled: bool, as_json: bool) -> None:
    from service.reviewers import find_reviewer, set_disabled

    def action(session):
        reviewer = find_reviewer(session, who)
        set_disabled(session, reviewer, disabled)
        return _row(reviewer)

    emit(_run(action), as_json=as_json)


@reviewer_app.command("disable")
def disable(who: str = WHO, as_json: bool = JSON_OPTION) -> None:
    """Disable a reviewer: logged out at once, cannot log in; their history stays."""
    _set_disabled(who, True, as_json)


@reviewer_app.command("enable")
def enable(who: str = WHO, as_json: bool = JSON_OPTION) -> None:
    """Let a disabled reviewer log in again."""
    _set_disabled(who, False, as_json)


@reviewer_app.command("reset-password")
def reset_password(who: str = WHO, as_json: bool = JSON_OPTION) -> None:
    """Give a reviewer a new one-time password (shown only now); their sessions end."""
    from service.reviewers import find_reviewer
    from service.reviewers import reset_password as reset

    def action(session):
        reviewer = find_reviewer(session, who)
        return {"reviewer_id": reviewer.id, "email": reviewer.email, "password": reset(session, reviewer)}

    emit(_run(action), as_json=as_json)
    typer.echo(ONE_TIME_HINT, err=True)


def register(app: typer.Typer) -> None:
    app.add_typer(reviewer_app, name="reviewer")
