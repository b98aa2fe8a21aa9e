"""The open after a clone (no derived index) holds each record as its file's bytes and checks it
when first read (``core.store.cache.Store.fill_unchecked``): the open parses none, a file that is
no record is still never shown, and is reported with the reason reading it at once gives (as
soon as the problems are asked for, or the rows of the open index are written); the rows keep
no bytes of such a file."""

from __future__ import annotations

import sqlite3
import subprocess

import pytest

from core import Memory, Vault
from core.search.index import index_path
from core.vault import index_writer, indexed_open


def _git(root, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=person",
                    "-c", "user.email=person@localhost", *args],
                   capture_output=True, text=True, check=True)


def _drop_index(root) -> None:
    for leftover in index_path(root).parent.glob("index.sqlite*"):
        leftover.unlink()


@pytest.fixture
def cloned(tmp_path):
    """A vault of 6 memories and a relation, three files that are no record committed beside
    them (one not JSON, one with a bad field, one another memory's copy), its index dropped
    (as after a clone); (root, the memories, the bad paths)."""
    vault = Vault.open(tmp_path / "v")
    made = [vault.add(f"note {i} about the garden", tags=["garden"]) for i in range(6)]
    vault.relate(made[0].id, made[1].id, "related")
    root = vault.root
    bad = [root / "memories" / f"{name}.json" for name in ("broken", "negative", "copy")]
    bad[0].write_text('{"id": "broken", "content": ')
    bad[1].write_text('{"id": "negative", "content": "x", "use_count": -1}')
    bad[2].write_bytes(vault.layout.memory_path(made[0].id).read_bytes())
    vault.close()
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "garbage committed by hand")
    _drop_index(root)
    return root, made, bad


@pytest.fixture
def no_writer_thread(monkeypatch):
    """The open index's rows left to the test: the writer a first open makes is not started."""
    made: list[index_writer.OpenIndexWriter] = []
    monkeypatch.setattr(indexed_open, "BACKGROUND_FROM", 1)
    monkeypatch.setattr(index_writer.OpenIndexWriter, "start", lambda self: made.append(self))
    return made


def _problems(vault: Vault) -> list[tuple[str, str]]:
    return sorted((str(p.path), p.reason) for p in vault.problems)


def test_the_open_after_a_clone_parses_no_record_until_one_is_read(cloned, no_writer_thread):
    root, made, _ = cloned
    vault = Vault.open(root)
    assert vault.store.memories.raw == 9 and vault.store.relations.raw == 1
    assert vault.get(made[2].id) == made[2] and vault.store.memories.raw == 8
    assert vault.store.resolve(made[3].id) == made[3].id and vault.store.memories.raw == 7


def test_a_file_checked_on_first_read_is_reported_as_the_open_reported_it(cloned,
                                                                         no_writer_thread):
    root, made, bad = cloned
    reading_every_file = _problems(Vault.open(root, readonly=True))  # (parses every file)
    assert {path for path, _ in reading_every_file} == {str(p) for p in bad}
    vault = Vault.open(root)
    assert vault.store.memories.get("negative") is None  # checked alone: never shown
    assert "copy" not in vault.store.memories and vault.store.memories.unchecked
    assert _problems(vault) == reading_every_file  # (checks the rest first)
    assert not vault.store.unchecked and len(vault.memories) == 6
    assert sorted(vault.memories) == sorted(m.id for m in made)
    assert _problems(vault) == reading_every_file  # each once


def test_the_rows_of_an_open_after_a_clone_keep_no_bytes_of_a_file_that_is_no_record(
        cloned, no_writer_thread):
    root, made, bad = cloned
    vault = Vault.open(root)
    assert vault.store.unchecked
    (writer,) = no_writer_thread
    assert writer.write() is True  # (what the thread does: the records are checked first)
    assert not vault.store.unchecked and {p.path for p in vault.problems} == set(bad)
    conn = sqlite3.connect(index_path(root))
    kept = dict(conn.execute("SELECT path, body IS NOT NULL FROM files"))
    conn.close()
    assert {rel for rel, body in kept.items() if not body} == \
        {p.relative_to(root).as_posix() for p in bad}
    again = Vault.open(root)  # from the rows
    assert again.state.opened_from_index and again.memories == vault.memories
    assert _problems(again) == _problems(vault)


def test_a_write_after_the_open_after_a_clone_sees_every_problem_first(cloned, no_writer_thread):
    root, made, bad = cloned
    vault = Vault.open(root)
    added = vault.add("one more note about the garden", tags=["garden"])
    assert not vault.store.unchecked and {p.path for p in vault.problems} == set(bad)
    assert isinstance(vault.get(added.id), Memory) and len(vault.memories) == 7


def test_the_open_after_a_clone_leaves_making_the_index_file_to_the_rows_writer(
        cloned, no_writer_thread):
    root, made, _ = cloned
    vault = Vault.open(root)
    assert not index_path(root).exists()  # (no SQLite file made, nor synced, by the open)
    (writer,) = no_writer_thread
    assert writer.write() is True and index_path(root).exists()
    vault.close()
    again = Vault.open(root)
    assert again.state.opened_from_index and sorted(again.memories) == sorted(m.id for m in made)


def test_a_read_only_open_after_a_clone_parses_no_record_until_one_is_read(cloned):
    root, made, bad = cloned
    reader = Vault.open(root, readonly=True)
    assert reader.store.memories.raw == 9 and reader.store.relations.raw == 1
    assert reader.get(made[2].id) == made[2] and reader.store.memories.raw == 8
    assert reader.state.problems_found == []  # (none checked yet)
    assert sorted(str(p.path) for p in reader.problems) == sorted(str(p) for p in bad)
    assert sorted(reader.memories) == sorted(m.id for m in made)
