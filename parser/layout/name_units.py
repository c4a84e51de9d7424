"""Units printed in brackets after the test name, in a table with no units column.

Some labs head the names' column "Test (units)" and print each row's unit in brackets after
its name ("Sodium (mmol/L)", "eGFR (CKD-EPI 2021) (mL/min/1.73m2)"). The last bracket is the
unit when it reads as one; a bracket that is part of the name ("(CKD-EPI 2021)", "(Fasting)")
stays with the name.
"""

from __future__ import annotations

import re

from parser.units import is_unit

# A name ending in one bracketed group: the group and the name before it.
_TRAILING_BRACKET = re.compile(r"^(?P<name>.*?\S)\s*[(\[](?P<unit>[^()\[\]]+)[)\]]$")


def unit_after_name(name: str) -> tuple[str, str | None]:
    """`name` less a unit in brackets after it, and that unit ("Sodium (mmol/L)" ->
    ("Sodium", "mmol/L")); (name, None) when its last bracket is no unit."""
    match = _TRAILING_BRACKET.match(name.strip())
    if match is None or not is_unit(unit := match.group("unit").strip()):
        return name, None
    return match.group("name"), unit
