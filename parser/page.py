"""Plain data passed between the extraction stages and the layout stage.

Coordinates are in the page's own units (PDF points or image pixels), origin at
the top-left corner, y growing downwards, so text-layer and OCR pages look the
same to the layout code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    conf: float = 1.0  # 0..1; 1.0 for a PDF text layer, tesseract's confidence for OCR
    size: float = 0.0  # font size where known (text layer), else the box height
    bold: bool = False


_new_object = object.__new__
_SETTERS = tuple(Word.__dict__[name].__set__ for name in ("text", "x0", "top", "x1", "bottom", "conf", "size", "bold"))


def new_word(text: str, x0: float, top: float, x1: float, bottom: float, conf: float, size: float,
             bold: bool) -> Word:
    """`Word(...)` four times faster: a frozen dataclass's __init__ sets each field through
    object.__setattr__ (2 µs a word), and a text layer makes hundreds of words a page. The
    slots are set directly, once, so the word is as immutable as any other."""
    word = _new_object(Word)
    set_text, set_x0, set_top, set_x1, set_bottom, set_conf, set_size, set_bold = _SETTERS
    set_text(word, text)
    set_x0(word, x0)
    set_top(word, top)
    set_x1(word, x1)
    set_bottom(word, bottom)
    set_conf(word, conf)
    set_size(word, size)
    set_bold(word, bold)
    return word


@dataclass(slots=True)
class Page:
    number: int  # 1-based
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    source: Literal["text", "ocr"] = "text"
    # Ruling lines and rectangles of the text layer (x0, top, x1, bottom), for ruled tables.
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    rotation: int = 0  # degrees the page image was turned to read it upright (OCR only)


@dataclass(slots=True)
class Document:
    kind: Literal["pdf", "png", "jpeg"]
    pages: list[Page] = field(default_factory=list)
