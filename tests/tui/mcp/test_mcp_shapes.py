"""The shapes of MCP answers (tui.mcp.shapes): a huge memory does not fill ``read_graph``'s
answer, whose other memories keep their content whole."""

from __future__ import annotations

from core import Memory, Vault
from core.model.records import now_epoch
from tui.mcp import shapes


def test_read_graph_cuts_a_huge_memorys_content_and_says_its_length(tmp_path):
    vault = Vault.open(tmp_path / "vault")
    now = now_epoch()
    huge = Memory(id="h" * 8, content="coffee grounds " * 200_000, created_at=now, last_used=now)
    small = Memory(id="s" * 8, content="tea", created_at=now, last_used=now)
    shown = shapes.graph_memory(vault, huge, now, include_scores=False)
    assert len(shown["content"]) <= shapes.GRAPH_CONTENT + 3
    assert shown["content"].endswith("...") and shown["content_chars"] == 3_000_000
    whole = shapes.graph_memory(vault, small, now, include_scores=False)
    assert whole["content"] == "tea" and "content_chars" not in whole
