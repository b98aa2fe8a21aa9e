"""What vault operations return (reports, the change set a multi-file operation commits) and the small helpers the vault's modules share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import VaultError
from ..model.relation_rule import relations_of_gone
from ..textutil import neutralise_line

if TYPE_CHECKING:  # (what a read-only open never uses is imported where it is used)
    from pydantic import ValidationError

    from ..model.records import Memory, Relation
    from ..model.relation_rule import RelationsOfGone
    from ..store.cache import Store
    from ..store.layout import Layout, LoadProblem


@dataclass
class DeleteReport:
    memories: list[Memory]
    relations: list[Relation]  # removed with them (not lineage)
    #: lineage relations touching them, left in place (core.model.relation_rule)
    kept_relations: list[Relation] = field(default_factory=list)


@dataclass
class RestoreReport:
    memory: Memory
    relations: list[Relation]
    source_commit: str
    unchanged: bool = False  # the memory already was that version: nothing was written


@dataclass
class GcReport:
    threshold: float
    candidates: list[tuple[Memory, float]]  # (memory, score), lowest score first
    applied: bool
    archived: bool
    relations_removed: list[Relation] = field(default_factory=list)
    #: lineage relations of the pruned memories, left in place (core.model.relation_rule)
    relations_kept: list[Relation] = field(default_factory=list)
    commit: str | None = None
    #: pinned active memories below the threshold, kept out of gc (memory, score)
    pinned_kept: list[tuple[Memory, float]] = field(default_factory=list)
    #: candidates the caller asked to keep out of this gc (``keep=``), left as they are
    person_kept: list[tuple[Memory, float]] = field(default_factory=list)


@dataclass
class GistBackfill:
    level: str
    missing: int  # memories that had no gist
    made: list[Memory]  # those that got one (short notes get none)
    tokens_before: int  # what recalling ``made`` cost (their content), approximate
    tokens_after: int  # what it costs with the gists, approximate
    commit: str | None = None


@dataclass
class OpenReport:
    """What opening the vault found and did, for a person to read."""

    recovered: str | None = None
    external_commit: str | None = None
    external_paths: list[str] = field(default_factory=list)
    #: Files changed outside memvault that were NOT committed: they do not load as a valid
    #: record (or metadata), so they stay as they are on disk, reported with the reason.
    refused_external: list[LoadProblem] = field(default_factory=list)
    initialised: bool = False
    #: Why nothing may be written now (HEAD detached, a rebase or merge in progress); outside
    #: edits then wait, uncommitted, until it is over.
    writes_refused: str | None = None


class StalePlanError(VaultError):
    """A plan was built from a HEAD, and a commit since changed something the plan changes:
    applying it would write over that change. Nothing was written; plan again."""


@dataclass
class Plan:
    """Everything one operation changes, committed as ONE commit by :meth:`Vault.apply`.

    A plan is also the operation's preview: what a wizard or ``--dry-run`` shows is the plan
    that is applied, with its real ids, never computed a second time. ``base`` is the HEAD it
    was built from; :meth:`Vault.apply` refuses it (:class:`StalePlanError`) when a commit made
    since then changed any of the records the plan writes or removes."""

    message: str
    put_memories: list[Memory] = field(default_factory=list)
    put_relations: list[Relation] = field(default_factory=list)
    drop_memories: list[str] = field(default_factory=list)
    drop_relations: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # keys to set in .meta.json
    #: Other files to commit with it, by vault-relative path (e.g. a migration's backup of its
    #: source files under ``.backup/``); never a record, ``.meta.json`` or a git path.
    put_files: dict[str, bytes] = field(default_factory=dict)
    base: str | None = None  # the HEAD the plan was built from (None: built under the lock)
    #: Checks run under the lock right before the commit (the maintenance-machine rule...);
    #: each raises VaultError to refuse, and then nothing is written.
    requires: list[Callable[[Any], None]] = field(default_factory=list)
    commit: str | None = None  # filled in by apply()

    def put_record(self, kind: str, record_id: str, record: dict[str, Any] | None) -> None:
        """Add one memory or relation to the plan: ``record`` in its file format is written
        (validated here), None removes it."""
        if kind not in ("memory", "relation"):
            raise ValueError(f"not a record kind: {kind!r}")
        from ..model.records import Memory, Relation

        model = Memory if kind == "memory" else Relation
        puts = self.put_memories if kind == "memory" else self.put_relations
        drops = self.drop_memories if kind == "memory" else self.drop_relations
        if record is None:
            drops.append(record_id)
        else:
            puts.append(model.model_validate(record))  # type: ignore[arg-type]

    def record_paths(self, layout: Layout) -> list[Path]:
        """Every record path the plan writes or removes (not ``.meta.json``: its keys are
        merged into the current file when the plan is applied). A memory's paths in both
        layouts: a commit that moved it changed it too."""
        return ([p for m in self.put_memories for p in layout.memory_paths(m.id)]
                + [p for i in self.drop_memories for p in layout.memory_paths(i)]
                + [layout.relation_path(r.id) for r in self.put_relations]
                + [layout.relation_path(i) for i in self.drop_relations])


def unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def relations_going_with(store: Store, ids: Iterable[str]) -> RelationsOfGone[Relation]:
    """The rule of :mod:`core.model.relation_rule` for the memories ``ids`` going away, over the
    relations the cache holds for them: ``removed`` go in the same commit, ``kept`` (lineage)
    stay."""
    ids = list(dict.fromkeys(ids))
    return relations_of_gone((r for i in ids for r in store.relations_of(i)), set(ids))


def first_words(text: str, limit: int = 48) -> str:
    """The first words of a text on one line, at most ``limit`` characters cut at a word boundary
    (a word that ends where the mark goes is kept whole), with control characters
    shown as visible escapes (:func:`~core.textutil.neutralise_line`): safe in a commit subject
    and on a terminal."""
    flat = " ".join(text.split())
    if len(flat) > limit:
        room = max(limit - 1, 1)  # the words, then the mark: at most ``limit`` characters
        cut = flat[:room + 1]
        flat = (cut.rsplit(" ", 1)[0] if " " in cut[1:] else flat[:room]) + "…"
    return neutralise_line(flat)


#: how much of a memory's text :func:`subject_words` scans: a secret that begins in the words
#: a subject shows ends well within it
SUBJECT_SCAN = 4096


def subject_words(text: str, limit: int = 48) -> str:
    """:func:`first_words` of a text for a commit subject: each secret in it is replaced by
    ``[REDACTED:<kind>]`` first, so a subject never carries one, whole or cut in half at the
    limit, whatever the secrets policy (the record keeps its exact text; docs/secrets.md)."""
    from ..secrets.scanner import redact_text, scan_text

    head = text[:SUBJECT_SCAN]
    hits = scan_text(head)
    return first_words(redact_text(head, hits) if hits else head, limit)


def op_message(verb: str, memories: list[Memory]) -> str:
    """The subject of a commit of ``memories``: ``verb: <id> <first words>`` for one (secrets
    redacted: :func:`subject_words`), ``verb: N memories (<ids>)`` for more."""
    if len(memories) == 1:
        m = memories[0]
        return f"{verb}: {m.id[:8]} {subject_words(m.text)}"
    shown = ", ".join(m.id[:8] for m in memories[:8])
    more = f", +{len(memories) - 8}" if len(memories) > 8 else ""
    return f"{verb}: {len(memories)} memories ({shown}{more})"


def first_error(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))

