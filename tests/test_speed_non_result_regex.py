"""NON_RESULT_NAMES, its alternatives grouped by first letter for speed, tests exactly as the
plain alternation of the vocabulary does (its callers only ask whether it matches)."""

import re

from parser import vocabulary
from parser.layout import rows


def test_grouped_alternation_matches_as_the_plain_one():
    entries = vocabulary.words(vocabulary.NON_RESULT_LABELS)
    plain = re.compile(r"^\W*(" + rows._alternatives(entries) + r")\b", re.I)
    texts = ["Haemoglobin", "Total Leucocyte Count", "", "12.5", "x"]
    for entry in entries:
        texts += [entry, entry.upper(), entry.title(), f"  *{entry}:", f"{entry}x", f"{entry} 12",
                  entry[:-1], entry.replace(" ", ""), entry.replace(".", "")]
    for text in texts:
        assert bool(rows.NON_RESULT_NAMES.match(text)) == bool(plain.match(text)), text


def test_grouping_keeps_every_entry():
    grouped = re.compile(r"^(?:" + rows._by_first_letter(["note", "nb", "please", "p.s."]) + r")$", re.I)
    for text in ("note", "NB", "Please", "ps", "p.s."):
        assert grouped.match(text), text
    assert not grouped.match("nota")
