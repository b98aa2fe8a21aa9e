"""The write-time secret check, on the one write path: :meth:`core.vault.writing.WritePath.commit`
hands every commit's files to :func:`check_commit` before anything is written, so every way into the vault
(add, update, save, import, migrate, split, consolidate, restore, the MCP tools, the app)
gets it without a line of its own.

Only secrets a write brings in count: a finding whose text the record (or another record the
same commit writes) already held at HEAD is let through, so touching, archiving or reinforcing
a memory a person stored with ``--allow-secret`` goes on working, and so does splitting it. A
record whose text fields did not change (a touch, a use record) is not scanned at all.

* ``refuse`` (the default): :class:`~core.secrets.policy.SecretRefusedError`, nothing written.
* ``redact``: each new secret is replaced by ``[REDACTED:<kind>]`` in the record and the plain
  file (a migration's backup); :attr:`Vault.notices` says what was.
* ``allow``: written as it is.

The commit message is memvault's own words, its subject made of a record's first words
(:func:`core.vault.reports.first_words`): under EVERY policy each secret found in it is
replaced by ``[REDACTED:<kind>]`` (:func:`message_without_secrets`), a secret stored as it is
(``--allow-secret``), one the record already held (a touch, a delete of it) or one a caller's
own message named. Git shows subjects everywhere (``git log --oneline``, a forge's web page);
the stored record stays byte-exact.

``.meta.json`` is memvault's own settings and is not scanned. A person's own edits of vault
files, committed as ``external:``, are committed as they wrote them: a secret in one is said
(:func:`outside_edit_notices`), never rewritten (see docs/secrets.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.records import Memory, Relation
from ..store.cache import Store
from ..store.layout import Layout, RefusedFileError, read_vault_file
from .policy import ALLOW, REDACT, SecretRefusedError, describe
from .scanner import Finding, redact_record, redact_text, scan_record, scan_text


#: fields that never hold text a person wrote: equal text fields mean nothing new to scan
_NOT_TEXT = frozenset({"created_at", "last_used", "use_count", "strength", "status",
                       "promoted_at", "review_priority", "last_review_at", "review_count",
                       "cross_domain_count", "embed"})


@dataclass
class CheckedCommit:
    """One commit's files after the check (redacted under ``redact``)."""

    message: str
    writes: dict[Path, bytes | None]
    memories: list[Memory]
    relations: list[Relation]
    redacted: dict[str, list[Finding]] = field(default_factory=dict)
    #: What a person should hear of (what was redacted), for :attr:`Vault.notices`.
    notices: list[str] = field(default_factory=list)


def _text_fields(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in _NOT_TEXT}


def check_commit(message: str, writes: dict[Path, bytes | None], memories: Iterable[Memory],
           relations: Iterable[Relation], *, layout: Layout, store: Store, policy: str
           ) -> CheckedCommit:
    """Check one commit's files (see the module docstring) under ``policy``
    (:func:`~.policy.policy_in_force`); ``layout`` says what each file is, ``store`` holds the
    records as HEAD has them. Raises SecretRefusedError."""
    memories, relations = list(memories), list(relations)
    result = CheckedCommit(message_without_secrets(message), writes, memories, relations)
    if policy == ALLOW:
        return result
    objects: dict[tuple[str, str], Memory | Relation] = {
        **{("memory", m.id): m for m in memories}, **{("relation", r.id): r for r in relations}}
    found: dict[Path, tuple[str, dict[str, Any] | None, list[Finding]]] = {}
    for path, data in writes.items():
        if data is None:
            continue
        rel = path.relative_to(layout.root).as_posix()
        what = layout.classify(rel)
        if what is None:  # a plain file committed with the records (a migration's backup)
            text = data.decode("utf-8", "replace")
            hits = scan_text(text)
            if hits:
                found[path] = (rel, None, [Finding(h.kind, rel, h.start, h.end,
                                                   text[h.start:h.end]) for h in hits])
            continue
        kind, record_id = what
        if kind == "meta":
            continue
        record = _record_of(objects.get(what), data)
        if record is None:
            continue
        before = _previous(store, kind, record_id)
        if before is not None and _text_fields(before) == _text_fields(record):
            continue  # a touch, an archive, a use record: no new text
        findings = scan_record(record)
        if findings:
            found[path] = (f"{kind} {record_id[:8]}", record, findings)
    if not found:
        return result
    known = _known_values(layout, store, writes)
    new = {path: (name, record, [f for f in findings if f.value not in known])
           for path, (name, record, findings) in found.items()}
    new = {path: entry for path, entry in new.items() if entry[2]}
    if not new:
        return result
    if policy != REDACT:
        raise SecretRefusedError({name: findings for name, _record, findings in new.values()})
    return _redacted(layout, result, new, known)


def message_without_secrets(message: str) -> str:
    """``message`` with each secret the scanner finds in it replaced by ``[REDACTED:<kind>]``
    (the same text when there is none): what every commit message becomes."""
    hits = scan_text(message)
    return redact_text(message, hits) if hits else message


