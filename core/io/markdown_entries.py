"""The sections of tiered markdown memory files, parsed into entries (see
:mod:`core.io.markdown_import` for the layout).

The files are the daily ``memory/YYYY-MM-DD.md`` and ``MEMORY.md``; an entry is a ``## ``
heading, its body, its ``Tags:`` line and its metadata comment (read by
:func:`core.io.markdown_meta.read_block`). What cannot be read is appended to the caller's list
of problems, with file and line; nothing raises except :func:`check_source` when there is
nothing to import."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import VaultError
from .markdown_meta import read_block

LONG_TERM_FILE = "MEMORY.md"

_DAILY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.md$")
_HEADING = re.compile(r"^##(?!#)\s*(.*?)\s*$")
_TIMED = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*[-–—:|]\s*|\s+|$)(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TAGS_LINE = re.compile(r"^\s*tags\s*:\s*(.*?)\s*$", re.IGNORECASE)
#: A comment is the entry's metadata when a line of it starts with a schema field (or it is
#: one ``{...}`` mapping); other comments are only left out of the content.
_META_LINE = re.compile(r"^\s*(\{|[\"']?(id|importance|entities|links|episode|tier|status|"
                        r"superseded_by|summary|tags|retrieval|resurfacing)[\"']?\s*:)")


@dataclass(frozen=True)
class ImportProblem:
    file: str
    line: int
    message: str
    skipped: bool = False  # the whole entry was skipped (else only a field was ignored)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class Entry:
    """One section of a markdown file, parsed."""

    file: str
    line: int
    title: str
    body: str
    long_term: bool
    day: date | None = None
    clock: tuple[int, int, int] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    fields_line: int = 0
    field_lines: dict[str, int] = field(default_factory=dict)  # field -> its line
    tags: list[str] = field(default_factory=list)
    rank: int = 0  # among entries of the file with the same time and title

    @property
    def content(self) -> str:
        if self.title and self.body:
            return f"{self.title}\n\n{self.body}"
        return self.title or self.body


def find_files(folder: Path) -> list[Path]:
    """Daily files (``memory/YYYY-MM-DD.md`` or ``YYYY-MM-DD.md``) by date, then ``MEMORY.md``."""
    daily: dict[str, Path] = {}
    for d in (folder, folder / "memory"):
        if d.is_dir():
            for p in d.iterdir():
                if _DAILY.match(p.name) and p.is_file():
                    daily.setdefault(p.name, p)
    found = [daily[name] for name in sorted(daily)]
    long_term = folder / LONG_TERM_FILE
    if long_term.is_file():
        found.append(long_term)
    return found


def check_source(folder: Path | str) -> list[Path]:
    """The files to import from ``folder``, or VaultError when there is nothing to import."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise VaultError(f"no folder {root}")
    files = find_files(root)
    if not files:
        raise VaultError(f"nothing to import: {root} holds no memory/YYYY-MM-DD.md files and no "
                         f"{LONG_TERM_FILE}")
    return files


def parse_file(text: str, relfile: str, long_term: bool,
               problems: list[ImportProblem]) -> list[Entry]:
    """The entries of one file (``## `` sections); problems are appended to ``problems``."""
    day = None
    m = _DAILY.match(relfile.rsplit("/", 1)[-1])
    if m and not long_term:
        try:
            day = date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            problems.append(ImportProblem(relfile, 1, "the file name is not a real date; "
                                                      "its entries are skipped", True))
            return []
    sections: list[tuple[int, str, list[tuple[int, str]]]] = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading is not None:
            sections.append((n, heading[1], []))
        elif sections:
            sections[-1][2].append((n, line))
    entries: list[Entry] = []
    ranks: dict[tuple[Any, str], int] = {}
    for n, title, rows in sections:
        entry = _parse_section(relfile, n, title, rows, day, long_term, problems)
        if entry is None:
            continue
        key = (entry.clock, entry.title)
        entry.rank = ranks.get(key, 0)
        ranks[key] = entry.rank + 1
        entries.append(entry)
    return entries


def _parse_section(relfile: str, n: int, heading: str, rows: list[tuple[int, str]],
                   day: date | None, long_term: bool,
                   problems: list[ImportProblem]) -> Entry | None:
    title, clock = heading.strip(), None
    if not long_term:
        timed = _TIMED.match(title)
        hour = minute = second = -1
        if timed:
            hour, minute, second = int(timed[1]), int(timed[2]), int(timed[3] or 0)
        if timed and hour < 24 and minute < 60 and second < 60:
            clock, title = (hour, minute, second), timed[4].strip()
        else:
            problems.append(ImportProblem(relfile, n, "the heading has no `HH:MM - Title` "
                                                      "time; read as 00:00"))
            clock = (0, 0, 0)
    body: list[str] = []
    tags: list[str] = []
    meta_rows: list[tuple[int, str]] | None = None
    meta_line = 0
    fenced = False
    i = 0
    while i < len(rows):
        ln, line = rows[i]
        i += 1
        if _FENCE.match(line):
            fenced = not fenced
        stripped = line.strip()
        if not fenced and stripped.startswith("<!--"):
            inner: list[tuple[int, str]] = []
            rest = stripped[4:]
            start = ln
            closed = False
            while True:
                if "-->" in rest:
                    inner.append((ln, rest[: rest.index("-->")]))
                    closed = True
                    break
                inner.append((ln, rest))
                if i >= len(rows):
                    break
                ln, rest = rows[i]
                i += 1
            if not closed:
                problems.append(ImportProblem(relfile, start, "the metadata comment opened here "
                                                              "is never closed (-->); entry "
                                                              "skipped", True))
                return None
            if meta_rows is None and any(_META_LINE.match(t) for _, t in inner if t.strip()):
                meta_rows, meta_line = inner, start
            continue  # any other comment is invisible in markdown: left out of the content
        tag_match = None if fenced else _TAGS_LINE.match(line)
        if tag_match and all(t.startswith("#") for t in _words(tag_match[1])):
            tags.extend(t.lstrip("#") for t in _words(tag_match[1]) if t.lstrip("#"))
            continue
        body.append(line)
    text = "\n".join(body).strip()
    if not title and not text:
        problems.append(ImportProblem(relfile, n, "an entry with neither a title nor text; "
                                                  "skipped", True))
        return None
    entry = Entry(relfile, n, title, text, long_term, day, clock, tags=tags)
    if meta_rows is not None:
        fields, entry.field_lines, block_problems = read_block(meta_rows)
        entry.fields, entry.fields_line = fields, meta_line
        problems.extend(ImportProblem(relfile, p.line, p.message) for p in block_problems)
        if not isinstance(fields, dict):
            problems.append(ImportProblem(relfile, meta_line, "the metadata is not a mapping; "
                                                              "ignored"))
            entry.fields = {}
    return entry


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text) if w]


__all__ = ["LONG_TERM_FILE", "Entry", "ImportProblem", "check_source", "find_files",
           "parse_file"]
