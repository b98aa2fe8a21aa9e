"""The subject of a split draft: a heading is no part of its own, and a part that does not say
what the note is about gets its subject back.

A heading opens a note or a section of it: a Markdown heading (``# Berlin``), a line that ends
in a colon (``Berlin trip:``), a short title line without sentence punctuation followed by a
line that starts a sentence (``Trip notes for Berlin``), or a short sentence with no verb that
names itself a heading (*Trip notes for Berlin.*, *Onboarding notes for the new job.*: a word of
:data:`HEADING_WORDS` at its end or before a preposition). A lead-in is the same words ending
in a colon inside the note's first sentence (*Lisbon trip planning: the hotel is ...*): the part
that holds it keeps it as written.

:func:`headed_sections` cuts a text into (subject, body) at its headings; :func:`with_subject`
writes the subject before a part that names none of its words (:func:`core.wording.terms`, the
words two paraphrases share): *Trip notes for Berlin: The hotel is near Alexanderplatz.* Word
lists only, like the gist's: no tagger, no model.
"""

from __future__ import annotations

import re

from ..gist.clause_words import STRICT_AUX, words
from ..wording import terms

#: Words that make a short verbless phrase a heading (*Trip notes for Berlin*).
HEADING_WORDS = frozenset(
    """notes note plans plan planning ideas todo todos to-do checklist summary overview
    reminders thoughts agenda recap details info log journal setup list""".split()
)
#: The most words of a heading.
HEADING_MAX_WORDS = 8

_TAIL_PREPOSITIONS = frozenset("for on about from of in at to with".split())
_MARKDOWN = re.compile(r"^\s*#{1,6}\s+")
_LEAD_IN = re.compile(r"^([^:\n.!?;]{1,80}):\s+\S")
_STARTS_SENTENCE = re.compile(r"^\s*(?:[-*+•]\s+|\d+[.)]\s+)?[A-Z0-9\"'(\[]")
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])\s+(?=[A-Z0-9\"'(\[])", re.DOTALL)
_PARAGRAPH = re.compile(r"\n\s*\n")


def subject_of(heading: str) -> str:
    """The subject a heading gives its parts: its words, less the Markdown marks and the
    closing punctuation."""
    return _MARKDOWN.sub("", heading).strip().rstrip(".:;!?").strip()


def _verbless(text: str) -> bool:
    ws = words(text)
    return (0 < len(ws) <= HEADING_MAX_WORDS
            and not any(w.lower() in STRICT_AUX for w in ws)
            and ws[0][:1].isupper())


def _names_itself_heading(text: str) -> bool:
    """A verbless phrase with a heading word at its end or before a preposition, not opened by
    a verb in -s (*Wants end-to-end encryption before sharing notes with anyone* is a memory's
    sentence, its subject the person, not a title)."""
    ws = [w.lower() for w in words(text)]
    if ws and ws[0] not in HEADING_WORDS and ws[0].endswith("s") and not ws[0].endswith("ss"):
        return False
    return _verbless(text) and any(
        w in HEADING_WORDS and (i == len(ws) - 1 or ws[i + 1] in _TAIL_PREPOSITIONS)
        for i, w in enumerate(ws))


def is_heading_line(line: str, next_line: str | None) -> bool:
    """Whether ``line`` is a heading, ``next_line`` (None: none) being the line after it."""
    stripped = line.strip()
    if not stripped:
        return False
    if _MARKDOWN.match(line):
        return True
    if stripped.endswith(":"):
        return _verbless(stripped[:-1])
    if stripped[-1] in ".!?":
        return stripped[-1] == "." and _names_itself_heading(stripped[:-1])
    if stripped[-1] in ",;" or next_line is None:
        return False
    return _verbless(stripped) and _STARTS_SENTENCE.match(next_line) is not None


def _peel(paragraph: str) -> tuple[str | None, str]:
    """(the heading that opens ``paragraph``, the rest): a heading line, or a first sentence
    that names itself a heading; (None, paragraph) when it opens with none."""
    lines = paragraph.split("\n")
    if is_heading_line(lines[0], lines[1] if len(lines) > 1 else ""):
        return lines[0], "\n".join(lines[1:]).strip()
    first = _FIRST_SENTENCE.match(paragraph)
    if first and "\n" not in first.group(1) and _names_itself_heading(first.group(1)[:-1]):
        return first.group(1), paragraph[first.end():].strip()
    return None, paragraph


def headed_sections(text: str) -> list[tuple[str | None, str]]:
    """``text`` cut at its headings: (the subject of the heading above, the body under it, its
    paragraphs as written), in order; a heading with nothing under it before the next heading
    (or the end) stays a body of its own. One (None, text) when there is no heading."""
    sections: list[tuple[str | None, str, list[str]]] = [(None, "", [])]  # subject, as written
    for paragraph in (p.strip() for p in _PARAGRAPH.split(text.strip())):
        if not paragraph:
            continue
        heading, rest = _peel(paragraph)
        if heading is not None:
            sections.append((subject_of(heading), paragraph, [rest] if rest else []))
        else:
            sections[-1][2].append(paragraph)
    out: list[tuple[str | None, str]] = []
    for subject, written, bodies in sections:
        if bodies:
            out.append((subject, "\n\n".join(bodies)))
        elif subject is not None:  # nothing under it: a body of its own, as written
            out.append((None, written))
    return out


def lead_in(text: str) -> str | None:
    """The subject of a lead-in opening ``text`` (*Lisbon trip planning: the hotel ...* ->
    *Lisbon trip planning*), or None."""
    match = _LEAD_IN.match(text.strip())
    if match is None or "\n" in match.group(1) or not _verbless(match.group(1)):
        return None
    return match.group(1).strip()


def names_subject(piece: str, subject: str) -> bool:
    """Whether ``piece`` says a word of ``subject`` (not counting the heading words: *notes*)."""
    wanted = terms(subject) - terms(" ".join(HEADING_WORDS))
    return not wanted or bool(wanted & terms(piece))


def with_subject(piece: str, subject: str | None) -> str:
    """``piece``, with ``subject`` written before it when it names none of its words."""
    if not subject or names_subject(piece, subject):
        return piece
    return f"{subject}: {piece}"
