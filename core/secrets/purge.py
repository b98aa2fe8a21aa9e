"""``memvault purge``: remove memories from ALL of history, for real.

Every version of the memories, and of every relation that ever touched them, is removed from
every commit of every ref (branches, remote-tracking branches, ``refs/memvault/...``) by
``git-filter-repo`` (:meth:`core.git.rewrite.Rewriting.rewrite_without`); commit messages that named them lose
their words (the verb and the ids stay), and every secret the scanner finds in a rewritten
message is redacted. Commits left empty are dropped. Then: the purged files leave git's index,
memvault's private index and the work tree; memvault's state in the git directory forgets them
(the search index is removed: it is derived and rebuilt on use; quarantine copies of their
files, their pending use records and inbox entries are removed); reflogs are expired
(``refs/stash``'s excepted: a person's stashes) and unreachable objects pruned (``git gc
--prune=now``). Last, ONE commit (``purge: ...``) adds the ids to ``.meta.json``'s
:data:`META_KEY`, so ``memvault sync`` never takes them back (:func:`purged_paths`).

It runs under the vault's write lock. Before anything is rewritten a record
(``.git/memvault/purge.json``: the ids, the paths, every ref's commit before) is written; it is
removed when all is done. A crash half-way loses no other memory: until the refs move (one
atomic ``update-ref --stdin``) nothing has changed, and after it every other file's blobs are
the same objects; the next ``memvault purge`` (or :func:`resume`) sees the record and runs the
purge again (every step can run twice)."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..io.edit_files import EDITS_DIR, edited_memory
from ..errors import UnknownIdError, VaultError, AmbiguousIdError
from ..store.layout import remove_file, write_atomic
from ..vault.pending_use import PENDING_USE_FILE, parse_pending_use
from .scanner import redact_text, scan_text

if TYPE_CHECKING:
    from ..vault.api import Vault

META_KEY = "purged"  # .meta.json: {"memories": [ids], "relations": [ids]}
RECORD_FILE = "purge.json"
STATE_FILES = ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite-journal")


@dataclass
class PurgePlan:
    """What a purge removes (the ``--dry-run``)."""

    memories: list[str]
    relations: list[str]
    paths: list[str]  # repository paths
    commits: int  # commits that wrote one of those paths
    refs: dict[str, str] = field(default_factory=dict)  # every ref -> its commit before

    def to_json(self) -> dict[str, Any]:
        return {"memories": self.memories, "relations": self.relations, "paths": self.paths,
                "commits": self.commits}


@dataclass
class PurgeReport:
    plan: PurgePlan
    commit: str | None = None  # the ``purge:`` commit
    rewritten_refs: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    remotes: list[dict[str, str]] = field(default_factory=list)  # what each remote needs
    resumed: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {**self.plan.to_json(), "commit": self.commit, "remotes": self.remotes,
                "rewritten_refs": {k: {"before": b, "after": a}
                                   for k, (b, a) in self.rewritten_refs.items()},
                "resumed": self.resumed, "seconds": round(self.seconds, 3)}


# -- the purged list ----------------------------------------------------------------------------
def purged_ids(meta: dict[str, Any] | None) -> tuple[set[str], set[str]]:
    """(memory ids, relation ids) a vault's ``.meta.json`` lists as purged."""
    value = (meta or {}).get(META_KEY)
    if not isinstance(value, dict):
        return set(), set()

    def ids(key: str) -> set[str]:
        items = value.get(key)
        return {i for i in items if isinstance(i, str)} if isinstance(items, list) else set()

    return ids("memories"), ids("relations")


def purged_paths(meta: dict[str, Any] | None) -> set[str]:
    """Vault-relative paths of the purged records."""
    memories, relations = purged_ids(meta)
    return ({f"memories/{i}.json" for i in memories}
            | {f"relations/{i}.json" for i in relations})


