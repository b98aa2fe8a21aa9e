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
