"""A derived index that is valid SQLite but wrong inside (an FTS5 segment damaged, rows of its
``_data`` shadow table gone, a file of another schema that says this version in its
``user_version``) is built again at its first failed read, with one line in the vault's notices:
a search answers as from a sound index, never with a traceback, and the next search finds it
sound."""

from __future__ import annotations

import sqlite3

import pytest

from core import Vault
from core.search import search
from core.search.index import SCHEMA_VERSION, SearchIndex, index_path
from core.search.index_file import foreign_table


def _vault(tmp_path) -> tuple[Vault, str]:
    vault = Vault.open(tmp_path / "v")
    target = vault.add("We meet on Tuesday about the 1200 euros", tags=["money"])
    for i in range(30):
        vault.add(f"note {i} about the garden, the roses and the {i} tulips")
    assert [h.memory.id for h in search(vault, "Tuesday", mode="bm25").hits] == [target.id]
    return vault, target.id


def _damage(root, *statements: str) -> None:
    conn = sqlite3.connect(index_path(root))
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _foreign_file(root) -> None:
    """The index file replaced by one of another program's with this version's number."""
    path = index_path(root)
    for suffix in ("-wal", "-shm", ""):
        leftover = path.with_name(path.name + suffix)
        if leftover.exists():
            leftover.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE records (rowid INTEGER PRIMARY KEY, id TEXT, fingerprint TEXT, "
                 "source TEXT)")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(text)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.commit()
    conn.close()


DAMAGES = {
    "segments cut short": lambda root: _damage(
        root, "UPDATE fts_data SET block = substr(block, 1, 3) WHERE id > 10"),
    "segments deleted": lambda root: _damage(root, "DELETE FROM fts_data WHERE id > 10"),
    "sizes deleted": lambda root: _damage(root, "DELETE FROM fts_docsize"),
    "fts of another schema": lambda root: _damage(
        root, "DROP TABLE fts", "CREATE VIRTUAL TABLE fts USING fts5(text)"),
    "a foreign file": _foreign_file,
}


@pytest.mark.parametrize("readonly", [False, True])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_index_is_built_again_at_its_first_failed_read(tmp_path, damage, readonly):
    vault, target = _vault(tmp_path)
    DAMAGES[damage](vault.root)
    opened = Vault.open(vault.root, readonly=readonly)
    result = search(opened, "Tuesday", mode="bm25")
    assert [h.memory.id for h in result.hits] == [target]
    assert result.total == 1
    notes = [n for n in opened.notices if "search index" in n]
    assert len(notes) == 1 and "built again" in notes[0] and "\n" not in notes[0]
    assert len(search(opened, "garden", limit=50, mode="bm25").hits) == 30
    assert [n for n in opened.notices if "search index" in n] == notes  # sound since
    again = Vault.open(vault.root, readonly=readonly)
    assert [h.memory.id for h in search(again, "Tuesday", mode="bm25").hits] == [target]
    assert again.notices == []


def test_a_schema_of_another_program_with_this_version_is_found():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE records (a)")
    assert foreign_table(conn) is not None
    sound = SearchIndex(None)
    assert foreign_table(sound.conn) is None
    sound.close()
    conn.close()


def test_only_an_error_that_says_damage_rebuilds():
    from core.search.index_file import is_damage

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(a)")
    found = {}
    for query in ("SELECT * FROM fts WHERE fts MATCH 'NEAR('", "SELECT * FROM gone",
                  "SELECT gone FROM fts"):
        with pytest.raises(sqlite3.Error) as caught:
            conn.execute(query).fetchall()
        found[query] = is_damage(caught.value)
    conn.close()
    assert list(found.values()) == [False, True, True]  # a query FTS5 cannot read is no damage
    assert not is_damage(sqlite3.OperationalError("database is locked"))
