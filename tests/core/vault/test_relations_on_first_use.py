"""A read-only open that keeps no bytes leaves a big relations folder unread until relations are
first used (core.vault.loading): then the same relations and problems as an open that reads
them; a search never reads them."""

from __future__ import annotations

import pytest

from core import Vault
from core.search import index_path
from core.vault import loading
from core.store.layout import Layout

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


@pytest.fixture
def folders_read(monkeypatch) -> list[str]:
    """The kind of each folder a Layout loads or reads (its records unchecked), in order; every
    relations folder counts as big."""
    monkeypatch.setattr(loading, "UNREAD_FROM", 1)
    read: list[str] = []

    def spy(real):
        def spied(self, kind, *args, **kwargs):
            read.append(kind)
            return real(self, kind, *args, **kwargs)
        return spied

    monkeypatch.setattr(Layout, "load_folder", spy(Layout.load_folder))
    monkeypatch.setattr(Layout, "read_folder", spy(Layout.read_folder))
    return read


@pytest.fixture
def related(related_vault):
    """A vault with relations, one of them a broken file, and no open index."""
    index_path(related_vault[0].root).unlink(missing_ok=True)
    return related_vault


def _problems(vault: Vault) -> list[tuple[str, str]]:
    return sorted((str(p.path), p.reason) for p in vault.problems)


def test_relations_are_read_when_first_used_the_same_as_an_open_reads_them(related,
                                                                            folders_read):
    vault, ids = related
    writer = Vault.open(vault.root)
    expected = {i: r.model_dump() for i, r in writer.relations.items()}
    expected_problems = _problems(writer)
    writer.close()
    index_path(vault.root).unlink(missing_ok=True)
    folders_read.clear()
    reader = Vault.open(vault.root, readonly=True)
    assert folders_read == ["memory"]
    assert len(reader.memories) == 6 and _problems(reader) == []  # (not read yet: none known)
    assert [r.to_memory_id for r in reader.relations_of(ids[0])] == [ids[1]]
    assert folders_read == ["memory", "relation"]
    assert {i: r.model_dump() for i, r in reader.relations.items()} == expected
    assert len(expected) == 5 and _problems(reader) == expected_problems != []
    assert folders_read == ["memory", "relation"]  # once


@pytest.mark.parametrize("how", ["writer", "bytes kept"])
def test_an_open_that_writes_or_keeps_bytes_reads_them_at_once(related, folders_read, how):
    vault, _ = related
    opened = (Vault.open(vault.root) if how == "writer"
              else Vault.open(vault.root, readonly=True, keep_read=True))
    assert opened.state.store.relations.due is False
    assert len(opened.problems) == 1  # the broken relation file, known at once
    opened.close()


def test_a_small_relations_folder_is_read_at_once(related, folders_read, monkeypatch):
    monkeypatch.setattr(loading, "UNREAD_FROM", 10**9)
    vault, _ = related
    reader = Vault.open(vault.root, readonly=True)
    assert folders_read == ["memory", "relation"] and len(reader.problems) == 1


def test_the_first_search_of_a_big_vault_reads_no_relation(run, folders_read, monkeypatch):
    """As after a clone of a vault big enough to hand the search index's first build over (its
    bytes then not kept); the builder is not started here."""
    from core.search import background_build, first_build

    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 1)
    monkeypatch.setattr(background_build, "launch", lambda root, fd: False)
    first = run.add("Never deploy on Fridays", "--tag", "ops")
    other = run.add("We deploy on Tuesdays", "--tag", "ops")
    run.ok("relate", first, other, "related")
    index_path(run.vdir).unlink(missing_ok=True)
    folders_read.clear()
    found = run.json("search", "deploy")
    assert len(found["hits"]) == 2
    assert "relation" not in folders_read and "memory" in folders_read
    folders_read.clear()
    found = run.json("search", "has:relations")
    assert len(found["hits"]) == 2 and folders_read.count("relation") == 1


def test_the_first_search_of_a_big_vault_reads_no_relation_however_few(run, folders_read,
                                                                      monkeypatch):
    """A search never uses relations: its open leaves them unread even when the folder is
    small (at 10k memories, 3,333 relation files were parsed by every search after a clone)."""
    from core.search import background_build, first_build

    monkeypatch.setattr(loading, "UNREAD_FROM", 10**9)
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 1)
    monkeypatch.setattr(background_build, "launch", lambda root, fd: False)
    first = run.add("Never deploy on Fridays", "--tag", "ops")
    run.ok("relate", first, run.add("We deploy on Tuesdays"), "related")
    index_path(run.vdir).unlink(missing_ok=True)
    folders_read.clear()
    assert len(run.json("search", "deploy")["hits"]) == 2
    assert folders_read == ["memory"]


def test_a_read_only_open_that_keeps_bytes_parses_no_relation_until_used(related):
    """It reads them (their bytes are kept for the open index) but parses none; the broken
    file is still a problem, and the open index is written without its bytes."""
    from core.search.indexed_files import IndexedFiles

    vault, ids = related
    reader = Vault.open(vault.root, readonly=True, keep_read=True)
    relations = reader.state.store.relations
    assert relations.unchecked and relations.raw == 6 and reader.state.problems_found == []
    assert [p.path.name for p in reader.problems] == ["broken.json"]  # (all checked)
    assert relations.raw == 0 and len(reader.relations) == 5
    assert [r.to_memory_id for r in reader.relations_of(ids[0])] == [ids[1]]
    rows = reader.index_files()
    files = IndexedFiles.for_root(vault.root, ".", readonly=True)
    assert files is not None
    try:
        paths = {row[0] for row in files.rows()}
    finally:
        files.close()
    assert rows == len(paths) and "relations/broken.json" not in paths
    assert sum(p.startswith("relations/") for p in paths) == 5
