"""The memory files git's index holds unchanged, read from git's objects in one stream
(core.git.clean_files.CleanFiles): only files git vouches for, each as it is on disk; anything
else (changed, untracked, marked assume-unchanged, over the size limit) is left to the caller."""

from __future__ import annotations

import subprocess

import pytest

from core.errors import JournalError
from core.git.clean_files import CleanFiles
from core.store.files import MAX_FILE_BYTES


def _git(root, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                          text=True).stdout


def _clean(vault, limit: int = MAX_FILE_BYTES) -> CleanFiles:
    journal = vault.journal
    return CleanFiles.start(journal.commands, journal.repository, "memories", limit)


@pytest.fixture
def five(vault):
    ids = [vault.add(f"memory number {n}").id for n in range(5)]
    _git(vault.root, "update-index", "-q", "--really-refresh")  # (no racily clean entries)
    return vault, [f"memories/{i}.json" for i in sorted(ids)]


def test_the_blobs_of_unchanged_files_are_their_bytes(five):
    vault, paths = five
    clean = _clean(vault)
    try:
        assert len(clean) == len(paths)
        for rel in paths:  # (in git's order: the stream as git writes it)
            assert clean.take(rel) == (vault.root / rel).read_bytes()
        assert clean.take(paths[0]) is None  # (each taken once)
    finally:
        clean.close()


def test_files_taken_in_another_order_come_all_the_same(five):
    vault, paths = five
    clean = _clean(vault)
    try:
        for rel in reversed(paths):
            assert clean.take(rel) == (vault.root / rel).read_bytes()
    finally:
        clean.close()


def test_a_file_git_does_not_vouch_for_is_left_to_the_caller(five):
    vault, paths = five
    changed, marked, kept = paths[0], paths[1], paths[2:]
    (vault.root / changed).write_bytes((vault.root / changed).read_bytes().replace(
        b"memory number", b"memory changed"))
    _git(vault.root, "update-index", "--assume-unchanged", marked)
    (vault.root / marked).write_bytes((vault.root / marked).read_bytes().replace(
        b"memory number", b"memory hidden"))
    untracked = "memories/untracked.json"
    (vault.root / untracked).write_text("{}")
    clean = _clean(vault)
    try:
        for rel in (changed, marked, untracked):
            assert clean.take(rel) is None, rel
        for rel in kept:
            assert clean.take(rel) == (vault.root / rel).read_bytes()
    finally:
        clean.close()


def test_a_blob_over_the_limit_is_never_held(five):
    vault, paths = five
    sizes = {rel: len((vault.root / rel).read_bytes()) for rel in paths}
    limit = sorted(sizes.values())[len(paths) // 2]
    clean = _clean(vault, limit)
    try:
        for rel in paths:
            got = clean.take(rel)
            assert got == ((vault.root / rel).read_bytes() if sizes[rel] <= limit else None)
    finally:
        clean.close()


def test_a_git_that_cannot_answer_raises(five, tmp_path, monkeypatch):
    vault, _ = five
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(JournalError):
        _clean(vault)
