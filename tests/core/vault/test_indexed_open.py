"""Opening from the derived index (``core.vault.indexed_open``): files unchanged since the
index's commit are never read; whatever changed (a commit made elsewhere, a person's edit, a file
git holds but memvault cannot use) is read from disk; an index that cannot be trusted is never
used; and what the vault shows is always what reading every file shows."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess

import pytest

from core import Memory, Vault
from core.search.index import index_path
from core.search.indexed_files import IndexedFiles, blob_id
from core.store import layout as layout_module
from core.store import record_loading
from core.vault import indexed_open, unchanged_files


def _git(root, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=person",
                           "-c", "user.email=person@localhost", *args],
                          capture_output=True, text=True, check=True).stdout


def _subjects(root) -> list[str]:
    return _git(root, "log", "--format=%s").splitlines()


@pytest.fixture
def reads(monkeypatch):
    """The record files read from disk, by path (every read goes through read_vault_file)."""
    seen: list[str] = []
    real = layout_module.read_vault_file

    def counting(path, *args, **kwargs):
        seen.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(layout_module, "read_vault_file", counting)
    monkeypatch.setattr(record_loading, "read_vault_file", counting)
    monkeypatch.setattr(unchanged_files, "read_vault_file", counting)  # (the write's check)
    return seen


def _records_read(reads: list[str]) -> list[str]:
    return [p for p in reads if "/memories/" in p or "/relations/" in p]


def _same_as_reading_every_file(vault: Vault) -> None:
    """The cache equals what a vault that reads every file (no index) shows."""
    path = index_path(vault.root)
    for leftover in path.parent.glob("index.sqlite*"):
        leftover.unlink()
    plain = Vault.open(vault.root, readonly=True)
    assert plain.memories == vault.memories
    assert plain.relations == vault.relations
    assert sorted((p.path, p.reason) for p in plain.problems) == \
        sorted((p.path, p.reason) for p in vault.problems)


def _vault(tmp_path, n: int = 4) -> tuple[Vault, list[Memory]]:
    vault = Vault.open(tmp_path / "v")
    made = [vault.add(f"note {i} about the garden", tags=["garden"]) for i in range(n)]
    vault.relate(made[0].id, made[1].id, "related")
    return vault, made


def test_second_open_reads_no_record_file(tmp_path, reads):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)  # the first open after the writes moves the index to HEAD
    reads.clear()
    again = Vault.open(vault.root)
    assert _records_read(reads) == []
    assert again.memories == vault.memories and again.relations == vault.relations
    files = IndexedFiles.for_root(vault.root, ".")
    assert files.commit() == again.head
    files.close()


def test_a_commit_made_elsewhere_is_read_from_disk(tmp_path, reads):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    other = Vault.open(vault.root)
    other.update(made[2].id, content="changed by another process")
    other.delete(made[3].id)
    reads.clear()
    again = Vault.open(vault.root)
    assert sorted(_records_read(reads)) == [str(vault.layout.memory_path(made[2].id))]
    assert again.get(made[2].id).content == "changed by another process"
    assert made[3].id not in again.memories
    _same_as_reading_every_file(again)


def test_a_persons_commit_through_git_is_taken(tmp_path):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    path = vault.layout.memory_path(made[1].id)
    data = json.loads(path.read_bytes())
    data["content"] = "edited and committed with git by hand"
    path.write_text(json.dumps(data, indent=2))
    _git(vault.root, "commit", "-q", "-am", "by hand")
    again = Vault.open(vault.root)
    assert again.get(made[1].id).content == "edited and committed with git by hand"
    assert again.report.external_commit is None
    _same_as_reading_every_file(again)


def test_a_persons_uncommitted_edit_is_read_and_committed(tmp_path):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    path = vault.layout.memory_path(made[0].id)
    data = json.loads(path.read_bytes())
    data["content"] = "edited in an editor"
    path.write_text(json.dumps(data, indent=2))
    bad = vault.layout.memory_path(made[1].id)
    bad.write_text("{ not json")
    again = Vault.open(vault.root)
    assert again.get(made[0].id).content == "edited in an editor"
    assert _subjects(vault.root)[0].startswith("external:")
    assert [p.path for p in again.problems] == [bad]
    assert made[1].id not in again.memories
    _same_as_reading_every_file(again)


def test_a_committed_file_memvault_cannot_use_is_reported_as_when_reading_files(tmp_path):
    vault, made = _vault(tmp_path)
    bad = vault.layout.memory_path(made[2].id)
    bad.write_text('{"id": "someone-else", "content": "x"}')
    stray = vault.root / "memories" / "notes.txt"
    stray.write_text("a stray file")
    _git(vault.root, "add", "-A")
    _git(vault.root, "commit", "-q", "-m", "garbage committed by hand")
    first = Vault.open(vault.root)
    second = Vault.open(vault.root)  # from the index
    for opened in (first, second):
        assert made[2].id not in opened.memories
        assert {p.path for p in opened.problems} == {bad, stray}
    conn = sqlite3.connect(index_path(vault.root))
    kept = dict(conn.execute("SELECT path, body IS NOT NULL FROM files"))
    conn.close()
    rel = bad.relative_to(vault.root).as_posix()
    assert kept[rel] == 0  # not a valid record of its id: no bytes kept, the open reads the file
    assert sum(kept.values()) == len(made) - 1 + 1  # the other memories and the relation
    _same_as_reading_every_file(second)


def test_an_open_from_the_index_parses_a_record_only_when_it_is_read(tmp_path, reads):
    vault, made = _vault(tmp_path, n=6)
    Vault.open(vault.root)
    reads.clear()
    again = Vault.open(vault.root)
    assert _records_read(reads) == []
    assert again.store.memories.raw == 6 and again.store.relations.raw == 1
    assert again.get(made[3].id) == made[3]
    assert again.store.memories.raw == 5
    assert [r.id for r in again.relations_of(made[1].id)] == list(vault.relations)
    assert again.store.relations.raw == 0
    assert again.store.tags() == {"garden": 6}
    assert again.store.memories.raw == 0
    changed = again.update(made[0].id, content="a fresh note about the garden")
    assert Vault.open(vault.root).get(made[0].id) == changed
    _same_as_reading_every_file(again)


def test_a_write_after_an_indexed_open_commits_only_itself(tmp_path, monkeypatch):
    """A file the open never read is not mistaken for a person's edit when it is written (it
    is checked against the blob the index had for it, not committed as ``external:``)."""
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    again = Vault.open(vault.root)
    before = len(_subjects(vault.root))
    tried: list[list[str]] = []
    monkeypatch.setattr(again.write_path, "commit_external",
                        lambda rels, when="": tried.append(rels))
    again.archive(made[1].id)
    assert tried == []
    assert len(_subjects(vault.root)) == before + 1
    assert _subjects(vault.root)[0].startswith("archive")


def test_an_edit_made_while_open_is_still_kept_before_a_write(tmp_path):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    again = Vault.open(vault.root)  # from the index: the file was never read
    path = vault.layout.memory_path(made[1].id)
    data = json.loads(path.read_bytes())
    data["content"] = "edited while the app was open"
    path.write_text(json.dumps(data, indent=2))
    again.archive(made[1].id)
    subjects = _subjects(vault.root)
    assert subjects[0].startswith("archive") and subjects[1].startswith("external:")
    assert again.get(made[1].id).content == "edited while the app was open"


@pytest.mark.parametrize("damage", ["garbage", "bad-commit", "old-schema", "deleted"])
def test_an_index_that_cannot_be_trusted_is_not_used(tmp_path, reads, damage):
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    path = index_path(vault.root)
    if damage == "garbage":
        for leftover in path.parent.glob("index.sqlite*"):
            leftover.unlink()
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "bad-commit":
        conn = sqlite3.connect(path)
        conn.execute("UPDATE state SET value = ?", ("0" * 40,))
        conn.commit(), conn.close()
    elif damage == "old-schema":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA user_version = 1")
        conn.commit(), conn.close()
    else:
        for leftover in path.parent.glob("index.sqlite*"):
            leftover.unlink()
    reads.clear()
    again = Vault.open(vault.root)
    assert len(_records_read(reads)) == 5  # every record file, as without an index
    assert again.memories == vault.memories and again.relations == vault.relations
    files = IndexedFiles.for_root(vault.root, ".")
    assert files.commit() == again.head  # written anew
    assert len(list(files.rows())) == 5
    files.close()
    reads.clear()
    Vault.open(vault.root)
    assert _records_read(reads) == []


def test_rows_that_lie_about_their_blob_are_not_trusted_past_a_write(tmp_path):
    """The rows are checked against git: an index whose body for a path is not what git holds
    is found out when the path changes (the rows are written again from git's blobs)."""
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)
    other = Vault.open(vault.root)
    other.update(made[0].id, content="the truth")
    again = Vault.open(vault.root)
    assert again.get(made[0].id).content == "the truth"
    rows = {rel: (blob, body) for rel, blob, _, _, body in
            IndexedFiles.for_root(vault.root, ".").rows()}
    rel = f"memories/{made[0].id}.json"
    assert blob_id(rows[rel][1]) == rows[rel][0] == _git(vault.root, "rev-parse",
                                                          f"HEAD:{rel}").strip()


