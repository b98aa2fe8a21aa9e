"""The search rows of the first search after a clone, made by a child process while a read-only
open reads the files (core.search.read_rows.RowsWhileReading): the very rows and rowids an index
made in memory from the memories afterwards holds, so the ranking is the same; and whenever they
cannot be those (a memory with two files, a child that fails or dies, an image SQLite cannot
read), none, and the search makes them as before."""

from __future__ import annotations

import fcntl
import os
import shutil
import time

import pytest

from core import Vault
from core.search import Searcher, index_path
from core.search import background_build, first_build, read_rows
from core.search import memory_index as memory_index_module
from core.search.memory_index import memory_index
from core.search.query import parse
from core.search.rank import rank
from core.store import record_loading
from core.store.shards import shard_of

NOW = int(time.time())
TEXTS = ["the garden needs water on mondays", "tomatoes in the garden", "a note about taxes",
         "the car is due for service", "taxes are due in april", "the garden shed roof leaks",
         "café au lait in the garden", "the queue of garden chores", "water the tomatoes",
         'a "quoted" gist [x] with\ttabs and ünïcödé']
QUERIES = ["garden", "garden taxes", "tax*", '"the garden"', "garden -roof", "cafe", "water",
           "quoted", "unicode"]


@pytest.fixture
def small_first_build(monkeypatch):
    """A first build handed over from 3 memories on (the vaults here are small)."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)


def _cloned(vault: Vault, layout: str) -> None:
    """Memories in ``layout``, and no derived index (as after a clone)."""
    for n, text in enumerate(TEXTS):
        vault.add(text, tags=["home", "x"] if n % 2 else ["work"], entities=["Ann"] * (n % 3))
    vault.migrate_layout(layout)
    vault.close()
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()


def _rows(index) -> list[tuple]:
    return index.conn.execute(
        "SELECT r.rowid, r.id, f.content, f.gist, f.tags, f.entities FROM records r "
        "JOIN fts f ON f.rowid = r.rowid ORDER BY r.rowid").fetchall()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("layout", ["flat", "sharded"])
def test_the_rows_the_child_made_are_those_made_after(vault, layout, small_first_build):
    _cloned(vault, layout)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    rows = opened.open_index.search_rows
    assert rows is not None and rows.child_pid is not None
    pid = rows.child_pid
    made = rows.index_for(opened.memories)
    assert made is not None and _gone(pid)
    after = memory_index(opened.memories)
    assert _rows(made) == _rows(after) and len(_rows(made)) == len(TEXTS)
    pool = set(opened.memories)
    for text in QUERIES:
        a = rank(made, opened.memories, parse(text), pool, lambda m: 1.0, synced=True)
        b = rank(after, opened.memories, parse(text), pool, lambda m: 1.0, synced=True)
        assert [(h.memory.id, h.score, h.bm25) for h in a.hits] == [
            (h.memory.id, h.score, h.bm25) for h in b.hits], text
        assert a.hits, text


def test_only_a_read_only_open_of_a_vault_without_a_search_index_makes_them(
        vault, small_first_build):
    _cloned(vault, "flat")
    assert Vault.open(vault.root, search_rows=True).open_index.search_rows is None
    assert Vault.open(vault.root, readonly=True).open_index.search_rows is None
    with Vault.open(vault.root) as warm, Searcher(warm, mode="bm25") as searcher:
        searcher.search("garden", now=NOW)  # the search index file is made
    rows = read_rows.RowsWhileReading(vault.root)
    rows.add(list(vault.memories.values()))
    assert not rows.wanted and rows.child_pid is None


def test_the_child_starts_before_the_files_are_read_and_is_fed_as_they_are(
        vault, monkeypatch, small_first_build):
    """A flat folder: the child is started as soon as the open knows how many files it holds,
    and handed the memories a few at a time while the rest are read (it was handed all of
    them at the folder's end, then filled FTS5 while the search waited)."""
    _cloned(vault, "flat")
    bad = vault.root / "memories" / "0badf11e-0000-4000-8000-000000000000.json"
    bad.write_text('{"id": "0badf11e-0000-4000-8000-000000000000", "content": "garden')
    monkeypatch.setattr(record_loading, "FEED_EVERY", 2, raising=False)  # (old code: none)
    seen: list[tuple[int, int | None]] = []
    add = read_rows.RowsWhileReading.add

    def watched(self, memories):
        seen.append((len(memories), self.child_pid))
        add(self, memories)

    monkeypatch.setattr(read_rows.RowsWhileReading, "add", watched)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    handed = [n for n, _ in seen if n]
    assert sum(handed) == len(TEXTS) and max(handed) <= 2 and len(handed) >= 5
    assert seen[0][1] is not None  # (started before the first memory was handed over)
    made = opened.open_index.search_rows.index_for(opened.memories)
    assert made is not None and _rows(made) == _rows(memory_index(opened.memories))
    assert [p.path for p in opened.problems] == [bad]  # (said, and no row of its bytes)
    assert "not valid JSON" in opened.problems[0].reason and len(_rows(made)) == len(TEXTS)


def test_a_child_is_started_for_a_folder_announced_big_enough_only(vault, small_first_build):
    _cloned(vault, "flat")
    rows = read_rows.RowsWhileReading(vault.root)
    rows.expect(2)
    assert rows.child_pid is None
    rows.expect(1)  # (three announced: the first build is handed over from three)
    pid = rows.child_pid
    assert pid is not None
    rows.discard()
    assert _gone(pid) and _rows_files(vault.root) == []


def test_a_small_vault_starts_no_child(vault):
    _cloned(vault, "sharded")
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    rows = opened.open_index.search_rows
    assert rows is not None and rows.child_pid is None
    assert rows.index_for(opened.memories) is None


def test_a_memory_with_two_files_means_the_rows_are_made_again(vault, small_first_build):
    _cloned(vault, "flat")
    memory_id = sorted(vault.memories)[0]
    flat = vault.root / "memories" / f"{memory_id}.json"
    shard = vault.root / "memories" / shard_of(memory_id)
    shard.mkdir()
    shutil.copy(flat, shard / flat.name)  # (a merge of a flat and a sharded clone)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    assert len(opened.memories) == len(TEXTS) and len(opened.problems) == 1
    assert opened.open_index.search_rows.index_for(opened.memories) is None


@pytest.mark.parametrize("child", [
    "import sys; sys.exit(3)",  # fails at once
    "import sys; sys.stdin.buffer.read(20); sys.exit(0)",  # dies after reading a little
    "import sys; sys.stdin.buffer.read(); sys.stdout.buffer.write(b'no database' * 100)",
    "import sys; sys.stdin.buffer.read(); sys.exit(0)",  # sends nothing back
])
def test_a_child_that_fails_gives_no_rows_and_the_search_makes_them(
        vault, monkeypatch, small_first_build, child):
    _cloned(vault, "sharded")
    monkeypatch.setattr(read_rows, "child_argv", lambda: [read_rows.sys.executable, "-c", child])
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    rows = opened.open_index.search_rows
    pid = rows.child_pid
    assert pid is not None
    assert rows.index_for(opened.memories) is None and _gone(pid)
    fd = os.open(background_build.lock_path(vault.root), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a builder at work: this search starts none
        with Searcher(opened, mode="bm25", in_background=True) as searcher:
            found = searcher.search("garden water", limit=5, now=NOW)
    finally:
        os.close(fd)
    assert background_build.HANDED_OVER in found.notes and found.hits


def test_rows_not_used_stop_their_child(vault, small_first_build):
    _cloned(vault, "flat")
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    rows = opened.open_index.search_rows
    pid = rows.child_pid
    assert pid is not None
    rows.discard()
    assert rows.child_pid is None and _gone(pid)
    assert rows.index_for(opened.memories) is None


def test_a_search_after_a_clone_answers_from_them_as_a_warm_one(vault, monkeypatch,
                                                                 small_first_build):
    _cloned(vault, "sharded")
    with Vault.open(vault.root) as warm, Searcher(warm, mode="bm25") as searcher:
        expected = searcher.search("garden water", limit=5, now=NOW)
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    made = []
    monkeypatch.setattr(memory_index_module, "memory_index",
                        lambda memories: made.append(1) or memory_index(memories))
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    fd = os.open(background_build.lock_path(vault.root), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a builder at work: this search starts none
        with Searcher(opened, mode="bm25", in_background=True,
                      read_rows=opened.open_index.search_rows) as searcher:
            found = searcher.search("garden water", limit=5, now=NOW)
    finally:
        os.close(fd)
    assert background_build.HANDED_OVER in found.notes and made == []
    assert [(h.memory.id, h.score) for h in found.hits] == [
        (h.memory.id, h.score) for h in expected.hits] and found.total == expected.total


def test_an_index_made_once_is_tuned_for_one_build_and_ranks_the_same(vault, small_first_build):
    _cloned(vault, "flat")
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    made = opened.open_index.search_rows.index_for(opened.memories)
    for index in (made, memory_index(opened.memories)):
        settings = dict(index.conn.execute("SELECT k, v FROM fts_config WHERE k != 'version'"))
        assert settings == {"automerge": 0, "hashsize": 33554432}


def _rows_files(root) -> list:
    return sorted(index_path(root).parent.glob("first-search-rows-*"))


def test_the_rows_file_is_private_and_gone_once_read_or_discarded(vault, tmp_path, monkeypatch,
                                                                  small_first_build):
    _cloned(vault, "sharded")
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    assert opened.open_index.search_rows.index_for(opened.memories) is not None
    assert _rows_files(vault.root) == []
    seen = tmp_path / "mode"
    stub = ("import marshal, os, struct, sys; n, = struct.unpack('<Q', sys.stdin.buffer.read(8)); "
            "_, path = marshal.loads(sys.stdin.buffer.read(n)); "
            f"open({str(seen)!r}, 'w').write(oct(os.stat(path).st_mode & 0o777)); "
            "sys.stdin.buffer.read()")
    monkeypatch.setattr(read_rows, "child_argv", lambda: [read_rows.sys.executable, "-c", stub])
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    rows = opened.open_index.search_rows
    assert len(_rows_files(vault.root)) == 1
    assert rows.index_for(opened.memories) is None  # (the stub wrote no rows)
    assert seen.read_text() == "0o600" and _rows_files(vault.root) == []
    monkeypatch.undo()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)  # (the real child, rows unused)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    assert len(_rows_files(vault.root)) == 1
    opened.open_index.search_rows.discard()
    assert _rows_files(vault.root) == []


def test_leftovers_of_searches_that_are_gone_are_removed(tmp_path):
    import subprocess
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    mine = tmp_path / f"first-search-rows-{os.getpid()}-ab12.sqlite"
    theirs = tmp_path / f"first-search-rows-{dead.pid}-cd34.sqlite"
    other = tmp_path / "index.sqlite"
    for path in (mine, theirs, other):
        path.write_bytes(b"")
    read_rows.remove_leftovers(tmp_path)
    assert mine.exists() and other.exists() and not theirs.exists()
