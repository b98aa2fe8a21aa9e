"""The verbs that make or fill a vault (`migrate`, `import`, `import-markdown`, `init`) leave
its derived index complete (tui.cli.importing.index_at_end): the search rows of every memory,
so that the next `memvault search` builds nothing; run in-process through cli.main."""

from __future__ import annotations

import shutil

import pytest

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)
from core import Vault
from core.search import first_build
from core.search.index import SearchIndex, index_path
from vault_support import FIXTURES

MCP = FIXTURES / "mcp-memory" / "memory.jsonl"


def _complete(vdir) -> set[str]:
    """The ids of every memory of the vault at ``vdir``, checked to have a current row."""
    with Vault.open(vdir, readonly=True) as vault, SearchIndex.for_root(vault.root) as index:
        assert index.path is not None and index.path.exists()
        rows = index.fingerprints()
        assert rows == {i: index.fingerprint_of(m) for i, m in vault.memories.items()}
        return set(rows)


def _search_writes_nothing(run, monkeypatch) -> None:
    """The next search finds every row in place: it writes none (nor starts a build)."""
    def refused(*args, **kwargs):
        raise AssertionError("the search wrote the index's rows")

    monkeypatch.setattr(SearchIndex, "_write", refused)
    monkeypatch.setattr(first_build.Builder, "run", refused)
    result = run.json("search", "the")
    assert result["index_building"] is None


@pytest.mark.parametrize("argv", [("migrate", str(FIXTURES / "cortexgraph-v1")),
                                  ("import", "--from", "mcp-memory", str(MCP))])
def test_a_verb_that_fills_a_vault_leaves_its_search_index_complete(run, vdir, tmp_path,
                                                                     monkeypatch, argv):
    verb, *rest, folder = argv
    source = tmp_path / "source"
    if verb == "migrate":
        shutil.copytree(folder, source)
    else:
        source.mkdir()
        source = source / "memory.jsonl"
        shutil.copyfile(folder, source)
    run.ok(verb, *rest, str(source))
    assert len(_complete(vdir)) >= 5
    _search_writes_nothing(run, monkeypatch)


def test_init_on_a_cloned_vault_builds_its_index(run, vdir, monkeypatch):
    with Vault.open(vdir) as vault:
        for i in range(6):
            vault.add(f"note {i} about the garden")
    path = index_path(vdir)
    assert path is not None
    path.unlink()  # (a clone's state: no index)
    run.ok("init")
    assert len(_complete(vdir)) == 6
    _search_writes_nothing(run, monkeypatch)


def test_init_after_a_clone_leaves_no_near_duplicate_key_pending(run, vdir, monkeypatch):
    """A first build leaves the keys pending (a search needs none); a verb that leaves the
    index complete makes them, so the next check of a duplicate makes none."""
    from core.search.near_dupes import NearDuplicateRows

    with Vault.open(vdir) as vault:
        for i in range(6):
            vault.add(f"note {i} about the garden and its {i} roses")
    path = index_path(vdir)
    assert path is not None
    path.unlink()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)  # (6 memories: a first build)
    monkeypatch.setattr(first_build, "CHUNK", 2)
    run.ok("init")
    assert len(_complete(vdir)) == 6
    with SearchIndex.for_root(vdir) as index:
        rows = NearDuplicateRows(index.conn)
        assert rows.current() and not rows.pending()
        assert index.conn.execute("SELECT count(*) FROM dupe_docs").fetchone()[0] == 6


def test_a_dry_run_builds_no_index(run, vdir):
    run.ok("import", "--from", "mcp-memory", str(MCP), "--dry-run")
    assert not vdir.exists()
