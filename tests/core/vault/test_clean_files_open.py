"""The first search's open after a clone (read-only, every memory read for the search rows)
takes the memory files git's index holds unchanged from git's objects in one stream
(core.git.clean_files), and reads from disk only the others: the vault it shows is the one
reading every file shows, problems and their reasons included."""

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
