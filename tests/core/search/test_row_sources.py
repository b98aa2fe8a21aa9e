"""A search over a vault opened from the derived index (its memories still their files' bytes)
parses only what it reads: the rows are compared with the files by the blob id of their bytes,
and the statuses and tags of the candidates are read without parsing them whole."""

from __future__ import annotations

import time

from core import Vault
from core.search import SearchIndex, Searcher, index_path
from core.search import rank as rank_module

NOW = int(time.time())  # (the decay part of a score moves with the clock)
TEXTS = ["the garden needs water on mondays", "tomatoes in the garden", "a note about taxes",
         "the car is due for service", "taxes are due in april", "the garden shed roof leaks"]


def _vault_of(vault: Vault) -> list[str]:
    ids = [vault.add(t, tags=["home"]).id for t in TEXTS]
    vault.archive(ids[1])
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    return ids


def _sources(root) -> dict[str, str | None]:
    with SearchIndex.for_root(root) as index:
        return dict(index.conn.execute("SELECT id, source FROM records"))


def test_rows_made_from_bytes_keep_their_source_and_a_later_sync_parses_nothing(vault):
    ids = _vault_of(vault)
    Vault.open(vault.root)  # every file read: the open index written
    raw = Vault.open(vault.root)
    assert raw.store.memories.raw == len(TEXTS)
    with SearchIndex.for_root(raw.root) as index:
        report = index.sync(raw.memories)
    assert report.added == len(TEXTS)
    assert all(_sources(vault.root).values())  # the blob id of each file's bytes
    again = Vault.open(vault.root)
    with SearchIndex.for_root(again.root) as index:
        assert index.sync(again.memories) == type(report)()
    assert again.store.memories.raw == len(TEXTS)  # none parsed to be compared
    changed = again.update(ids[0], content="the garden needs water on fridays")
    with SearchIndex.for_root(again.root) as index:
        assert index.sync(again.memories).changed == 1
        assert index.fingerprints()[ids[0]] == index.fingerprint_of(changed)


def test_rows_without_a_source_get_it_from_the_first_sync_that_parses_their_bytes(vault):
    _vault_of(vault)
    read_all = Vault.open(vault.root)  # parsed records: the rows get no source
    with SearchIndex.for_root(read_all.root) as index:
        assert index.sync(read_all.memories).added == len(TEXTS)
    assert set(_sources(vault.root).values()) == {None}
    first = Vault.open(vault.root)
    with SearchIndex.for_root(first.root) as index:
        assert index.sync(first.memories) == type(index.sync(first.memories))()
    assert first.store.memories.raw == 0 and all(_sources(vault.root).values())
    second = Vault.open(vault.root)
    with SearchIndex.for_root(second.root) as index:
        index.sync(second.memories)
    assert second.store.memories.raw == len(TEXTS)


def test_a_search_over_bytes_parses_only_its_candidates_and_ranks_as_over_records(
        vault, monkeypatch):
    ids = _vault_of(vault)
    parsed = Vault.open(vault.root)
    parsed.store.memories.parse_all()
    with Searcher(parsed, mode="bm25") as searcher:
        expected = searcher.search("garden taxes", limit=3, now=NOW)
        expected_total = expected.total
    monkeypatch.setattr(rank_module, "BOUNDED_FROM", 2)  # the vault counts as a big one
    noting = Vault.open(vault.root)
    with SearchIndex.for_root(noting.root) as index:
        index.sync(noting.memories)  # the rows' sources noted (they were made from records)
    raw = Vault.open(vault.root)
    with Searcher(raw, mode="bm25") as searcher:
        found = searcher.search("garden taxes", limit=3, now=NOW)
        assert [(h.memory.id, h.score) for h in found.hits] == [
            (h.memory.id, h.score) for h in expected.hits]
        assert found.total == expected_total == 4  # the archived garden note is left out
    assert ids[1] not in {h.memory.id for h in found.hits}
    assert raw.store.memories.raw >= 1  # the car was never read
    assert isinstance(raw.store.memories.held(ids[3]), bytes)
