"""What another server's format cannot hold, kept beside the export where memvault reads it
back: ``export --to mcp-memory FILE`` writes ``FILE.memvault.json``, ``export --to basic-memory
DIR`` writes ``DIR/.memvault.json`` (a hidden file: basic-memory reads neither).

The file (pretty-printed JSON) holds, for each exported memory under its key in the format (the
MCP memory server's entity name, basic-memory's note path):

- ``native``: a sha256 of what the format holds of it (:func:`native_digest`), to tell whether
  the other program changed it since;
- ``memory``: its id, its times, and every other field whose value the import of the format alone
  would not give back (the gist, tags, status, strength, counts, ``meta``..., the content when
  the format's form of it reads back as another text);
- ``content_sha256``: of its content, so a content changed elsewhere drops the gist.

and every relation with its ``native`` form's digest (``None`` when the format holds nothing of
it: a relation to a memory the vault lacks, under no name), under its source memory's key.

The import of the format (:func:`restore`) then gives back, for a memory the other program left
as it was, the memory as it was exported, field for field; for one it changed, what the format
holds (``held``: its content, and basic-memory's tags) as the other program left it and the
rest as it was; a relation comes back when its native form is still there (or it had none and
its source memory is still there). A memory the file does not name is read as the format alone
says. ``docs/import-export.md`` says it field by field.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..model.records import Memory, Relation
from .foreign_import import ForeignSnapshot, LineProblem
from .foreign_read import SourceFileError, TooDeepError, load_json, read_source

VERSION = 1
ALWAYS = ("id", "created_at", "last_used")  # the import alone gives the import time, new ids
MAX_BYTES = 1 << 31
TIMES = {"created_at", "last_used", "promoted_at", "last_review_at"}
_BLANK = Memory(id="blank", content="", created_at=0, last_used=0)  # every field's default


def native_digest(native: Any) -> str:
    """sha256 of a value as canonical JSON: what the format holds of a record."""
    text = json.dumps(native, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class KeptFields:
    """What an export keeps beside the format (see the module doc), built one memory at a time."""

    about: str
    memories: dict[str, dict[str, Any]] = field(default_factory=dict)
    fields: set[str] = field(default_factory=set)  # the fields kept, for the export's summary

    def keep(self, key: str, memory: Memory, read_back: Memory, native: Any) -> None:
        """Keep what ``read_back`` (the format's own import of ``native``) lacks of ``memory``."""
        want = memory.model_dump(mode="json")
        got = read_back.model_dump(mode="json")
        kept = {k: v for k, v in want.items() if k in ALWAYS or got.get(k) != v}
        blank = _BLANK.model_dump(mode="json")
        for name in kept:  # named when the memory holds something there the format does not
            if name == "meta":  # by its parts: the tags, the source, the rest
                self.fields.update("tags" if sub == "tags" else f"meta.{sub}"
                                   for sub, value in want["meta"].items()
                                   if got["meta"].get(sub) != value
                                   and value != blank["meta"][sub])
            elif name in TIMES or (name != "id" and want[name] != blank[name]):
                self.fields.add(name)
        self.memories[key] = {"native": native_digest(native), "memory": kept,
                              "content_sha256": _sha(memory.content), "relations": []}

    def keep_relation(self, key: str, relation: Relation, native: Any | None) -> None:
        """Keep ``relation`` under its source memory's ``key``; ``native`` is what the format
        holds of it, None when nothing."""
        entry = self.memories[key]
        entry["relations"].append({"native": None if native is None else native_digest(native),
                                   "relation": relation.model_dump(mode="json")})

    def summary(self) -> list[str]:
        """The fields the format could not hold, in the order a person reads them."""
        shown = sorted(self.fields - TIMES) + (["times"] if self.fields & TIMES else [])
        return shown

    def text(self) -> str:
        """The file's text (pretty-printed, ending in a newline)."""
        return json.dumps({"memvault_kept_fields": VERSION, "about": self.about,
                           "memories": self.memories}, indent=2, ensure_ascii=False) + "\n"


class KeptFileError(ValueError):
    """The kept file is not one memvault wrote: why, for a bad record."""


def read_kept(path: Path) -> dict[str, dict[str, Any]] | None:
    """The kept memories of the file at ``path`` (None when there is none); KeptFileError when
    it is not a file memvault wrote (a link, not JSON, not the shape it has)."""
    try:
        data, _ = read_source(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except SourceFileError as exc:
        raise KeptFileError(exc.why) from None
    except OSError as exc:
        raise KeptFileError(f"cannot be read: {exc.strerror or exc}") from None
    try:
        doc = load_json(data)
    except TooDeepError as exc:
        raise KeptFileError(f"a JSON value {exc}") from None
    except ValueError as exc:
        raise KeptFileError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("memvault_kept_fields") != VERSION \
            or not isinstance(doc.get("memories"), dict):
        raise KeptFileError("not a file of kept fields memvault writes "
                            f"(version {VERSION} with its 'memories')")
    memories: dict[str, dict[str, Any]] = doc["memories"]
    for key, entry in memories.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("native"), str)
                and isinstance(entry.get("memory"), dict)
                and isinstance(entry["memory"].get("id"), str)
                and isinstance(entry.get("relations", []), list)):
            raise KeptFileError(f"the entry {key!r} is not one memvault writes")
    return memories