def _record_of(obj: Memory | Relation | None, data: bytes) -> dict[str, Any] | None:
    if obj is not None:
        return obj.model_dump(mode="json")
    try:
        value = json.loads(data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _previous(store: Store, kind: str, record_id: str) -> dict[str, Any] | None:
    old: Memory | Relation | None = (
        store.memories.get(record_id) if kind == "memory" else store.relations.get(record_id))
    return None if old is None else old.model_dump(mode="json")


def _known_values(layout: Layout, store: Store, writes: dict[Path, bytes | None]) -> set[str]:
    """The secrets the records this commit writes or removes already held: at HEAD (as the
    cache has them) or in the file on disk (a person's own edit, which ``_commit`` commits as
    they wrote it before this write). They are not brought in by this write."""
    known: set[str] = set()
    for path in writes:
        what = layout.classify(path.relative_to(layout.root).as_posix())
        if what is None or what[0] == "meta":
            continue
        before = _previous(store, *what)
        if before is not None:
            known.update(f.value for f in scan_record(before))
        on_disk = _on_disk(path)  # (never through layout.load_file: it marks the file seen)
        if on_disk is not None:
            known.update(f.value for f in scan_record(on_disk))
    return known


def _on_disk(path: Path) -> dict[str, Any] | None:
    """The record in the file at ``path`` as JSON, read safely and without side effects."""
    try:
        data, _ = read_vault_file(path)
        value = json.loads(data)
    except (OSError, ValueError, RefusedFileError):
        return None
    return value if isinstance(value, dict) else None


def _redacted(layout: Layout, result: CheckedCommit, new: dict[Path, tuple[str, Any, list[Finding]]],
              known: set[str]) -> CheckedCommit:
    writes = dict(result.writes)
    replaced: dict[tuple[str, str], Memory | Relation] = {}
    for path, (name, record, findings) in new.items():
        if record is None:  # a plain file: its text with the new secrets replaced
            text = (writes[path] or b"").decode("utf-8", "replace")
            writes[path] = redact_text(text, [_hit(f) for f in findings]).encode("utf-8")
        else:
            what = layout.classify(path.relative_to(layout.root).as_posix())
            if what is None:  # (a record: ``check_commit`` classified it)
                raise ValueError(f"{path} is no record")
            kind, record_id = what
            clean: Memory | Relation = (Memory if kind == "memory" else Relation).model_validate(
                _redact_new(record, known))
            writes[path] = layout.encode(clean)
            replaced[(kind, record_id)] = clean
        result.redacted[name] = findings
    new_memories = {m.id: m for m in replaced.values() if isinstance(m, Memory)}
    new_relations = {r.id: r for r in replaced.values() if isinstance(r, Relation)}
    memories = [new_memories.get(m.id, m) for m in result.memories]
    relations = [new_relations.get(r.id, r) for r in result.relations]
    # (records the commit writes without their objects)
    memories += [m for i, m in new_memories.items() if all(k.id != i for k in memories)]
    relations += [r for i, r in new_relations.items() if all(k.id != i for k in relations)]
    notice = "redacted before writing (secrets policy redact): " + "; ".join(
        f"{name} ({describe(findings)})" for name, findings in result.redacted.items())
    return CheckedCommit(result.message, writes, memories, relations, result.redacted, [notice])


def _hit(finding: Finding) -> Any:
    from .scanner import Hit

    return Hit(finding.kind, finding.start, finding.end)


def _redact_new(record: dict[str, Any], known: set[str]) -> dict[str, Any]:
    """The record with its new secrets redacted (those in ``known`` stay as they are)."""
    if not known:
        return redact_record(record)[0]
    redacted, _ = redact_record(record)
    if redacted is record:
        return record
    # keep the values that were there before: redact again, field by field, sparing them
    spared: dict[str, Any] = _spare(record, redacted, known)
    return spared


def _spare(original: Any, redacted: Any, known: set[str]) -> Any:
    if isinstance(original, str):
        if not any(k in original for k in known):
            return redacted
        hits = [h for h in scan_text(original) if original[h.start:h.end] not in known]
        return redact_text(original, hits) if hits else original
    if isinstance(original, dict):
        return {k: _spare(v, redacted.get(k), known) for k, v in original.items()}
    if isinstance(original, list):
        return [_spare(o, r, known) for o, r in zip(original, redacted)]
    return redacted


def outside_edit_notices(layout: Layout, policy: str, rels: Iterable[str]) -> list[str]:
    """What to tell a person whose own edits (vault-relative paths, just committed as they
    wrote them, ``external:``) hold what looks like a secret: memvault never rewrites what a
    person typed, but says so. Nothing under the ``allow`` ``policy``."""
    if policy == ALLOW:
        return []
    notes = []
    for rel in rels:
        what = layout.classify(rel)
        record = _on_disk(layout.root / rel) if what and what[0] != "meta" else None
        if what is None or record is None:
            continue
        findings = scan_record(record)
        if findings:
            ids = what[1][:8]
            notes.append(f"{rel}, edited outside memvault, was committed as you wrote it and "
                         f"holds what looks like a secret ({describe(findings)}); `memvault "
                         f"purge {ids}` removes it from all of history")
    return notes