# -- planning -----------------------------------------------------------------------------------
def plan_purge(vault: Vault, keys: Iterable[str]) -> PurgePlan:
    """Resolve ``keys`` (ids or unique prefixes of 4+ characters, of memories living or
    deleted: any memory history ever had) and find every relation that touched them."""
    keys = [k.strip() for k in keys if k and k.strip()]
    if not keys:
        raise VaultError("purge: no memory ids given")
    journal, layout = vault.journal, vault.layout
    commits = journal.history.commits_with_changes(all_refs=True)
    ever: dict[str, set[str]] = {}  # vault path -> blobs it ever had
    for commit in commits:
        for change in commit.changes:
            ever.setdefault(change.path, set()).update(
                b for b in (change.old_blob, change.new_blob) if b)
    known = set(vault.store.memories)
    for rel in ever:
        what = layout.classify(rel)
        if what and what[0] == "memory":
            known.add(what[1])
    ids = sorted({_resolve(key, known) for key in keys})
    wanted = set(ids)
    relations = {r.id for r in vault.store.relations.values()
                 if {r.from_memory_id, r.to_memory_id} & wanted}
    relation_blobs = {b: rel for rel, blobs in ever.items()
                      if (w := layout.classify(rel)) and w[0] == "relation" for b in blobs}
    for sha, data in journal.objects.read_blobs(list(relation_blobs)).items():
        with contextlib.suppress(ValueError, AttributeError):
            record = json.loads(data)
            what = layout.classify(relation_blobs[sha])
            if what and {record.get("from_memory_id"), record.get("to_memory_id")} & wanted:
                relations.add(what[1])
    rels = sorted([f"memories/{i}.json" for i in ids] + [f"relations/{i}.json" for i in relations])
    touching = set(rels)
    count = sum(1 for c in commits if any(ch.path in touching for ch in c.changes))
    paths = [journal.relpath(vault.root / rel) for rel in rels]
    return PurgePlan(ids, sorted(relations), paths, count)


def _resolve(key: str, known: set[str]) -> str:
    if key in known:
        return key
    if len(key) < 4:
        raise VaultError(f"refused: {key!r} is too short to be an id prefix (4+ characters)")
    found = [i for i in known if i.startswith(key)]
    if not found:
        raise UnknownIdError(f"no memory in this vault's history has the id {key!r}")
    if len(found) > 1:
        raise AmbiguousIdError(key, found)
    return found[0]


# -- purging ------------------------------------------------------------------------------------
def pending(vault: Vault) -> dict[str, Any] | None:
    """The record of a purge that did not finish, or None."""
    try:
        record: dict[str, Any] = json.loads((vault.journal.state_dir / RECORD_FILE).read_bytes())
        return record
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"memories": [], "relations": [], "paths": [], "refs": {}}


def resume(vault: Vault) -> PurgeReport | None:
    """Finish a purge a crash interrupted (None when there is none)."""
    record = pending(vault)
    if record is None:
        return None
    plan = PurgePlan(list(record.get("memories", [])), list(record.get("relations", [])),
                     list(record.get("paths", [])), int(record.get("commits", 0)),
                     dict(record.get("refs", {})))
    report = purge(vault, plan)
    report.resumed = True
    return report


def purge(vault: Vault, plan: PurgePlan) -> PurgeReport:
    """Carry out ``plan`` (see the module docstring)."""
    started = time.perf_counter()
    journal = vault.journal
    report = PurgeReport(plan)
    with vault.transaction():
        journal.work_tree.check_writable()
        record_path = journal.state_dir / RECORD_FILE
        previous = pending(vault)
        if previous is not None and previous.get("refs"):
            plan.refs = dict(previous["refs"])  # the refs as they were before the first try
        else:
            plan.refs = journal.rewriting.refs()
        write_atomic(record_path, json.dumps({**asdict(plan), "started": time.time()},
                                             indent=2).encode())
        prefixes = sorted({i[:8] for i in plan.memories + plan.relations})
        journal.rewriting.rewrite_without(plan.paths, lambda text: scrub_message(text, prefixes))
        after = journal.rewriting.refs()
        report.rewritten_refs = {ref: (sha, after.get(ref)) for ref, sha in plan.refs.items()
                                 if after.get(ref) != sha}
        _settle_work_tree(vault, plan)
        vault.catch_up()
        memories, relations = purged_ids(vault.meta)
        meta = {"memories": sorted(memories | set(plan.memories)),
                "relations": sorted(relations | set(plan.relations))}
        shown = ", ".join(i[:8] for i in plan.memories[:8]) + (
            f", +{len(plan.memories) - 8}" if len(plan.memories) > 8 else "")
        message = (f"purge: {len(plan.memories)} "
                   f"memor{'y' if len(plan.memories) == 1 else 'ies'} ({shown}) removed from "
                   f"history (+{len(plan.relations)} relation"
                   f"{'' if len(plan.relations) == 1 else 's'})")
        report.commit = vault.write_path.commit(
            message, vault.write_path.meta_write(**{META_KEY: meta}))
        _forget_state(vault, plan)
        journal.rewriting.expire_and_prune()
        report.remotes = _remote_needs(journal, report.rewritten_refs)
        remove_file(record_path)
    report.seconds = time.perf_counter() - started
    return report


