"""The git history as an append-only event log (core.io.eventlog): every change, oldest first, with
its operation, ids and the records before and after; for create, update, archive, delete, split,
consolidate, migrate and import."""

from __future__ import annotations

import json

import pytest

from core import JournalError, Vault
from core.ops.consolidate import execute_consolidation
from core.io.eventlog import events
from core.io.markdown_import import import_markdown
from core.io.migrate import migrate_jsonl
from core.ops.split import execute_split
from migrate_support import memory_line, relation_line, write_store

COMPOSITE = ("Tomatoes in containers need deep pots and daily watering in July.\n\n"
             "The quarterly budget review moved from Tuesday to Thursday this year.")


def by_op(all_events):
    return [(e.operation, [(c.kind, c.id, c.action) for c in e.changes]) for e in all_events]


def test_every_operation_is_an_event_oldest_first(vault):
    a = vault.add("Alpha: the deploy script lives in ops/deploy.sh", tags=["ops"])
    b = vault.add("Beta: the budget meeting is on Thursday")
    vault.update(a.id, content="Alpha: the deploy script lives in ops/deploy.sh and bin/")
    vault.archive(b.id)
    vault.delete(b.id)
    c = vault.add(COMPOSITE)
    split = execute_split(vault, c.id, COMPOSITE.split("\n\n"))
    merged = execute_consolidation(vault, [p.id for p in split.parts],
                                   content="Tomatoes and budgets, together again")
    found = list(events(vault, objects=True))
    ops = [e.operation for e in found]
    assert ops == ["init", "add", "add", "update", "archive", "delete", "add", "split",
                   "consolidate"]
    times = [e.timestamp for e in found]
    assert times == sorted(times)
    assert [e.parents for e in found][1:] == [[e.commit] for e in found[:-1]]
    assert found[-1].commit == vault.journal.head()

    create, update, archive, delete = found[1], found[3], found[4], found[5]
    assert by_op([create]) == [("add", [("memory", a.id, "created")])]
    assert create.changes[0].before is None
    assert create.changes[0].after["content"] == a.content
    assert update.ids() == [a.id] and update.changes[0].action == "changed"
    assert update.changes[0].before["content"] == a.content
    assert update.changes[0].after["content"].endswith("and bin/")
    assert archive.changes[0].before["status"] == "active"
    assert archive.changes[0].after["status"] == "archived"
    assert delete.changes[0].action == "deleted" and delete.changes[0].after is None
    assert delete.changes[0].before["status"] == "archived"

    split_event = found[7]
    parts = {p.id for p in split.parts}
    assert {c.id for c in split_event.changes if c.action == "created" and c.kind == "memory"
            } == parts
    original = next(c for c in split_event.changes if c.id == split.original.id)
    assert original.action == "changed" and original.after["status"] == "archived"
    assert {c.after["relation_type"] for c in split_event.changes if c.kind == "relation"
            } == {"split_from"}
    assert len(split_event.ids("relation")) == 2

    merge_event = found[8]
    assert merged.merged.id in merge_event.ids()
    gone = {c.id for c in merge_event.changes if c.kind == "memory" and c.action == "deleted"}
    assert gone == parts
    assert any(c.kind == "meta" for c in merge_event.changes)  # last_consolidation_at
    assert {c.after["relation_type"] for c in merge_event.changes
            if c.kind == "relation" and c.after} >= {"consolidated_from"}


def test_objects_only_on_request_and_json_shape(vault):
    m = vault.add("a memory to log")
    vault.archive(m.id)
    plain = list(events(vault))
    assert all(c.before is None and c.after is None for e in plain for c in e.changes)
    last = list(events(vault, objects=True))[-1].to_json()
    assert last["operation"] == "archive" and last["memories"] == [m.id]
    assert last["relations"] == [] and last["commit"] == vault.journal.head()
    assert last["time"].endswith("Z") and isinstance(last["timestamp"], int)
    (change,) = last["changes"]
    assert change["before"]["status"] == "active" and change["after"]["status"] == "archived"
    json.dumps(last)  # serialisable as is
    assert "before" not in plain[-1].to_json(objects=False)["changes"][0]


def test_since_gives_only_later_changes(vault):
    a = vault.add("first")
    mark = vault.journal.head()
    vault.touch(a.id)
    vault.archive(a.id)
    later = list(events(vault, since=mark))
    assert [e.operation for e in later] == ["touch", "archive"]
    assert list(events(vault, since=vault.journal.head())) == []
    assert [e.operation for e in events(vault, since=mark[:8])] == ["touch", "archive"]
    assert [e.operation for e in events(vault, since="HEAD~1")] == ["archive"]
    with pytest.raises(JournalError, match="unknown revision"):
        list(events(vault, since="no-such-rev"))


