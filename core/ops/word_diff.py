"""A word diff of two texts: which words (and the whitespace between them) stayed, which went
and which came, as data (never markup: whoever shows it styles the pieces).

The texts are cut into tokens (a word: letters and digits, with inner punctuation joining
them as in ``3.11``, ``on-call`` or ``don't``; a run of whitespace; or one other character) and compared with :class:`difflib.SequenceMatcher` (no "junk" heuristic, so a common
word is compared like any other). The pieces are exact: the ``same`` and ``delete`` pieces, in
order, are the old text; the ``same`` and ``insert`` pieces are the new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

Kind = Literal["same", "delete", "insert"]
#: a word (letters and digits, inner ``. , : ' ’ - / _`` joining them), a run of whitespace, or
#: any one other character
TOKEN = re.compile(r"[^\W_]+(?:[.,:'’/_-][^\W_]+)*|\s+|.", re.DOTALL)


@dataclass(frozen=True)
class Piece:
    kind: Kind
    text: str


def tokens(text: str) -> list[str]:
    """``text`` cut into tokens; ``"".join(tokens(text)) == text``."""
    return TOKEN.findall(text)


def word_diff(old: str, new: str) -> list[Piece]:
    """The pieces that turn ``old`` into ``new``: in a replaced stretch the deleted words come
    first, then the inserted ones; neighbouring pieces of one kind are joined."""
    a, b = tokens(old), tokens(new)
    pieces: list[Piece] = []

    def add(kind: Kind, words: list[str]) -> None:
        text = "".join(words)
        if not text:
            return
        if pieces and pieces[-1].kind == kind:
            pieces[-1] = Piece(kind, pieces[-1].text + text)
        else:
            pieces.append(Piece(kind, text))

    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            add("same", a[i1:i2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return pieces


def old_text(pieces: list[Piece]) -> str:
    return "".join(p.text for p in pieces if p.kind != "insert")


def new_text(pieces: list[Piece]) -> str:
    return "".join(p.text for p in pieces if p.kind != "delete")


def changed(pieces: list[Piece]) -> bool:
    return any(p.kind != "same" for p in pieces)
