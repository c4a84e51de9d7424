"""Test-name words one look-alike glyph from an analyte word (parser/analyte_words.py)."""

import pytest

from parser.layout import RawRow
from parser.normalize import Context, normalize_row


def name(read: str, ocr: bool = True) -> str:
    return normalize_row(RawRow(page=1, name=read, value="27", ocr=ocr), Context()).test_name


@pytest.mark.parametrize("read, printed", [
    ("lron", "Iron"),  # I read as l
    ("lron Binding Capacity, Total", "Iron Binding Capacity, Total"),
    ("GFR Estimate (CKD-EP!)", "GFR Estimate (CKD-EPI)"),  # I read as !
    ("TC02", "TCO2"),  # O read as 0
    ("Non-HDE Cholesterol", "Non-HDL Cholesterol"),  # L read as E
    ("1gG", "IgG"),
])
def test_a_word_one_look_alike_glyph_from_an_analyte_word_is_that_word(read, printed):
    assert name(read) == printed


@pytest.mark.parametrize("read", [
    "Lipase",  # an l that starts a word the vocabulary does not hold
    "LDL Cholesterol",  # a vocabulary word is never changed
    "wsc",  # more than one glyph from WBC
    "PLE",  # E and T are no look-alikes
])
def test_other_words_stay_as_read(read):
    assert name(read) == read


def test_a_text_page_is_never_touched():
    assert name("lron", ocr=False) == "lron"
