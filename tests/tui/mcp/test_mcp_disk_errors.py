"""A tool that fails on the way (a full disk, any OSError, the search index's "disk is full")
says what failed, as the command line does, as a tool error (isError), and nothing is written;
before, the answer was only "Error executing tool <name>" with a traceback on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_support import McpServer, head, server_env, status

from core import Vault

LIMIT = 1_500_000  # bytes a file the server writes may reach


def test_a_write_that_fills_the_disk_says_so_and_writes_nothing(tmp_path: Path):
    env = server_env(tmp_path / "home")
    vault = tmp_path / "vault"
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(vault) as v:
            v.add("A memory from before the disk filled up.")
    with McpServer(vault, env, file_size_limit=LIMIT) as server:
        before = head(vault)
        big = " ".join(f"w{i}" for i in range(400_000))  # a file past the limit
        answer = server.call("save_memory", content=big)
        assert answer.error is True
        assert "File too large" in answer.text and "nothing was" in answer.text, answer.text
        assert head(vault) == before and status(vault) == ""

        fits = " ".join(f"w{i}" for i in range(120_000))  # its file fits, its index rows do not
        saved = server.call("save_memory", content=fits)
        assert saved.error is False, saved.text
        after_save = head(vault)
        found = server.call("search_memory", query="w5")
        assert found.error is True
        assert found.text.endswith("nothing was written"), found.text
        assert "search index" in found.text and "Error executing tool search_memory:" in found.text
        assert head(vault) == after_save and status(vault) == ""
        assert server.call("read_graph", limit=1).error is False  # and it serves on
    assert "Traceback" not in server.errlog.read_text()
