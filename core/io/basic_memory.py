"""A basic-memory project folder read into the vault: ``memvault import --from basic-memory DIR``.

basic-memory keeps one markdown file a note: YAML front matter (``title``, ``type``,
``permalink``, ``tags``, any other key), then the body, where ``- [category] text #tag
(context)`` lines are observations, ``- relation_type [[Other Note]] (context)`` lines are
relations and a ``[[Note]]`` anywhere else in the text is a ``links_to`` relation.

One memory per note: its body as the content (observations and relation lines stay in the
text, where search finds them), its title as its entity, its front matter kept whole in
``meta.extra["basic_memory"]`` so the export writes the note back as it was; its id a uuid5 of
the permalink. Its time is the front matter's ``created``, else the file's modification time;
its last use is the import time (basic-memory records no use), so nothing imported starts out
forgotten. A relation's target is found by permalink, title or path, as basic-memory resolves a
``[[link]]``; one no note has is kept, dangling, and reported. Hidden folders and symbolic links
are not read; a file basic-memory would read as text without front matter is a bad record.
Field by field: ``docs/import-export.md``.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from frontmatter.default_handlers import YAMLHandler
import yaml
from pydantic import ValidationError

from ..errors import VaultError
from ..model.records import Memory, MemoryMetadata, Relation, now_epoch
from ..store.files import MAX_FILE_BYTES
from .foreign_import import ForeignSnapshot, LineProblem, Progress, digest_files, not_finite
from .kept_fields import KeptFileError, native_digest, read_kept, restore
from .foreign_read import (
    SourceFileError,
    TooDeepError,
    YamlAliasError,
    check_source_path,
    load_yaml,
    read_source,
    shown_name,
    utf8_name,
)

FORMAT = "basic-memory"
KEY = "basic_memory"
DEFAULT_TYPE = "note"
NATIVE_TYPE = "memory"  # the type of a note memvault's export makes of a memory from elsewhere
KEPT_FILE = ".memvault.json"  # what the notes cannot hold (core.io.kept_fields)
LINKS_TO = "links_to"
ID_NAMESPACE = uuid.UUID("62617369-632d-4d65-9d6f-6d656d766c74")
STATED = frozenset({"content", "entities", "meta", "created_at"})
#: ``- relation_type [[Target]] (context)``: not an observation (those start with ``[``)
EXPLICIT = re.compile(r"^\s*[-*]\s+([^\s\[\]#][^\[\]]*?)\s+\[\[([^\[\]]+)\]\](?:\s+\((.*)\))?\s*$")
WIKILINK = re.compile(r"\[\[([^\[\]]+)\]\]")
CODE_SPAN = re.compile(r"`[^`]*`")
FENCE = re.compile(r"^\s*(```|~~~)")


def note_id(key: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, f"note\0{key}"))


def relation_id(source_id: str, kind: str, target: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, json.dumps(["relation", source_id, kind, target])))


def links_in(body: str) -> list[tuple[str, str, str | None]]:
    """(type, target, context) of every relation in a note's body, in order, once each."""
    found: dict[tuple[str, str], str | None] = {}
    fenced = False
    for line in body.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        explicit = EXPLICIT.match(line)
        if explicit:
            kind, target, context = explicit.groups()
            found.setdefault((kind.strip(), _target(target)), context)
            continue
        for target in WIKILINK.findall(CODE_SPAN.sub("", line)):
            found.setdefault((LINKS_TO, _target(target)), None)
    return [(kind, target, context) for (kind, target), context in found.items()]


def _target(text: str) -> str:
    return text.split("|", 1)[0].strip()


def plain(value: Any) -> Any:
    """A YAML value as JSON can hold it (dates and times as ISO text)."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _when(value: Any) -> int | None:
    if isinstance(value, datetime):
        when = value
    elif isinstance(value, date):
        when = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    try:
        if when.tzinfo is None:
            when = when.astimezone()  # basic-memory reads a time without a zone as local
        seconds = int(when.timestamp())
    except (OverflowError, OSError, ValueError):
        return None
    return seconds if seconds >= 0 else None  # before 1970: the file's time is used


def tags_of(front: dict[str, Any]) -> list[str]:
    tags = front.get("tags")
    if isinstance(tags, str):
        tags = [t for t in re.split(r"[,\s]+", tags) if t]
    if not isinstance(tags, list):
        return []
    return list(dict.fromkeys(str(t).lstrip("#") for t in tags if str(t).strip()))


def note_files(root: Path) -> list[Path]:
    """The markdown files of the folder, in path order: no hidden folder, no symbolic link
    (what else is named ``*.md``, a fifo or a device, is refused when it is read)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            path = Path(folder) / name
            if name.lower().endswith(".md") and not name.startswith(".") \
                    and not path.is_symlink():
                found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _text(front: dict[str, Any], key: str) -> str | None:
    """The front matter's ``key`` when it is text, else None."""
    value = front.get(key)
    return value if isinstance(value, str) else None


