"""Irregular word forms: ``went`` is a form of ``go``, ``won`` of ``win``, ``children`` of ``child``.

The index's Porter stemmer joins the regular forms (``deploys``, ``deployed``, ``deploy``) but
not the irregular ones, so "When did Nate win his third tourney?" missed "Nate won his third
tournament". The index therefore holds, after a memory's content, the base form of each
irregular form in it (:func:`indexed`: "Nate won" is indexed as "Nate won" and "win"), and a
question's word that is an irregular form is searched as its base form (:func:`base_word`:
"went" as "go", which finds "went", "goes" and "go"). The forms are the 3,339 pairs of
``word_forms.txt``: WordNet 3.0's exception lists, less the pairs Porter joins already and the
stopwords (read once, on first use).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

#: The pairs, one a line ("went go"); lines starting with ``#`` are its source and licence.
TABLE = Path(__file__).with_name("word_forms.txt")
_WORD = re.compile(r"[^\W_]+")
#: What parts a memory's content from the base forms after it in the index (no token for FTS5).
MARK = "\n\x1f"


@cache
def base_forms() -> dict[str, str]:
    """Irregular form -> its base form, lowercase."""
    pairs = (line.split() for line in TABLE.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#"))
    return {form: base for form, base in pairs}


def base_word(token: str) -> str | None:
    """The base form of ``token`` (lowercase) when it is an irregular form, else None."""
    return base_forms().get(token)


def indexed(content: str) -> str:
    """``content`` as the index holds it: followed by :data:`MARK` and the base form of each
    irregular form in it ("Jolene went home" -> "Jolene went home" MARK "go")."""
    forms = base_forms()
    extra = [base for w in _WORD.findall(content) if (base := forms.get(w.lower()))]
    return f"{content}{MARK}{' '.join(extra)}"


def content_of(stored: str) -> str:
    """The memory's content from what the index holds (:func:`indexed`)."""
    return stored.rpartition(MARK)[0] if MARK in stored else stored