def scrub_message(message: str, prefixes: list[str]) -> str:
    """A commit message with the words of lines that name a purged record removed (the verb and
    the ids stay) and every secret the scanner finds redacted."""
    lines = []
    for line in message.split("\n"):
        if any(p in line for p in prefixes):
            verb = line.split(":", 1)[0] if ":" in line[:40] else "commit"
            ids = re.findall(r"\b[0-9a-f]{8}\b", line)
            line = f"{verb}: {' '.join(dict.fromkeys(ids))} (words removed by memvault purge)"
        lines.append(line)
    text = "\n".join(lines)
    return redact_text(text, scan_text(text))


def _settle_work_tree(vault: Vault, plan: PurgePlan) -> None:
    """The purged files out of git's index, memvault's private index and the work tree."""
    vault.journal.rewriting.drop_from_index(plan.paths)
    for rel in _vault_rels(plan):
        remove_file(vault.root / rel)


def _vault_rels(plan: PurgePlan) -> list[str]:
    return ([f"memories/{i}.json" for i in plan.memories]
            + [f"relations/{i}.json" for i in plan.relations])


def _forget_state(vault: Vault, plan: PurgePlan) -> None:
    """memvault's state in the git directory forgets the purged records."""
    state = vault.journal.state_dir
    for name in STATE_FILES:  # the search index: derived, rebuilt on its next use
        remove_file(state / name)
    rels = set(_vault_rels(plan))
    quarantine = state / "quarantine"
    if quarantine.is_dir():
        for folder in quarantine.iterdir():
            if folder.is_dir() and not folder.is_symlink() and any(
                    folder.joinpath(*rel.split("/")).exists() for rel in rels):
                shutil.rmtree(folder, ignore_errors=True)
    edits = state / EDITS_DIR  # texts kept from $EDITOR (core/io/edit_files.py)
    if edits.is_dir() and not edits.is_symlink():
        for found in edits.iterdir():
            if found.is_file() and not found.is_symlink() and edited_memory(found) in plan.memories:
                remove_file(found)
    conflicts = vault.root / "sync-conflicts"
    if conflicts.is_dir() and not conflicts.is_symlink():
        for rel in rels:
            for found in conflicts.glob(f"**/{Path(rel).name}*"):
                if found.is_file() and not found.is_symlink():
                    remove_file(found)
    ids = set(plan.memories)
    for name, key in (("inbox-accepted.json", "accepted"), (PENDING_USE_FILE, "paths")):
        path = state / name
        try:
            raw = path.read_bytes()
            data: Any = parse_pending_use(raw) if name == PENDING_USE_FILE else json.loads(raw)
        except (OSError, ValueError):
            continue
        entries = data.get(key) if isinstance(data, dict) else None
        if isinstance(data, dict) and isinstance(entries, dict):
            data[key] = {k: v for k, v in entries.items()
                         if k not in ids and k not in rels
                         and not any(i in k for i in ids)}
            write_atomic(path, json.dumps(data, indent=2, sort_keys=True).encode())
    vault.journal.rewriting.forget_transient_heads()


def _remote_needs(journal: Any, rewritten: dict[str, tuple[str, str | None]]
                  ) -> list[dict[str, str]]:
    """For each remote: the force push it needs (its branches were rewritten here), or nothing."""
    remotes = journal.remote.remotes()
    branch = journal.remote.current_branch()
    needs = []
    for remote in remotes:
        prefix = f"refs/remotes/{remote}/"
        changed = {ref[len(prefix):]: before for ref, (before, _after) in rewritten.items()
                   if ref.startswith(prefix) and not ref.endswith("/HEAD")}
        if not changed:
            needs.append({"remote": remote, "needs": "nothing (none of its branches held them)"})
            continue
        for name, before in sorted(changed.items()):
            source = branch if branch == name else f"refs/remotes/{remote}/{name}"
            needs.append({"remote": remote, "branch": name, "before": before,
                          "needs": "a force push",
                          "command": f"git push --force-with-lease={name}:{before} {remote} "
                                     f"{source}:refs/heads/{name}"})
    return needs