class _Unread(str):
    """Why a file named ``*.md`` is a bad record that is no note at all (a fifo, a link, a
    name that is not UTF-8): unlike a note that does not parse, it is not backed up."""


def _read_note(path: Path) -> tuple[dict[str, Any], str, int, bool] | str:
    """(front matter, body, modification time, whether it ends in a newline) of one note, or
    why it is a bad record. The
    file is read through :mod:`core.io.foreign_read` (a regular file, at most the size a vault
    file may hold; YAML without aliases, nested at most ``MAX_DEPTH`` deep)."""
    if not utf8_name(path):
        return _Unread("its name is not UTF-8 text (rename it)")
    try:
        data, st = read_source(path, MAX_FILE_BYTES)
    except SourceFileError as exc:
        return _Unread(exc.why)
    except OSError as exc:
        return _Unread(f"cannot be read: {exc.strerror or exc}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte {exc.start + 1})"
    lines = text.split("\n")
    newline = text.endswith("\n")
    if not (lines and lines[0].rstrip() == "---"):
        return {}, text.strip(), int(st.st_mtime), newline
    if not any(line.rstrip() == "---" for line in lines[1:]):
        return "the front matter (line 1) is never closed by a '---' line"
    try:  # the body as python-frontmatter splits it; the YAML read safely
        fm, body = YAMLHandler().split(text.strip())
        front = load_yaml(fm)
    except yaml.YAMLError as exc:
        # where the broken piece starts (a quote or bracket never closed), else where
        # YAML stopped; its lines count from the file's first line
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = " ".join(filter(None, (getattr(exc, "context", None),
                                         getattr(exc, "problem", None)))) \
            or str(exc).split("\n")[0]
        return f"the front matter is not YAML{where}: {problem}"
    except (YamlAliasError, TooDeepError) as exc:
        return f"the front matter (line {exc.line + 1}) is refused: {exc}"
    except (TypeError, ValueError, AttributeError) as exc:
        return f"the front matter is not a mapping of keys: {exc}"
    if not isinstance(front, dict):
        return "the front matter is not a mapping of keys"
    front = plain(front)
    not_a_number = not_finite(front)
    if not_a_number:
        return f"a number that is not finite in the front matter at {not_a_number}"
    return front, body.strip(), int(st.st_mtime), newline


def read_basic_memory(folder: Path | str, progress: Progress | None = None,
                      now: int | None = None) -> ForeignSnapshot:
    """Read a basic-memory project folder into a snapshot (see the module doc)."""
    at = now_epoch() if now is None else now
    root = Path(folder).expanduser()
    check_source_path(root)
    if not root.is_dir():
        raise VaultError(f"no folder {root}")
    paths = note_files(root)
    if not paths:
        raise VaultError(f"nothing to import: {root} holds no markdown note (*.md)")
    snap = ForeignSnapshot(FORMAT, root.resolve())
    notes: list[tuple[Memory, list[tuple[str, str, str | None]], str]] = []
    natives: dict[str, tuple[str, Any, dict[str, Any]]] = {}
    by_permalink: dict[str, str] = {}
    for done, path in enumerate(paths, 1):
        rel = path.relative_to(root).as_posix()
        read = _read_note(path)
        if not isinstance(read, _Unread):
            snap.files[rel] = path  # backed up, a bad record too
        if progress is not None:
            progress("files", done, len(paths))
        if isinstance(read, str):
            line = int(m.group(1)) if (m := re.search(r"\(line (\d+)\)", read)) else 1
            snap.problems.append(LineProblem(shown_name(rel), line, read))
            continue
        front, body, mtime, newline = read
        permalink = _text(front, "permalink")
        key = permalink or rel[:-3]
        mid = note_id(key)
        if key in by_permalink:
            snap.notes.append(LineProblem(rel, 1, f"the permalink {key!r} is also "
                                          f"{by_permalink[key]}'s; this note's id comes from "
                                          "its path"))
            mid = note_id(f"path\0{rel}")
        else:
            by_permalink[key] = rel
        try:
            memory = note_memory(mid, rel, front, body, mtime, at, newline)
        except ValidationError as exc:  # what the record model refuses, said as it says it
            error = exc.errors()[0]
            snap.problems.append(LineProblem(rel, 1, "not a memory the vault can hold: "
                                             f"{'.'.join(str(p) for p in error['loc'])}: "
                                             f"{error['msg']}"))
            continue
        snap.memories[mid] = memory
        snap.stated[mid] = STATED
        snap.where[mid] = (rel, 1)
        notes.append((memory, links_in(body), rel))
        natives[rel] = (mid, note_native(front, body),
                        {"content": body, "tags": memory.meta.tags,
                         "extra": {KEY: memory.meta.extra[KEY]}})
    relation_natives, owned = _relate(snap, notes, root)
    kept = _kept_in(root, snap)
    snap.digest = digest_files(snap.files.items())
    if kept is not None:
        restore(snap, kept, KEPT_FILE, natives, relation_natives, owned)
    return snap


def _kept_in(root: Path, snap: ForeignSnapshot) -> dict[str, dict[str, Any]] | None:
    """The kept fields of an export in ``root`` (:mod:`core.io.kept_fields`; backed up with the
    notes); a file that is not one memvault wrote is a bad record."""
    try:
        kept = read_kept(root / KEPT_FILE)
    except KeptFileError as exc:
        snap.problems.append(LineProblem(KEPT_FILE, 1, str(exc)))
        return None
    if kept is not None:
        snap.files[KEPT_FILE] = root / KEPT_FILE
    return kept


def note_native(front: dict[str, Any], body: str) -> list[Any]:
    """What a note holds, as :func:`core.io.kept_fields.native_digest` compares it."""
    return [plain(front), body.strip()]


def _type_tag(front: dict[str, Any]) -> list[str]:
    """The tag the note's type gives: none for the default ``note``, nor for ``memory``, the
    type memvault's export gives a memory from elsewhere (it tells nothing either)."""
    kind = _text(front, "type") or DEFAULT_TYPE
    return [] if kind in (DEFAULT_TYPE, NATIVE_TYPE) else [kind]


def note_memory(mid: str, rel: str, front: dict[str, Any], body: str, mtime: int, at: int,
                newline: bool = False) -> Memory:
    """The memory of one note (see the module doc); ``newline``: the file ends in one."""
    created = _when(front.get("created")) or mtime
    extra: dict[str, Any] = {"path": rel, "frontmatter": front}
    if newline:
        extra["final_newline"] = True
    return Memory(id=mid, content=body,
                  meta=MemoryMetadata(tags=list(dict.fromkeys(tags_of(front) + _type_tag(front))),
                                      source=FORMAT, extra={KEY: extra}),
                  created_at=created, last_used=max(created, at),
                  entities=[_text(front, "title") or PurePosixPath(rel).stem])


def _relate(snap: ForeignSnapshot, notes: list[tuple[Memory, list[Any], str]],
            root: Path) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """The notes' links as relations between their memories (see the module doc); returns
    each link's native digest -> its relation ids, and each note's path -> its relation ids."""
    relation_natives: dict[str, list[str]] = {}
    owned: dict[str, set[str]] = {}
    exact: dict[str, str] = {}
    folded: dict[str, str] = {}  # ignoring case, when no name matches exactly
    for memory, _, rel in notes:  # the first note (by path) wins a shared name
        front = memory.meta.extra[KEY]["frontmatter"]
        for name in (front.get("permalink"), memory.entities[0], rel, rel[:-3]):
            if isinstance(name, str):
                exact.setdefault(name, memory.id)
                folded.setdefault(name.lower(), memory.id)
    for memory, links, rel in notes:
        for kind, target, context in links:
            end = exact.get(target) or folded.get(target.lower())
            rid = relation_id(memory.id, kind, target)
            details: dict[str, Any] = {"target": target}
            if context:
                details["context"] = context
            snap.relations[rid] = Relation(
                id=rid, from_memory_id=memory.id, to_memory_id=end or note_id(target),
                relation_type=kind, strength=1.0, created_at=memory.created_at,
                metadata={KEY: details})
            relation_natives.setdefault(native_digest([rel, kind, target]), []).append(rid)
            owned.setdefault(rel, set()).add(rid)
            if end is None:
                snap.dangling[rid] = (f"{rel}: {kind} [[{target}]]: no note of {root.name} "
                                      "has that title or permalink; kept dangling")
    return relation_natives, owned


__all__ = ["FORMAT", "KEPT_FILE", "KEY", "NATIVE_TYPE", "links_in", "note_files", "note_id",
           "note_memory", "note_native", "plain", "read_basic_memory", "relation_id", "tags_of"]
