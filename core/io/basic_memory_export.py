"""The vault as a basic-memory project folder: ``memvault export --to basic-memory DIR`` (then
``basic-memory project add NAME DIR``, or point an existing project at it).

Every memory becomes one note file (front matter, a blank line, the body), written as
basic-memory writes its notes (python-frontmatter, keys in their order):

- a memory imported from basic-memory (``meta.extra["basic_memory"]``) goes back to its path
  with its front matter as it was, its tags as the memory now has them (without the tag made of
  its type) and its content as the body, so import -> export gives the same notes;
- any other memory becomes ``memvault/<title>.md``, titled by its MCP memory entity's name,
  else the first line of its content (80 characters at most, `` [id8]`` added when two would share a title), of type ``memory``,
  with a permalink ``memvault/<id>``, its tags, and its times as ``created`` and ``modified``;
- a relation of the vault that the body of its source note does not already state is added to
  that body as a ``- relation_type [[Target title]]`` line, so basic-memory reads every relation
  (a ``links_to`` relation counts as stated when the body holds the ``[[link]]``); an end that is
  no memory of the vault is written with the text the import kept, else its id.

Files are written atomically (mode 0600), all or none (:mod:`core.io.export_files`): every
target is checked before any is written. A file that already exists is refused unless
``force`` (which replaces the files this export writes and nothing else); a path that would
leave the folder or go through a symbolic link is never written.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

import frontmatter

from ..model.records import Memory, Relation
from ..vault import Vault
from .basic_memory import (
    DEFAULT_TYPE,
    KEPT_FILE,
    KEY,
    LINKS_TO,
    NATIVE_TYPE,
    WIKILINK,
    links_in,
    note_memory,
    note_native,
    plain,
    tags_of,
)
from .export_files import export_targets, write_all
from .kept_fields import KeptFields
from .mcp_memory_export import GraphExportReport, display_name

NATIVE_FOLDER = "memvault"
UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]")


@dataclass
class Note:
    memory: Memory
    path: str
    title: str
    front: dict[str, Any]


def _origin(memory: Memory) -> dict[str, Any] | None:
    found = memory.meta.extra.get(KEY)
    if isinstance(found, dict) and isinstance(found.get("frontmatter"), dict) \
            and _safe_path(found.get("path")):
        return found
    return None


def _safe_path(path: Any) -> bool:
    if not isinstance(path, str) or not path.endswith(".md") or "\\" in path:
        return False
    parts = PurePosixPath(path).parts
    return bool(parts) and not PurePosixPath(path).is_absolute() \
        and all(p not in ("", ".", "..") and not p.startswith(".") for p in parts)


def _iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat()


def plan_notes(memories: list[Memory], report: GraphExportReport | None = None) -> list[Note]:
    """Each memory's note: its path, title and front matter (see the module doc)."""
    notes: list[Note] = []
    paths: set[str] = set()
    titles: set[str] = set()
    for m in memories:
        origin = _origin(m)
        if origin is None or origin["path"].lower() in paths:
            continue
        front = dict(origin["frontmatter"])
        kind = front.get("type") if isinstance(front.get("type"), str) else DEFAULT_TYPE
        stated = kind in (DEFAULT_TYPE, NATIVE_TYPE) or kind in tags_of(front)  # a tag of its own
        tags = [t for t in m.meta.tags if t != kind or stated]
        if tags or "tags" in front:
            front["tags"] = tags
        title = front.get("title") if isinstance(front.get("title"), str) else None
        title = title or PurePosixPath(origin["path"]).stem
        notes.append(Note(m, origin["path"], title, front))
        paths.add(origin["path"].lower())
        titles.add(title)
    done = {n.memory.id for n in notes}
    for m in memories:
        if m.id in done:
            continue
        title = display_name(m) or m.id
        if title in titles:
            title = f"{title} [{m.id[:8]}]"
        file_name = UNSAFE.sub(" ", title).strip(". ") or m.id
        path = f"{NATIVE_FOLDER}/{file_name}.md"
        if path.lower() in paths:
            path = f"{NATIVE_FOLDER}/{m.id}.md"
        front = {"title": title, "type": NATIVE_TYPE, "permalink": f"{NATIVE_FOLDER}/{m.id}"}
        if m.meta.tags:
            front["tags"] = list(m.meta.tags)
        front["created"] = _iso(m.created_at)
        front["modified"] = _iso(m.last_used)
        notes.append(Note(m, path, title, front))
        paths.add(path.lower())
        titles.add(title)
        if report is not None:
            report.renamed[m.id] = title
    return notes


