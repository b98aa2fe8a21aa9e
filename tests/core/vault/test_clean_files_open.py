"""The first search's open after a clone (read-only, every memory read for the search rows),
and a read-write open after a clone (no derived index), take the memory files git's index holds
unchanged from git's objects in one stream (core.git.clean_files), and read from disk only the
others: the vault it shows is the one reading every file shows, problems and their reasons
included. A file taken from git was never stat'ed: a write checks it still holds git's blob
(core.vault.unchanged_files), so a person's save since the open is committed, never lost."""

from __future__ import annotations

import subprocess

import pytest

from core import Vault
from core.search import index_path
from core.store import record_loading
from core.vault import loading

BAD_ID = "0badf11e-0000-4000-8000-000000000000"


def _git(root, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def cloned(vault, monkeypatch):
    """Eight memories, one committed file that is no record, a file changed since its commit
    and an untracked one; no derived index (as after a clone); git's stream used from 1 file."""
    monkeypatch.setattr(loading, "FROM_GIT_FROM", 1, raising=False)  # (old code: none)
    ids = sorted(vault.add(f"the garden note {n}").id for n in range(8))
    vault.close()
    bad = vault.root / "memories" / f"{BAD_ID}.json"
    bad.write_text(f'{{"id": "{BAD_ID}", "content": 3}}')
    _git(vault.root, "add", "-A")
    _git(vault.root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "bad file")
    changed = vault.root / "memories" / f"{ids[0]}.json"
    changed.write_bytes(changed.read_bytes().replace(b"garden note", b"garden note, changed"))
    untracked = vault.root / "memories" / "00000000-0000-4000-8000-00000000000f.json"
    untracked.write_bytes(changed.read_bytes().replace(ids[0].encode(), untracked.stem.encode()))
    _git(vault.root, "update-index", "-q", "--really-refresh")
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    return vault.root, ids, changed, untracked


def _reads(monkeypatch) -> list[str]:
    read: list[str] = []
    original = record_loading.read_vault_file

    def counted(path, *args, **kwargs):
        read.append(str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(record_loading, "read_vault_file", counted)
    return read


def test_only_the_files_git_does_not_vouch_for_are_read_from_disk(cloned, monkeypatch):
    root, ids, changed, untracked = cloned
    read = _reads(monkeypatch)
    opened = Vault.open(root, readonly=True, search_rows=True)
    memories = sorted(read)
    opened.open_index.search_rows.discard()
    assert memories == sorted([str(changed), str(untracked)])  # (not the 7 + 1 unchanged)


def test_the_vault_shown_is_the_one_every_file_read_shows(cloned, monkeypatch):
    root, ids, changed, untracked = cloned
    opened = Vault.open(root, readonly=True, search_rows=True)
    opened.open_index.search_rows.discard()
    monkeypatch.setattr(loading, "FROM_GIT_FROM", 10 ** 9)  # every file read from disk
    every = Vault.open(root, readonly=True, search_rows=True)
    every.open_index.search_rows.discard()
    assert sorted(opened.memories) == sorted(every.memories)  # (read in the order of names)
    assert {i: m.model_dump() for i, m in opened.memories.items()} == {
        i: m.model_dump() for i, m in every.memories.items()}
    assert opened.memories[ids[0]].content.startswith("the garden note, changed")  # (on disk)
    assert untracked.stem in opened.memories
    assert [(p.path, p.reason) for p in opened.problems] == [
        (p.path, p.reason) for p in every.problems]
    assert [p.path.stem for p in opened.problems] == [BAD_ID]


def test_a_git_that_cannot_answer_means_every_file_is_read(cloned, monkeypatch):
    from core.errors import JournalError
    from core.git.clean_files import CleanFiles

    root, ids, changed, untracked = cloned

    def fails(*args, **kwargs):
        raise JournalError("git could not be started")

    monkeypatch.setattr(CleanFiles, "start", fails)
    read = _reads(monkeypatch)
    opened = Vault.open(root, readonly=True, search_rows=True)
    opened.open_index.search_rows.discard()
    assert len(read) == len(ids) + 2 and len(opened.memories) == len(ids) + 1


def _log(root) -> list[str]:
    return subprocess.run(["git", "log", "--format=%s"], cwd=root, check=True,
                          capture_output=True, text=True).stdout.splitlines()


def test_a_first_open_that_writes_reads_only_the_files_git_does_not_vouch_for(
        cloned, monkeypatch):
    root, ids, changed, untracked = cloned
    read = _reads(monkeypatch)
    opened = Vault.open(root)
    memories = {p for p in read if "/memories/" in p}
    assert memories == {str(changed), str(untracked)}  # (old code: all 10)
    monkeypatch.setattr(loading, "FROM_GIT_FROM", 10 ** 9)  # every file read from disk
    opened.close()
    every = Vault.open(root, readonly=True)
    assert {i: m.model_dump() for i, m in opened.memories.items()} == {
        i: m.model_dump() for i, m in every.memories.items()}
    assert opened.memories[ids[0]].content.startswith("the garden note, changed")
    assert [p.path.stem for p in opened.problems] == [BAD_ID]


@pytest.fixture
def clean_clone(vault, monkeypatch):
    """Four memories committed, no derived index, every file clean: git's stream from 1 file."""
    monkeypatch.setattr(loading, "FROM_GIT_FROM", 1, raising=False)
    ids = sorted(vault.add(f"the orchard note {n}").id for n in range(4))
    vault.relate(ids[0], ids[1], "related")
    vault.close()
    _git(vault.root, "update-index", "-q", "--really-refresh")
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    return vault.root, ids


def test_a_first_open_reads_no_clean_record_file_from_disk(clean_clone, monkeypatch):
    """Memories and relations alike come from git's objects; the vault is the one every file
    read shows."""
    root, ids = clean_clone
    read = _reads(monkeypatch)
    opened = Vault.open(root)
    assert [p for p in read if "/memories/" in p or "/relations/" in p] == []
    assert len(opened.relations) == 1 and sorted(opened.memories) == ids
    opened.close()
    monkeypatch.setattr(loading, "FROM_GIT_FROM", 10 ** 9)
    every = Vault.open(root, readonly=True)
    assert opened.relations == every.relations and opened.memories == every.memories


def test_a_save_after_a_first_open_is_committed_before_a_write(clean_clone):
    root, ids = clean_clone
    vault = Vault.open(root)
    assert vault.state.layout.vouched  # (taken from git: never stat'ed)
    path = vault.state.layout.memory_path(ids[1])
    saved = path.read_bytes().replace(b"the orchard note", b"saved by a person: the note")
    path.write_bytes(saved)
    vault.update(ids[1], content="the orchard note, rewritten")
    log = _log(root)
    assert log[1].startswith("external:") and not log[0].startswith("external:")
    shown = subprocess.run(["git", "show", "HEAD~1:" + path.relative_to(root).as_posix()],
                           cwd=root, check=True, capture_output=True).stdout
    assert shown == saved  # the person's save is in history
    vault.close()


def test_a_file_unchanged_since_a_first_open_is_written_as_read(clean_clone):
    """No ``external:`` commit for a file that still holds the blob the open took from git:
    it is noted as seen, the write is memvault's own."""
    root, ids = clean_clone
    before = _log(root)
    vault = Vault.open(root)
    vault.update(ids[2], content="the orchard note, rewritten")
    vault.touch(ids[3])
    vault.close()
    after = _log(root)
    assert len(after) > len(before)
    assert not any(m.startswith("external:") for m in after[: len(after) - len(before)])
    assert not vault.state.layout.vouched.get(f"memories/{ids[2]}.json")