def restore(snap: ForeignSnapshot, kept: dict[str, dict[str, Any]], file: str,
            natives: dict[str, tuple[str, Any, dict[str, Any]]],
            relation_natives: dict[str, list[str]], owned: dict[str, set[str]]) -> None:
    """Give the snapshot's memories back what ``kept`` holds (see the module doc).

    ``natives``: key -> (the memory's id in ``snap``, its native form, the fields the format
    holds with their values as read: ``tags`` for the tags, ``extra`` for the keys of
    ``meta.extra`` that say where a memory of that origin came from, taken when it has them); ``relation_natives``: a relation's native digest -> its
    ids in ``snap``; ``owned``: key -> the ids of the snapshot's relations that only that
    record's native form states (dropped when it is left as it was: the kept ones are its
    relations)."""
    ids: dict[str, str] = {}
    restored: dict[str, bool] = {}
    for key, entry in kept.items():
        if key not in natives:
            continue  # removed by the other program
        sid, native, held = natives[key]
        read = snap.memories.get(sid)
        if read is None:
            continue
        untouched = entry["native"] == native_digest(native)
        values = {**read.model_dump(mode="json"), **entry["memory"]}
        if not untouched:
            for name, value in held.items():
                if name == "tags":
                    values["meta"] = {**values["meta"], "tags": value}
                elif name == "extra":  # what the import keeps of its origin, when it has one
                    extra = dict(values["meta"].get("extra") or {})
                    extra.update({k: v for k, v in value.items() if k in extra})
                    values["meta"] = {**values["meta"], "extra": extra}
                else:
                    values[name] = value
            if _sha(values["content"]) != entry.get("content_sha256"):
                values["gist"] = None
        try:
            memory = Memory.model_validate(values)
        except ValidationError as exc:
            error = exc.errors()[0]
            snap.problems.append(LineProblem(file, 1, f"the kept fields of {key!r} are not a "
                                             f"memory: {'.'.join(map(str, error['loc']))}: "
                                             f"{error['msg']}"))
            continue
        del snap.memories[sid]
        snap.stated.pop(sid, None)
        snap.memories[memory.id] = memory
        snap.stated[memory.id] = frozenset(Memory.model_fields) - {"id"}
        snap.where[memory.id] = snap.where.pop(sid, (file, 1))
        if sid in snap.import_time:
            snap.import_time.remove(sid)
        ids[sid] = memory.id
        restored[key] = untouched
    _remap_relations(snap, ids)
    for key, untouched in restored.items():
        if untouched:
            for rid in owned.get(key, set()):
                snap.relations.pop(rid, None)
                snap.dangling.pop(rid, None)
        _restore_relations(snap, kept[key], file, relation_natives)


def _remap_relations(snap: ForeignSnapshot, ids: dict[str, str]) -> None:
    for rid, r in list(snap.relations.items()):
        ends = {"from_memory_id": ids.get(r.from_memory_id, r.from_memory_id),
                "to_memory_id": ids.get(r.to_memory_id, r.to_memory_id)}
        if ends != {"from_memory_id": r.from_memory_id, "to_memory_id": r.to_memory_id}:
            snap.relations[rid] = r.model_copy(update=ends)


def _restore_relations(snap: ForeignSnapshot, entry: dict[str, Any], file: str,
                       relation_natives: dict[str, list[str]]) -> None:
    for item in entry.get("relations", []):
        if not isinstance(item, dict):
            continue
        native = item.get("native")
        if native is not None and native not in relation_natives:
            continue  # the other program removed it
        try:
            relation = Relation.model_validate(item.get("relation"))
        except ValidationError as exc:
            snap.problems.append(LineProblem(file, 1, f"a kept relation is not a relation: "
                                             f"{exc.errors()[0]['msg']}"))
            continue
        for rid in relation_natives.get(native, []) if native is not None else []:
            snap.relations.pop(rid, None)
            snap.dangling.pop(rid, None)
        snap.relations[relation.id] = relation


__all__ = ["KeptFields", "KeptFileError", "native_digest", "read_kept", "restore"]
