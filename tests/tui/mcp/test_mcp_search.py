"""The MCP server's searches (tui/mcp/search.py): one searcher for the views each tool call gets
of the vault, its index kept open and level between calls."""

from __future__ import annotations

from core import Vault
from tui.mcp.search import Finder


def test_the_views_of_one_vault_share_one_searcher(vault):
    vault.add("Deploys happen on Tuesdays.", tags=["ops"])
    finder = Finder()
    try:
        first = vault.acting_for(via="mcp/a", tool="search_memory")
        second = vault.acting_for(via="mcp/b", tool="save_memory")
        index = finder.index(first)
        assert [m.content for m in finder.find(first, "deploys")] == ["Deploys happen on Tuesdays."]
        second.add("Deploys are frozen in December.", tags=["ops"])
        assert finder.index(second) is index  # not opened again for another call's view
        assert len(finder.find(second, "deploys")) == 2  # and level with the new memory
        assert finder.index(vault) is index
    finally:
        finder.close()


def test_another_vault_gets_its_own_searcher(vault):
    vault.add("Deploys happen on Tuesdays.")
    finder = Finder()
    try:
        index = finder.index(vault)
        with Vault.open(vault.root, readonly=True) as again:  # a read-only server opens again
            assert finder.index(again) is not index
            assert [m.content for m in finder.find(again, "deploys")] == [
                "Deploys happen on Tuesdays."]
    finally:
        finder.close()


def test_a_damaged_index_is_built_again_at_the_first_search(vault):
    import sqlite3

    from core.search.index import index_path

    vault.add("Deploys happen on Tuesdays.", tags=["ops"])
    for i in range(20):
        vault.add(f"note {i} about the garden")
    finder = Finder()
    try:
        assert len(finder.find(vault, "deploys")) == 1
        conn = sqlite3.connect(index_path(vault.root))  # FTS5 segments cut short
        conn.execute("UPDATE fts_data SET block = substr(block, 1, 3) WHERE id > 10")
        conn.commit()
        conn.close()
        finder.close()  # (as a server started again would find it)
        assert [m.content for m in finder.find(vault, "deploys")] == ["Deploys happen on Tuesdays."]
        assert [h.memory.content for h in finder.hits(vault, "deploys", ["active"], 5)] == [
            "Deploys happen on Tuesdays."]
        assert len([n for n in vault.notices if "built again" in n]) == 1
    finally:
        finder.close()


def test_a_query_of_fields_alone_applies_them(vault):
    """``tag:ops`` (the query language the tool's description promises) was looked for as the
    substring "tag:ops" in the memories' text, and found nothing; punctuation alone, likewise."""
    vault.add("Deploys happen on Tuesdays.", tags=["ops"])
    vault.add("The balcony plants need water.", tags=["home"])
    finder = Finder()
    try:
        assert [m.content for m in finder.find(vault, "tag:ops", statuses=["active"])] == [
            "Deploys happen on Tuesdays."]
        assert [m.content for m in finder.find(vault, "-tag:ops", statuses=["active"])] == [
            "The balcony plants need water."]
        assert len(finder.find(vault, "?! ...", statuses=["active"])) == 2
    finally:
        finder.close()
