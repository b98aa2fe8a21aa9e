"""The derived index: where it lives, kept level with the vault row by row, built again when
missing, unreadable or of another schema; deleting it loses nothing."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess

from core import Memory, MemoryMetadata, Vault
from core.search import SearchIndex, Searcher, fingerprint, index_path
from core.search.index import SCHEMA_VERSION


def _add(vault: Vault, *texts: str, tags: list[str] | None = None) -> list[Memory]:
    return [vault.add(t, tags=tags or []) for t in texts]


def test_the_index_lives_in_the_git_dir_private_and_never_committed(vault):
    _add(vault, "Prefers pytest with plain assert", "Deploys go through the merge queue")
    with Searcher(vault, mode="bm25") as s:
        assert [h.memory.content for h in s.search("pytest").hits] == [
            "Prefers pytest with plain assert"]
    path = index_path(vault.root)
    assert path == vault.root / ".git" / "memvault" / "index.sqlite" and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    tracked = subprocess.run(["git", "-C", str(vault.root), "ls-files", "--others", "--cached"],
                             capture_output=True, text=True, check=True).stdout
    assert "index.sqlite" not in tracked


def _forget_index(vault):
    """Delete the index file the vault's open wrote (its rows of files), as a person may."""
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()


def test_sync_rewrites_only_what_differs(vault):
    a, b, c = _add(vault, "alpha one", "beta two", "gamma three")
    _forget_index(vault)
    index = SearchIndex.for_root(vault.root)
    first = index.sync(vault.memories)
    assert (first.added, first.changed, first.removed, first.rebuilt) == (3, 0, 0, "missing")
    assert index.sync(vault.memories) == type(first)()  # nothing to do
    vault.touch(a.id)  # a use: nothing the index holds
    vault.update(b.id, content="beta two, edited")
    vault.delete(c.id)
    report = index.sync(vault.memories)
    assert (report.added, report.changed, report.removed) == (0, 1, 1)
    assert index.fingerprints() == {m.id: fingerprint(m) for m in vault.memories.values()}
    assert set(index.reading.match('"edited"')) == {b.id} and index.reading.match('"gamma"') == {}
    index.close()
    again = SearchIndex.for_root(vault.root)  # another process: reads what is there
    assert again.sync(vault.memories) == type(first)()
    again.close()


def test_another_writer_of_the_index_is_noticed(vault):
    (a,) = _add(vault, "alpha")
    one, two = SearchIndex.for_root(vault.root), SearchIndex.for_root(vault.root)
    one.sync(vault.memories)
    two.sync({})  # another process whose vault holds nothing empties the index
    assert one.sync(vault.memories).added == 1  # the first sees it and puts the row back
    assert set(one.reading.match('"alpha"')) == {a.id}
    one.close(), two.close()


def test_an_unreadable_index_is_built_again(vault):
    (a,) = _add(vault, "alpha")
    path = index_path(vault.root)
    with SearchIndex.for_root(vault.root) as first:
        first.sync(vault.memories)
    path.write_bytes(b"this is not a database" * 100)
    index = SearchIndex.for_root(vault.root)
    report = index.sync(vault.memories)
    assert report.added == 1 and report.rebuilt.startswith("unreadable")
    assert set(index.reading.match('"alpha"')) == {a.id}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    index.close()


def _older_index(vault):
    """The vault's index replaced by one an older memvault wrote (schema one lower); its path."""
    _forget_index(vault)
    path = index_path(vault.root)
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE records (path TEXT)")
    old.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    old.commit(), old.close()
    return path


def test_an_index_of_another_schema_is_built_again(vault):
    (a,) = _add(vault, "alpha")
    _older_index(vault)
    index = SearchIndex.for_root(vault.root)
    report = index.sync(vault.memories)
    assert report.added == 1 and "schema" in report.rebuilt
    assert index.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    index.close()


def test_an_index_of_another_schema_is_said_when_it_is_built_again(vault):
    """An index an older memvault wrote is emptied and built again, and the search says why
    (at 100k memories that build is what the next minute goes to), as for a damaged one."""
    _add(vault, "alpha")
    path = _older_index(vault)
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    assert index.take_notes() == [
        f"the search index ({path}) was written by another version of memvault "
        f"(schema {SCHEMA_VERSION - 1}, not {SCHEMA_VERSION}): built again"]
    assert index.take_notes() == []
    index.close()


def test_a_damaged_fts_table_is_built_again(vault):
    (a,) = _add(vault, "alpha")
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    other = sqlite3.connect(index_path(vault.root))  # another process, or a bad disk
    other.execute("DROP TABLE fts")
    other.execute("DELETE FROM records")
    other.commit(), other.close()
    report = index.sync(vault.memories)
    assert report.added == 1 and report.rebuilt.startswith(("unreadable", "damaged"))
    index.close()


def test_deleting_the_index_loses_nothing(vault):
    _add(vault, "Never deploy on Fridays", "Deploys go through the merge queue", tags=["ops"])
    _add(vault, "Prefers pytest")
    with Searcher(vault, mode="bm25") as s:
        before = [(h.memory.id, h.score) for h in s.search("deploy", now=1).hits]
    path = index_path(vault.root)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{path}{suffix}"):
            os.unlink(f"{path}{suffix}")
    with Searcher(vault, mode="bm25") as s:
        assert [(h.memory.id, h.score) for h in s.search("deploy", now=1).hits] == before
    assert len(before) == 2 and path.is_file()


def test_a_vault_in_no_repository_searches_in_memory(tmp_path):
    folder = tmp_path / "plain"
    (folder / "memories").mkdir(parents=True)
    (folder / "memories" / "m1.json").write_text(Memory(
        id="m1", content="alpha beta", meta=MemoryMetadata(tags=["x"])).model_dump_json())
    vault = Vault.open(folder, readonly=True)
    assert index_path(folder) is None
    with Searcher(vault, mode="bm25") as s:
        assert [h.memory.id for h in s.search("beta").hits] == ["m1"]
    assert not (folder / ".git").exists()


def test_an_index_that_cannot_be_written_stays_in_memory(vault, tmp_path):
    (a,) = _add(vault, "alpha")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    index = SearchIndex(blocker / "index.sqlite")  # its folder cannot be made
    index.sync(vault.memories)
    assert index.path is None and "could not be written" in index.note
    assert set(index.reading.match('"alpha"')) == {a.id}
    index.close()


def test_a_new_index_has_pages_a_record_body_fits_in(tmp_path):
    from core.search.index_file import PAGE_SIZE

    index = SearchIndex(tmp_path / "index.sqlite")
    assert index.conn.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
    assert index.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    index.close()


def test_a_new_index_another_connection_has_open_is_given_its_schema_not_removed(tmp_path):
    """Two connections open a new index at once (a vault opening while the server's search
    opens it): the one that finds it empty gives it the schema in place, under the write lock.
    Removing it (as an index of another schema is) left the other connection on a deleted file,
    and its next read said "database disk image is malformed"."""
    path = tmp_path / "index.sqlite"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode=WAL")  # the file exists, empty, held open
    inode = os.stat(path).st_ino
    with SearchIndex(path) as index:
        assert index.row_count() == 0 and index.rebuilt == "missing"
        assert os.stat(path).st_ino == inode
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert other.execute("SELECT count(*) FROM records").fetchone()[0] == 0
    other.close()