def test_two_vaults_in_one_repository_keep_their_own_rows(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    a = Vault.open(repo / "a", inside_repo=True)
    b = Vault.open(repo / "b", inside_repo=True)
    ma, mb = a.add("in vault a"), b.add("in vault b")
    for _ in range(2):
        a2, b2 = Vault.open(repo / "a"), Vault.open(repo / "b")
        assert set(a2.memories) == {ma.id} and set(b2.memories) == {mb.id}
    rows_a = [rel for rel, *_ in IndexedFiles.for_root(repo / "a", "a").rows()]
    assert rows_a == [f"memories/{ma.id}.json"]


def test_a_vault_inside_another_vaults_folder_keeps_its_own_rows(tmp_path):
    """The outer vault is the repository's top, the inner one a folder of it: the outer vault's
    rows are those of its own record folders, so neither takes the other's memories, and a
    rewrite of the outer vault's rows from scratch leaves the inner vault's alone."""
    outer = Vault.open(tmp_path / "outer")
    inner = Vault.open(tmp_path / "outer" / "inner", inside_repo=True)
    mine = outer.add("in the outer vault")
    theirs = [inner.add(f"in the inner vault {i}") for i in range(2)]
    for _ in range(2):  # the second time from the index
        again_outer, again_inner = Vault.open(outer.root), Vault.open(inner.root)
        assert set(again_outer.memories) == {mine.id}
        assert set(again_inner.memories) == {m.id for m in theirs}
    conn = sqlite3.connect(index_path(outer.root))
    with conn:
        conn.execute("DELETE FROM state WHERE key = 'files_commit:.'")  # the outer rows anew
    conn.close()
    assert set(Vault.open(outer.root).memories) == {mine.id}
    rows = [rel for rel, *_ in IndexedFiles.for_root(outer.root, ".").rows()]
    assert rows == [f"memories/{mine.id}.json"]
    assert set(Vault.open(inner.root).memories) == {m.id for m in theirs}
    rows = [rel for rel, *_ in IndexedFiles.for_root(inner.root, "inner").rows()]
    assert sorted(rows) == sorted(f"memories/{m.id}.json" for m in theirs)


def test_two_files_for_one_id_are_judged_as_when_reading_every_file(tmp_path):
    """A memory in both layouts (a merge of a flat and a sharded clone): the index's rows name
    both, and the open reads every file so that the layouts' rule picks the one loaded."""
    vault, made = _vault(tmp_path)
    flat = vault.layout.memory_path(made[1].id)
    data = json.loads(flat.read_bytes())
    data["content"] = "the sharded copy, used later"
    data["last_used"] += 100
    sharded = vault.layout.memory_path(made[1].id, "sharded")
    sharded.parent.mkdir()
    sharded.write_text(json.dumps(data, indent=2))
    _git(vault.root, "add", "-A")
    _git(vault.root, "commit", "-q", "-m", "both copies, as a merge may leave them")
    Vault.open(vault.root, readonly=True)
    Vault.open(vault.root)  # the index's rows now hold both files
    again = Vault.open(vault.root)
    assert again.get(made[1].id).content == "the sharded copy, used later"
    assert [p.path for p in again.problems] == [flat]
    _same_as_reading_every_file(again)


def _state_of_git_dir(root) -> dict[str, bytes]:
    """Every file under the repository's git directory, with its bytes (but the index's -wal and
    -shm files: SQLite makes them for any reader of a database in WAL mode)."""
    git_dir = root / ".git"
    return {str(p.relative_to(git_dir)): p.read_bytes() for p in sorted(git_dir.rglob("*"))
            if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


def test_a_readonly_open_uses_the_index_and_writes_nothing(tmp_path, reads, monkeypatch):
    """A read-only open (``list``, ``search``, ``show``) takes the memories from the index as a
    read-write open does, reads from disk only what changed (a commit since, an edit on disk),
    and writes nothing under .git: not the index's rows, not git's own index (its ``status``
    runs with optional locks off). (From 1,000 files: a smaller vault is read file by file.)"""
    monkeypatch.setattr(indexed_open, "READONLY_INDEX_FROM", 0)
    vault, made = _vault(tmp_path)
    Vault.open(vault.root)  # the index at HEAD
    other = Vault.open(vault.root)
    Vault.open(vault.root)
    other.update(made[2].id, content="committed since the index's commit")
    path = vault.layout.memory_path(made[0].id)
    data = json.loads(path.read_bytes())
    data["content"] = "edited on disk, not committed"
    path.write_text(json.dumps(data, indent=2))
    touched = vault.layout.memory_path(made[1].id)  # same bytes, a new time: git's index would
    os.utime(touched, (touched.stat().st_mtime + 100,) * 2)  # take its new stat data
    before = _state_of_git_dir(vault.root)
    reads.clear()
    seen = Vault.open(vault.root, readonly=True)
    assert sorted(_records_read(reads)) == sorted(
        str(vault.layout.memory_path(made[i].id)) for i in (0, 2))
    assert seen.get(made[0].id).content == "edited on disk, not committed"
    assert seen.get(made[2].id).content == "committed since the index's commit"
    assert _state_of_git_dir(vault.root) == before
    _same_as_reading_every_file(seen)


def test_a_readonly_open_never_uses_an_index_of_another_schema(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(indexed_open, "READONLY_INDEX_FROM", 0)
    vault, _ = _vault(tmp_path)
    Vault.open(vault.root)
    path = index_path(vault.root)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    before = path.read_bytes()
    reads.clear()
    seen = Vault.open(vault.root, readonly=True)
    assert len(_records_read(reads)) == len(vault.memories) + len(vault.relations)
    assert path.read_bytes() == before  # neither rebuilt nor moved on
    assert seen.memories == vault.memories