def _stated(body: str, kind: str, target: str) -> bool:
    if kind == LINKS_TO:
        return any(t.split("|", 1)[0].strip() == target for t in WIKILINK.findall(body))
    return any(k == kind and t == target for k, t, _ in links_in(body))


def _target_name(r: Relation, titles: dict[str, str]) -> tuple[str | None, bool]:
    """The text a relation's target is written with (None when no name is known: never a raw
    id), and whether it is a memory of the vault."""
    if r.to_memory_id in titles:
        return titles[r.to_memory_id], True
    kept = r.metadata.get(KEY)
    if isinstance(kept, dict) and isinstance(kept.get("target"), str):
        return kept["target"], False
    return None, False


def note_text(note: Note, relations: list[Relation], titles: dict[str, str],
              report: GraphExportReport | None = None,
              kept: KeptFields | None = None) -> str:
    """One note's file text: front matter, blank line, body with the relations it lacks; with
    ``kept``, what the note cannot hold is kept there (:mod:`core.io.kept_fields`)."""
    body = note.memory.content.strip()
    added: list[str] = []
    targets: list[tuple[Relation, str | None]] = []
    for r in relations:
        target, known = _target_name(r, titles)
        targets.append((r, target))
        if report is not None and not known:
            report.dangling.append(r.id)
        if target is not None and not _stated(body, r.relation_type, target) \
                and "\n" not in target:
            line = f"- {' '.join(r.relation_type.split()) or 'related'} [[{target}]]"
            if line not in added:
                added.append(line)
    if added:
        body = f"{body}\n\n" + "\n".join(added) if body else "\n".join(added)
    text = frontmatter.dumps(frontmatter.Post(body, **note.front), sort_keys=False)
    if kept is not None:
        newline = _origin(note.memory) is None or note.memory.meta.extra[KEY].get(
            "final_newline") is True
        text += "\n" if newline else ""
        _keep(note, body, newline, targets, kept, report)
    return text


def _keep(note: Note, body: str, newline: bool, targets: list[tuple[Relation, str | None]],
          kept: KeptFields, report: GraphExportReport | None) -> None:
    """What the note holds, and what it does not, kept (see :func:`note_text`)."""
    read_back = note_memory(note.memory.id, note.path, plain(note.front), body.strip(),
                            note.memory.created_at, note.memory.last_used, newline)
    kept.keep(note.path, note.memory, read_back, note_native(note.front, body))
    stated = {(kind, target) for kind, target, _ in links_in(body)}
    for r, target in targets:
        found = target is not None and (r.relation_type, target) in stated
        kept.keep_relation(note.path, r, [note.path, r.relation_type, target] if found else None)
        if not found and report is not None:
            report.kept_beside.append(r.id)


def export_basic_memory(vault: Vault, folder: Path | str, *, force: bool = False
                        ) -> GraphExportReport:
    """Write the vault as a basic-memory project folder, and in it what the notes cannot hold
    (see the module doc)."""
    out = Path(folder).expanduser()
    export_targets(out, [], force=force)  # the folder itself, before the notes are made
    memories = sorted(vault.memories.values(), key=lambda m: (m.created_at, m.id))
    report = GraphExportReport(os.path.abspath(out), "basic-memory", len(memories), 0)
    notes = plan_notes(memories, report)
    titles = {n.memory.id: n.title for n in notes}
    paths = {n.memory.id: n.path for n in notes}
    kept = KeptFields("what the notes of this folder cannot hold; memvault import --from "
                      "basic-memory reads it back")
    outgoing: dict[str, list[Relation]] = {}
    orphans: list[Relation] = []
    for r in sorted(vault.relations.values(), key=lambda r: (r.created_at, r.id)):
        if r.from_memory_id in titles:
            outgoing.setdefault(r.from_memory_id, []).append(r)
        else:
            report.dangling.append(r.id)  # no note to write it in: its source is gone
            orphans.append(r)
    report.relations = sum(len(v) for v in outgoing.values())
    texts = {n.path: note_text(n, outgoing.get(n.memory.id, []), titles, report, kept)
             for n in notes}
    for r in orphans:  # kept with the note of its other end, when there is one
        if r.to_memory_id in paths:
            kept.keep_relation(paths[r.to_memory_id], r, None)
            report.kept_beside.append(r.id)
        else:
            report.left_out.append(r.id)
    texts[KEPT_FILE] = kept.text()
    report.kept_fields, report.kept_file = kept.summary(), os.path.abspath(out / KEPT_FILE)
    targets = export_targets(out, list(texts), force=force)  # every one, before any is written
    write_all({targets[rel]: text.encode("utf-8") for rel, text in texts.items()}, out)
    return report


__all__ = ["Note", "export_basic_memory", "note_text", "plan_notes"]
