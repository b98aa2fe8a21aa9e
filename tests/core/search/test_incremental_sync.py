"""A searcher kept across changes (the MCP server's): the index and the allowed ids follow the
memories that changed since the last search (LazyRecords.changed_since), and answer exactly as
a fresh searcher would."""

from __future__ import annotations

from core import Memory
from core.search import Searcher
from core.store import lazy
from core.store.lazy import LazyRecords


def _ids(result) -> list[str]:
    return sorted(h.memory.id for h in result.hits)


def test_changed_since_names_what_changed_and_forgets_old_versions(monkeypatch):
    records: LazyRecords[str] = LazyRecords(lambda b: b.decode())
    records.fill({"a": b"A", "b": b"B"})
    start = records.version
    records["c"] = "C"
    del records["a"]
    assert records.changed_since(start) == {"a", "c"}
    assert records.changed_since(records.version) == set()
    assert records.changed_since(start - 1) is None  # before the fill
    monkeypatch.setattr(lazy, "_LOG_LIMIT", 4)
    mark = records.version
    for i in range(6):
        records[f"k{i}"] = str(i)
    assert records.changed_since(mark) is None  # forgotten: compare everything
    assert records.changed_since(records.version - 1) == {"k5"}


def test_a_kept_searcher_follows_every_kind_of_change(vault):
    for i in range(6):
        vault.save(Memory(id=f"m{i}", content=f"orchard kiwis note {i}"))
    with Searcher(vault, mode="bm25") as kept:  # (the words' hits: no extra's nearest ones)
        assert len(kept.search("kiwis", limit=None).hits) == 6
        vault.archive("m0")
        vault.delete("m1")
        vault.update("m2", content="pears only")
        vault.save(Memory(id="m9", content="kiwis from the new orchard"))
        vault.record_use(["m3", "m4"])
        for query in ("kiwis", "pears", "orchard"):
            with Searcher(vault, mode="bm25") as fresh:
                assert _ids(kept.search(query, limit=None)) == _ids(fresh.search(query,
                                                                                  limit=None))
        assert _ids(kept.search("kiwis", limit=None)) == ["m3", "m4", "m5", "m9"]
        assert _ids(kept.search("kiwis", statuses=["archived"], limit=None)) == ["m0"]


def test_a_write_that_fails_leaves_the_next_sync_to_write_the_rows(vault, monkeypatch):
    """A sync whose transaction fails (a full disk) is rolled back: the searcher must not take
    the rows it was putting for the file's, or the memory stays out of every later search."""
    import sqlite3

    import pytest

    from core.search.index import SearchIndex

    vault.save(Memory(id="m0", content="orchard kiwis note"))
    with Searcher(vault) as kept:
        assert _ids(kept.search("kiwis", limit=None)) == ["m0"]
        vault.save(Memory(id="m1", content="kiwis from the new orchard"))
        real = SearchIndex._keep_words

        def full_disk(self, *args):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(SearchIndex, "_keep_words", full_disk)
        with pytest.raises(sqlite3.OperationalError):
            kept.search("kiwis", limit=None)
        monkeypatch.setattr(SearchIndex, "_keep_words", real)
        assert _ids(kept.search("kiwis", limit=None)) == ["m0", "m1"]
