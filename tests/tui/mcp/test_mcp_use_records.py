"""Reads record use without flooding history (item 3): ``search_memory``,
``open_memories`` and ``recall`` write ``last_used``/``use_count`` to the files before they answer
and the server commits them as one commit at most once per ``MEMVAULT_MCP_USE_INTERVAL``, and
when the connection closes."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
from mcp_support import CLIENT_NAME, McpServer, commits_since, head, server_env

from core import Memory, Vault

VIA = f"Memvault-Via: mcp/{CLIENT_NAME}"


def _uses(vault, ids) -> list[int]:
    return [json.loads((vault / "memories" / f"{i}.json").read_text())["use_count"] for i in ids]


def _vault_with(tmp_path, env, n: int) -> list[str]:
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(tmp_path / "vault") as v:
            kites = [Memory(id=f"kite-{i:04d}", content=f"Kite note {i}: fly it on windy days.")
                     for i in range(n)]
            return [m.id for m in v.save_many(kites)]


def test_reads_record_use_at_once_and_commit_it_once_at_shutdown(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600")
    ids = _vault_with(tmp_path, env, 12)
    vault = tmp_path / "vault"
    before = head(vault)
    with McpServer(vault, env) as server:
        found = server.call("search_memory", query="kite", top_k=10).data["results"]
        assert len(found) == 10 and all(r["use_count"] == 1 for r in found)
        searched = [r["id"] for r in found]
        assert _uses(vault, searched) == [1] * 10  # on disk before the answer
        server.call("open_memories", memory_ids=searched[:2])
        server.call("recall", query="kite windy", token_budget=40)
        assert commits_since(vault, before) == []  # nothing committed yet
    messages = commits_since(vault, before)
    assert len(messages) == 1 and messages[0].startswith("use: ")
    assert messages[0].splitlines()[-1] == VIA
    assert _uses(vault, searched[:2]) >= [2, 2]
    assert sum(_uses(vault, ids)) >= 12


def test_a_search_of_ten_makes_at_most_one_commit_per_interval(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="0.5")
    _vault_with(tmp_path, env, 10)
    vault = tmp_path / "vault"
    before = head(vault)
    with McpServer(vault, env) as server:
        assert server.call("search_memory", query="kite").data["count"] == 10
        deadline = time.monotonic() + 30
        while not commits_since(vault, before) and time.monotonic() < deadline:
            time.sleep(0.1)
        messages = commits_since(vault, before)
        assert len(messages) == 1 and messages[0].startswith("use: 10 memories")
    assert len(commits_since(vault, before)) == 1  # nothing was left for the shutdown


def _server_pid(vault) -> int | None:
    """The pid of the ``memvault mcp`` serving ``vault`` (Linux: read from /proc)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"mcp" in argv and str(vault).encode() in argv:
            return int(proc.name)
    return None


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc (Linux)")
def test_kill_9_after_a_search_loses_no_use_record(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600")
    _vault_with(tmp_path, env, 5)
    vault = tmp_path / "vault"
    before = head(vault)
    server = McpServer(vault, env).__enter__()
    try:
        searched = [r["id"] for r in server.call("search_memory", query="kite").data["results"]]
        pid = _server_pid(vault)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
    finally:
        server.close()
    assert _uses(vault, searched) == [1] * 5 and commits_since(vault, before) == []
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        Vault.open(vault).close()  # the next process to open the vault commits them
    messages = commits_since(vault, before)
    assert len(messages) == 1 and messages[0].startswith("use: 5 memories")
    assert messages[0].splitlines()[-1] == VIA
