"""Tiered markdown memories into the vault (``memvault import-markdown DIR``).

The layout (see the memory entry schema): short-term memories in daily files
``memory/YYYY-MM-DD.md`` (also found directly in ``DIR``), one entry a section::

    ## 14:30 - Auth Design Decision

    Decided to use JWT with 15-minute expiry instead of session tokens.

    <!--
    id: mem_a1b2c3
    importance: 0.75
    entities: [jwt, session-tokens]
    links: [{to: mem_xyz, type: alternative_to, weight: 0.8}]
    episode: {task: auth-design, outcome: decision}
    -->

    Tags: #auth #security

and long-term knowledge curated in ``MEMORY.md``, whose ``## `` sections become promoted memories.

Each entry becomes a memory:

- content: the title, a blank line and the body (the text of the section without its metadata
  comment and its ``Tags:`` line); an entry with neither is skipped;
- created_at: the file's date and the heading's time, read in the local time zone (``tz``);
  a ``MEMORY.md`` section: ``retrieval.created_at`` or ``episode.timestamp`` when given, else the
  time the vault already has for it, else the file's modification time;
- tags (``Tags: #a #b`` and a ``tags`` field, without the ``#``) and ``entities`` kept;
- ``importance`` (0-1) mapped to strength 1.0-2.0; without one, the schema's default for the tier
  (ultra-short and short 0.5, medium 0.6, long 0.8; a daily entry is short, a ``MEMORY.md``
  section long unless its ``tier`` says otherwise); ``importance``, ``tier`` and ``episode`` kept
  in ``meta.extra`` as given, and so is every other field memvault has no place for
  (``retrieval``, ``resurfacing``, ...); ``summary`` becomes the gist; ``retrieval.access_count``
  and ``retrieval.last_accessed`` become use_count and last_used;
- ``links`` become relations of the same type with the weight as strength (1.0 when absent);
  ``superseded_by: X`` a ``supersedes`` relation from X to the entry, whose status becomes
  superseded; ``status`` (active, archived, superseded) is kept; a ``MEMORY.md`` section is
  promoted (``promoted_to: "MEMORY.md"``) unless its status says otherwise;
- ids are kept when they are safe file names (:func:`core.layout.check_id`); another id becomes a
  uuid5 derived from it, recorded as ``meta.extra["original_id"]``, and links to it follow; an
  entry without an id gets a uuid5 of its file, time, title and rank, the same on every run.

Entries or fields that cannot be read are reported with file and line: an entry (a heading
without text, a metadata comment that is never closed) is skipped, a field (a line of the
metadata the small reader cannot parse, an importance that is not a number in 0-1, a link without
``to``) is ignored and the entry imported without it. Nothing is fatal.

Everything is ONE commit (``import: N memories, M relations from markdown (...)``). Running it
again on the same files changes nothing; after the files changed, only the entries that differ
are written. Fields the markdown does not state (use count, last use, a gist made in memvault,
a status changed in memvault) are left as the vault has them. As with ``migrate``, no gists are
made (``memvault backfill-gists`` does, one commit).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Any

from .errors import InvalidIdError, VaultError
from .flowyaml import parse_block
from .layout import check_id
from .models import Memory, MemoryMetadata, MemoryStatus, Relation
from .migrate import run_plan
from .vault import ChangeSet, Vault

ID_NAMESPACE = uuid.UUID("2f8d7a36-8b1e-4c8e-9a3f-6d61726b646e")
LONG_TERM_FILE = "MEMORY.md"
TIERS = {"ultra-short": 0.5, "short": 0.5, "medium": 0.6, "long": 0.8}  # default importance
OUTCOMES = frozenset({"success", "failure", "decision", "observation", "correction"})
LINK_TYPES = frozenset({"related_to", "depends_on", "part_of", "caused_by", "similar_to",
                        "contradicts", "supersedes", "alternative_to"})
STATUSES = {"active": MemoryStatus.ACTIVE, "archived": MemoryStatus.ARCHIVED,
            "superseded": MemoryStatus.SUPERSEDED}
#: Fields turned into memory fields (everything else in the metadata goes to meta.extra).
_MAPPED = frozenset({"id", "entities", "links", "tags", "status", "superseded_by", "summary"})

_DAILY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.md$")
_HEADING = re.compile(r"^##(?!#)\s*(.*?)\s*$")
_TIMED = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*[-–—:|]\s*|\s+|$)(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TAGS_LINE = re.compile(r"^\s*tags\s*:\s*(.*?)\s*$", re.IGNORECASE)
#: A comment is the entry's metadata when a line of it starts with a schema field (or it is
#: one ``{...}`` mapping); other comments are only left out of the content.
_META_LINE = re.compile(r"^\s*(\{|[\"']?(id|importance|entities|links|episode|tier|status|"
                        r"superseded_by|summary|tags|retrieval|resurfacing)[\"']?\s*:)")

Progress = Callable[[str, int, int], None]


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


@dataclass
class MarkdownImportReport:
    source: str
    dry_run: bool
    files: list[str] = field(default_factory=list)
    entries: int = 0  # entries read (imported or not)
    memories: int = 0  # memories the files hold
    relations: int = 0
    new_memories: list[str] = field(default_factory=list)
    updated_memories: list[str] = field(default_factory=list)
    unchanged_memories: int = 0
    new_relations: list[str] = field(default_factory=list)
    updated_relations: list[str] = field(default_factory=list)
    unchanged_relations: int = 0
    dangling: list[str] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    remapped: dict[str, str] = field(default_factory=dict)
    without_gist: int = 0
    commit: str | None = None

    @property
    def skipped(self) -> list[ImportProblem]:
        return [p for p in self.problems if p.skipped]

    @property
    def changed(self) -> bool:
        return bool(self.new_memories or self.updated_memories or self.new_relations
                    or self.updated_relations)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "dry_run": self.dry_run, "files": self.files,
            "entries": self.entries, "memories": self.memories, "relations": self.relations,
            "new_memories": self.new_memories, "updated_memories": self.updated_memories,
            "unchanged_memories": self.unchanged_memories,
            "new_relations": self.new_relations, "updated_relations": self.updated_relations,
            "unchanged_relations": self.unchanged_relations,
            "dangling_relations": self.dangling,
            "problems": [{"file": p.file, "line": p.line, "message": p.message,
                          "skipped": p.skipped} for p in self.problems],
            "remapped_ids": self.remapped, "without_gist": self.without_gist,
            "commit": self.commit,
        }


# -- reading the files -----------------------------------------------------------------------
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
    for n, heading, rows in sections:
        entry = _parse_section(relfile, n, heading, rows, day, long_term, problems)
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
        fields, parse_problems = parse_block(meta_rows, entry.field_lines)
        entry.fields, entry.fields_line = fields, meta_line
        problems.extend(ImportProblem(relfile, p.line, p.message + "; ignored")
                        for p in parse_problems)
        if not isinstance(fields, dict):
            problems.append(ImportProblem(relfile, meta_line, "the metadata is not a mapping; "
                                                              "ignored"))
            entry.fields = {}
    return entry


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text) if w]


# -- entries into records --------------------------------------------------------------------
def vault_id(original: str) -> str:
    """The vault id of a markdown entry id: itself when safe, else a uuid5 of it."""
    try:
        return check_id(original)
    except InvalidIdError:
        return str(uuid.uuid5(ID_NAMESPACE, "id:" + original))


@dataclass
class _Built:
    memory: Memory
    links: list[tuple[str, str, float, int]]  # (to vault id, type, weight, line)
    superseded_by: str | None
    explicit: set[str]  # memory fields the markdown states (the rest keep the vault's values)
    entry: Entry


def _build(entry: Entry, problems: list[ImportProblem], remapped: dict[str, str],
           tz: tzinfo | None, mtime: int) -> _Built:
    f = dict(entry.fields)
    where = entry.fields_line or entry.line

    def warn(message: str, key: str | None = None) -> None:
        line = entry.field_lines.get(key, where) if key else where
        problems.append(ImportProblem(entry.file, line, message))

    extra: dict[str, Any] = {}
    explicit: set[str] = set()
    # id
    raw_id = f.get("id")
    if isinstance(raw_id, (int, float)) and not isinstance(raw_id, bool):
        raw_id = str(raw_id)
    if raw_id is not None and not isinstance(raw_id, str):
        warn("id is not a string; a new id is made", "id")
        raw_id = None
    if isinstance(raw_id, str) and raw_id.strip():
        memory_id = vault_id(raw_id.strip())
        if memory_id != raw_id.strip():
            extra["original_id"] = raw_id.strip()
            remapped[raw_id.strip()] = memory_id
    else:
        clock = ":".join(f"{x:02d}" for x in entry.clock) if entry.clock else ""
        memory_id = str(uuid.uuid5(ID_NAMESPACE, f"entry:{entry.file}:{clock}:{entry.title}:"
                                                 f"{entry.rank}"))
    # tier, importance -> strength
    tier = f.get("tier")
    if tier is not None:
        if not isinstance(tier, str) or tier not in TIERS:
            warn(f"tier {tier!r} is not one of {', '.join(TIERS)}; kept as it is", "tier")
        extra["tier"] = tier
    importance = f.get("importance")
    if importance is not None:
        if isinstance(importance, bool) or not isinstance(importance, (int, float)) \
                or not 0 <= importance <= 1:
            warn(f"importance {importance!r} is not a number from 0 to 1; ignored",
                 "importance")
            importance = None
        else:
            extra["importance"] = importance
            explicit.add("strength")
    if importance is None:
        default_tier = tier if isinstance(tier, str) and tier in TIERS else (
            "long" if entry.long_term else "short")
        importance = TIERS[default_tier]
    strength = round(1.0 + float(importance), 6)
    # episode
    episode = f.get("episode")
    if episode is not None:
        if not isinstance(episode, dict):
            warn("episode is not a mapping; kept as it is", "episode")
        elif episode.get("outcome") is not None and episode.get("outcome") not in OUTCOMES:
            warn(f"episode outcome {episode.get('outcome')!r} is not one of "
                 f"{', '.join(sorted(OUTCOMES))}; kept as it is", "episode")
        extra["episode"] = episode
    # entities, tags
    entities = _strings(f.get("entities"), "entities", lambda m: warn(m, "entities"))
    tags = list(entry.tags)
    tags.extend(t.lstrip("#") for t in _strings(f.get("tags"), "tags", lambda m: warn(m, "tags"))
                if t.lstrip("#"))
    # status, superseded_by
    status = MemoryStatus.PROMOTED if entry.long_term else MemoryStatus.ACTIVE
    raw_status = f.get("status")
    if raw_status is not None:
        if raw_status in STATUSES:
            status = STATUSES[raw_status]
            explicit.add("status")
        else:
            warn(f"status {raw_status!r} is not one of {', '.join(STATUSES)}; ignored",
                 "status")
    superseded_by = f.get("superseded_by")
    if superseded_by is not None:
        if isinstance(superseded_by, str) and superseded_by.strip():
            superseded_by = vault_id(superseded_by.strip())
            status = MemoryStatus.SUPERSEDED
            explicit.add("status")
        else:
            warn("superseded_by is not an id; ignored", "superseded_by")
            superseded_by = None
    # summary -> gist
    gist = f.get("summary")
    if gist is not None:
        if isinstance(gist, str) and gist.strip():
            gist = gist.strip()
            explicit.add("gist")
        else:
            warn("summary is not text; kept in meta.extra", "summary")
            extra["summary"] = gist
            gist = None
    # retrieval -> use_count, last_used
    retrieval = f.get("retrieval")
    use_count, last_accessed, stated_created = 0, None, None
    if retrieval is not None:
        extra["retrieval"] = retrieval
        if isinstance(retrieval, dict):
            count = retrieval.get("access_count")
            if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
                use_count = count
                explicit.add("use_count")
            elif count is not None:
                warn(f"retrieval.access_count {count!r} is not a count; ignored", "retrieval")
            last_accessed = _epoch(retrieval.get("last_accessed"), tz, "retrieval.last_accessed",
                                   lambda m: warn(m, "retrieval"))
            stated_created = _epoch(retrieval.get("created_at"), tz, "retrieval.created_at",
                                    lambda m: warn(m, "retrieval"))
    if stated_created is None and isinstance(episode, dict) and entry.long_term:
        stated_created = _epoch(episode.get("timestamp"), tz, "episode.timestamp",
                                lambda m: warn(m, "episode"))
    # links
    links: list[tuple[str, str, float, int]] = []
    raw_links = f.get("links")
    if raw_links is not None:
        if isinstance(raw_links, (dict, str)):
            raw_links = [raw_links]
        if not isinstance(raw_links, list):
            warn("links is not a list; ignored", "links")
            raw_links = []
        link_line = entry.field_lines.get("links", where)
        for link in raw_links:
            parsed = _link(link, lambda message: warn(message, "links"))
            if parsed is not None:
                links.append((*parsed, link_line))
    # everything else is kept as given
    for key, value in f.items():
        if key not in _MAPPED and key not in ("tier", "importance", "episode", "retrieval"):
            extra[key] = value
    # created_at
    if entry.long_term:
        created = stated_created
        if created is None:
            created = mtime
        else:
            explicit.add("created_at")
    else:
        assert entry.day is not None and entry.clock is not None
        naive = datetime(entry.day.year, entry.day.month, entry.day.day, *entry.clock)
        created = int((naive.replace(tzinfo=tz) if tz is not None else naive).timestamp())
        explicit.add("created_at")
    last_used = max(created, last_accessed) if last_accessed is not None else created
    if last_accessed is not None:
        explicit.add("last_used")
    memory = Memory(
        id=memory_id, content=entry.content, gist=gist,
        meta=MemoryMetadata(tags=list(dict.fromkeys(tags)), source=f"markdown:{entry.file}",
                            extra=extra),
        created_at=created, last_used=last_used, use_count=use_count, strength=strength,
        status=status, entities=list(dict.fromkeys(entities)),
        promoted_at=created if status == MemoryStatus.PROMOTED else None,
        promoted_to=LONG_TERM_FILE if status == MemoryStatus.PROMOTED else None,
    )
    return _Built(memory, links, superseded_by, explicit, entry)


def _strings(value: Any, name: str, warn: Callable[[str], None]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) and
                                       not isinstance(v, bool) for v in value):
        return [str(v) for v in value if str(v).strip()]
    warn(f"{name} is not a list of words; ignored")
    return []


def _link(link: Any, warn: Callable[[str], None]) -> tuple[str, str, float] | None:
    if isinstance(link, str):
        link = {"to": link}
    if not isinstance(link, dict):
        warn(f"a link {link!r} is not a mapping; ignored")
        return None
    to = link.get("to")
    if not isinstance(to, str) or not to.strip():
        warn(f"a link without `to` ({link!r}); ignored")
        return None
    kind = link.get("type", "related_to")
    if not isinstance(kind, str) or not kind.strip():
        warn(f"a link to {to} has no usable type; read as related_to")
        kind = "related_to"
    elif kind not in LINK_TYPES:
        warn(f"link type {kind!r} is not one of the schema's; kept as it is")
    weight = link.get("weight", 1.0)
    if weight is None:
        weight = 1.0
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        warn(f"a link weight {weight!r} is not a number; read as 1.0")
        weight = 1.0
    elif not 0 <= weight <= 1:
        clamped = min(1.0, max(0.0, float(weight)))
        warn(f"a link weight {weight} is outside 0-1; read as {clamped:g}")
        weight = clamped
    return vault_id(to.strip()), kind.strip(), float(weight)


def _epoch(value: Any, tz: tzinfo | None, name: str, warn: Callable[[str], None]) -> int | None:
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=tz) if tz is not None else moment.astimezone()
            return int(moment.timestamp())
    warn(f"{name} {value!r} is not a time; ignored")
    return None


def _relation_id(from_id: str, kind: str, to_id: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, f"link:{from_id}:{kind}:{to_id}"))


# -- the import ------------------------------------------------------------------------------
def read_markdown(
    folder: Path | str,
    *,
    tz: tzinfo | None = None,
    progress: Progress | None = None,
) -> tuple[list[_Built], list[Relation], MarkdownImportReport]:
    """Parse every file of ``folder`` into records (nothing is written)."""
    root = Path(folder).expanduser()
    files = check_source(root)
    report = MarkdownImportReport(str(root.resolve()), dry_run=False)
    built: dict[str, _Built] = {}
    for done, path in enumerate(files, 1):
        relfile = path.relative_to(root).as_posix()
        report.files.append(relfile)
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            report.problems.append(ImportProblem(relfile, 1, f"not UTF-8 text (byte "
                                                             f"{exc.start + 1}); file skipped",
                                                 True))
            continue
        except OSError as exc:
            report.problems.append(ImportProblem(relfile, 1, f"cannot be read: "
                                                             f"{exc.strerror or exc}", True))
            continue
        long_term = path.name == LONG_TERM_FILE
        entries = parse_file(text, relfile, long_term, report.problems)
        report.entries += len(entries)
        mtime = int(path.stat().st_mtime)
        for entry in entries:
            item = _build(entry, report.problems, report.remapped, tz, mtime)
            previous = built.get(item.memory.id)
            if previous is not None:
                report.problems.append(ImportProblem(
                    relfile, entry.line, f"id {item.memory.id} was also used at "
                                         f"{previous.entry.file}:{previous.entry.line}; this "
                                         "later entry wins"))
            built[item.memory.id] = item
        if progress is not None:
            progress("files", done, len(files))
    relations: dict[str, Relation] = {}
    for item in built.values():
        m = item.memory
        pairs = [(m.id, to, kind, weight) for to, kind, weight, _ in item.links]
        if item.superseded_by is not None:
            pairs.append((item.superseded_by, m.id, "supersedes", 1.0))
        for a, b, kind, weight in pairs:
            rid = _relation_id(a, kind, b)
            relations[rid] = Relation(id=rid, from_memory_id=a, to_memory_id=b,
                                      relation_type=kind, strength=weight,
                                      created_at=m.created_at,
                                      metadata={"source": f"markdown:{item.entry.file}"})
    report.memories, report.relations = len(built), len(relations)
    return list(built.values()), sorted(relations.values(), key=lambda r: r.id), report


def _merge(old: Memory, item: _Built) -> Memory:
    """The vault's memory updated with what the markdown states."""
    new = item.memory
    update: dict[str, Any] = {
        "content": new.content, "entities": new.entities,
        "meta": old.meta.model_copy(update={
            "tags": new.meta.tags, "source": new.meta.source,
            "extra": {**old.meta.extra, **new.meta.extra}}),
    }
    if "created_at" in item.explicit or not item.entry.long_term:
        update["created_at"] = new.created_at
    if "gist" in item.explicit:
        update["gist"] = new.gist
    elif new.content != old.content:
        update["gist"] = None  # the old gist described the old content
    for name in ("strength", "use_count", "last_used"):
        if name in item.explicit:
            update[name] = getattr(new, name)
    if "status" in item.explicit:
        update["status"] = new.status
    elif item.entry.long_term and old.status == MemoryStatus.ACTIVE:
        update["status"] = MemoryStatus.PROMOTED
    if update.get("status", old.status) == MemoryStatus.PROMOTED and old.promoted_at is None:
        update["promoted_at"] = update.get("created_at", old.created_at)
        update["promoted_to"] = LONG_TERM_FILE
    return old.model_copy(update=update)


