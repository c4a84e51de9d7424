"""A team alias keeps the printed name and unit it was learnt from and its key is computed when the
aliases are loaded: a change of the matcher's normalisation (loinc.matcher.alias_key) does not
orphan it. Aliases stored before that (migration 0009) have a key only, normalised again when loaded."""

from __future__ import annotations

from sqlalchemy import select

import loinc.matcher
from loinc.annotate import match_result
from loinc.matcher import alias_key
from parser.models import LabReportResult
from service.runner import team_aliases
from service.tables import TeamLoincAlias, utcnow

API = "/lab_report/v1/review"
# Not the matcher's own first choice for "Hb" in g/dL (718-7): only the alias gives it.
CHOSEN = "30313-1"
HB = LabReportResult(test_name="Hb", value="13.5", units="g/dL")


def _teach(client, headers, pending_job, team) -> None:
    """A reviewer sets the code of the sample report's "Hb" (g/dL) row."""
    response = client.patch(f"{API}/{pending_job(team)}/results/1", json={"loinc_code": CHOSEN}, headers=headers)
    assert response.status_code == 200, response.text


def _aliases(app) -> list[TeamLoincAlias]:
    with app.state.database.session_scope() as session:
        return list(session.scalars(select(TeamLoincAlias).order_by(TeamLoincAlias.id)))


def _top_code(aliases: dict) -> str:
    return match_result(HB, aliases).matches[0][0].code


def test_a_learnt_alias_still_matches_after_the_key_function_changes(app, client, team, headers, pending_job,
                                                                     monkeypatch):
    _teach(client, headers, pending_job, team)
    [stored] = _aliases(app)
    assert (stored.printed_name, stored.printed_unit, stored.loinc_code) == ("Hb", "g/dL", CHOSEN)
    learnt_key = (stored.name_key, stored.unit_key)
    # A later normalisation spells units otherwise (as 'ui/l' became 'iu/l').
    normalize_unit = loinc.matcher.normalize_unit
    monkeypatch.setattr(loinc.matcher, "normalize_unit", lambda unit: normalize_unit(unit).upper())
    assert alias_key(HB.test_name, HB.units) != learnt_key
    assert _top_code({learnt_key: CHOSEN}) != CHOSEN  # the key alone no longer matches
    with app.state.database.session_scope() as session:
        aliases = team_aliases(session, str(team.team_id))
    assert _top_code(aliases) == CHOSEN


def test_a_key_only_alias_is_normalised_again_and_gains_its_printed_forms_when_taught_again(
        app, client, team, headers, pending_job):
    with app.state.database.session_scope() as session:
        session.add(TeamLoincAlias(team_id=str(team.team_id), name_key="hb", unit_key="g/dl", loinc_code="20509-6",
                                   created_at=utcnow()))
        session.add(TeamLoincAlias(team_id=str(team.team_id), name_key="wbc", unit_key="x10^3/ul", loinc_code="6690-2",
                                   created_at=utcnow()))  # the key an older normalisation gave
    with app.state.database.session_scope() as session:
        assert team_aliases(session, str(team.team_id)) == {("hb", "g/dl"): "20509-6",
                                                            alias_key("WBC", "x10^3/µL"): "6690-2"}
    _teach(client, headers, pending_job, team)
    [stored] = [a for a in _aliases(app) if a.name_key == "hb"]
    assert (stored.printed_name, stored.printed_unit, stored.loinc_code) == ("Hb", "g/dL", CHOSEN)


def test_aliases_whose_printed_forms_share_a_key_all_take_the_taught_code(app, client, team, headers, pending_job):
    with app.state.database.session_scope() as session:
        session.add(TeamLoincAlias(team_id=str(team.team_id), name_key="hb", unit_key="g/dl", printed_name="HB",
                                   printed_unit="g/dl", loinc_code="20509-6", created_at=utcnow()))
    _teach(client, headers, pending_job, team)
    assert [(a.printed_name, a.printed_unit, a.loinc_code) for a in _aliases(app)] == [
        ("HB", "g/dl", CHOSEN), ("Hb", "g/dL", CHOSEN)]
    with app.state.database.session_scope() as session:
        assert team_aliases(session, str(team.team_id)) == {alias_key("Hb", "g/dL"): CHOSEN}