def test_migration_and_import_events(vault, tmp_path):
    src = write_store(tmp_path / "cg", [memory_line("m1"), memory_line("m2")],
                      [relation_line("r1", "m1", "m2")])
    migrate_jsonl(vault, src)
    md = tmp_path / "md"
    (md / "memory").mkdir(parents=True)
    (md / "memory" / "2026-01-02.md").write_text("## 10:00 - Note\n\ntext\n\n<!-- id: mem_n -->\n")
    import_markdown(vault, md)
    migrate_event, import_event = list(events(vault, objects=True))[-2:]
    assert migrate_event.operation == "migrate"
    assert migrate_event.ids() == ["m1", "m2"] and migrate_event.ids("relation") == ["r1"]
    files = [c for c in migrate_event.changes if c.kind == "file"]
    assert [c.id.rsplit("/", 1)[-1] for c in files] == ["memories.jsonl", "relations.jsonl"]
    assert all(c.before is None and c.after is None for c in files)  # backups: no objects
    meta = next(c for c in migrate_event.changes if c.kind == "meta")
    assert meta.after["migrated_from"] == "jsonl-v1"
    assert import_event.operation == "import" and import_event.ids() == ["mem_n"]


def test_a_vault_inside_a_larger_repository(tmp_path, git):
    repo = tmp_path / "notes"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("notes\n")
    git(repo, "add", "README.md")
    git(repo, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "readme")
    vault = Vault.open(repo / "sub" / "vault", inside_repo=True)
    m = vault.add("inside a notes repository")
    (repo / "README.md").write_text("notes, more\n")
    git(repo, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qam", "docs: readme")
    vault.archive(m.id)
    found = list(events(vault, objects=True))
    assert [e.operation for e in found] == ["init", "add", "archive"]  # the README's are not
    assert found[1].changes[0].id == m.id and found[1].changes[0].after["id"] == m.id


def test_merges_show_only_what_they_resolved(vault, git):
    a = vault.add("on both sides")
    root = vault.root
    base = vault.journal.head()
    git(root, "checkout", "-qb", "other")
    other = Vault.open(root)
    b = other.add("made on the other branch")
    git(root, "checkout", "-q", "-")
    vault = Vault.open(root)
    vault.touch(a.id)
    git(root, "-c", "user.name=p", "-c", "user.email=p@x", "merge", "-q", "--no-edit", "other")
    vault = Vault.open(root)
    found = list(events(vault))
    ops = [e.operation for e in found]
    assert ops[:2] == ["init", "add"] and sorted(ops[2:4]) == ["add", "touch"]
    # a clean merge resolved nothing itself: each side's change is its own commit's event
    assert vault.journal.head() not in [e.commit for e in found]
    assert all(len(e.parents) < 2 for e in found)
    assert b.id in found[ops.index("add", 2)].ids()
    assert base == found[1].commit


def test_an_empty_history(tmp_path):
    vault = Vault.open(tmp_path / "v")
    (only,) = list(events(vault))
    assert only.operation == "init" and only.changes[0].kind == "meta"
    assert only.changes[0].action == "created"


def test_unreadable_json_is_given_as_text(vault, git):
    m = vault.add("soon to be broken by hand")
    path = vault.root / "memories" / f"{m.id}.json"
    path.write_text("{ not json")
    # memvault never commits a file it cannot read; a person (or a remote) can
    git(vault.root, "add", str(path))
    git(vault.root, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm",
        "external: a broken hand edit")
    reopened = Vault.open(vault.root)
    last = list(events(reopened, objects=True))[-1]
    assert last.operation == "external"
    assert last.changes[0].after == "{ not json"
    assert last.changes[0].before["id"] == m.id
    assert reopened.problems  # the vault still opens, and says which file it cannot read


def test_a_merge_that_resolved_a_conflict_is_an_event(vault, git):
    a = vault.add("changed on both sides")
    root = vault.root
    git(root, "checkout", "-qb", "other")
    Vault.open(root).update(a.id, content="the other side's words")
    git(root, "checkout", "-q", "-")
    vault = Vault.open(root)
    vault.update(a.id, content="this side's words")
    ident = ["-c", "user.name=p", "-c", "user.email=p@x"]
    git(root, *ident, "merge", "-q", "other", check=False)  # a conflict
    resolved = vault.memories[a.id].model_copy(update={"content": "both sides' words"})
    path = root / "memories" / f"{a.id}.json"
    path.write_bytes(vault.layout.encode(resolved))
    git(root, "add", str(path))
    git(root, *ident, "commit", "-qm", "sync: merge other (1 conflict resolved)")
    found = list(events(Vault.open(root), objects=True))
    merge = found[-1]
    assert merge.operation == "sync" and len(merge.parents) == 2
    (change,) = merge.changes
    assert change.id == a.id and change.action == "changed"
    assert change.before["content"] == "this side's words"  # the first parent's version
    assert change.after["content"] == "both sides' words"