def import_markdown(
    vault: Vault | None,
    folder: Path | str,
    *,
    dry_run: bool = False,
    tz: tzinfo | None = None,
    progress: Progress | None = None,
) -> MarkdownImportReport:
    """Import the tiered markdown memories of ``folder`` as ONE commit (see the module doc).
    ``tz``: the zone of the files' dates and times (default: the local one). With ``dry_run``
    nothing is written (``vault`` may be None)."""
    if vault is None and not dry_run:
        raise VaultError("import-markdown: a vault is needed unless it is a dry run")
    items, relations, report = read_markdown(folder, tz=tz, progress=progress)
    report.dry_run = dry_run

    def plan(v: Vault | None) -> ChangeSet:
        memories = v.memories if v is not None else {}
        existing_relations = v.relations if v is not None else {}
        report.new_memories, report.updated_memories, report.unchanged_memories = [], [], 0
        report.new_relations, report.updated_relations, report.unchanged_relations = [], [], 0
        puts: list[Memory] = []
        for item in sorted(items, key=lambda b: b.memory.id):
            old = memories.get(item.memory.id)
            new = item.memory if old is None else _merge(old, item)
            if old is None:
                report.new_memories.append(new.id)
            elif old.model_dump_json() == new.model_dump_json():
                report.unchanged_memories += 1
                continue
            else:
                report.updated_memories.append(new.id)
            puts.append(new)
        put_relations: list[Relation] = []
        for r in relations:
            old_r = existing_relations.get(r.id)
            if old_r is None:
                report.new_relations.append(r.id)
            elif old_r.model_dump_json() == r.model_dump_json():
                report.unchanged_relations += 1
                continue
            else:
                report.updated_relations.append(r.id)
            put_relations.append(r)
        living = {i.memory.id for i in items} | set(memories)
        report.dangling = sorted(r.id for r in relations
                                 if r.from_memory_id not in living or r.to_memory_id not in living)
        report.without_gist = sum(1 for m in puts if m.gist is None)
        if not report.changed:
            return ChangeSet("import: nothing to change")
        return ChangeSet(_message(report), put_memories=puts, put_relations=put_relations)

    return run_plan(vault, plan, report, dry_run, progress)


def _message(report: MarkdownImportReport) -> str:
    def plural(n: int, word: str, many: str | None = None) -> str:
        return f"{n} {word if n == 1 else (many or word + 's')}"

    written = len(report.new_memories) + len(report.updated_memories)
    rels = len(report.new_relations) + len(report.updated_relations)
    details = [plural(len(report.files), "file")]
    if report.updated_memories or report.updated_relations:
        details.append(f"{len(report.updated_memories) + len(report.updated_relations)} updated")
    if report.dangling:
        details.append(f"{plural(len(report.dangling), 'dangling relation')} kept")
    if report.skipped:
        details.append(f"{plural(len(report.skipped), 'entry', 'entries')} skipped")
    return (f"import: {plural(written, 'memory', 'memories')}, {plural(rels, 'relation')} "
            f"from markdown ({'; '.join(details)})")


__all__ = ["ImportProblem", "MarkdownImportReport", "check_source", "import_markdown",
           "parse_file", "read_markdown", "vault_id"]
