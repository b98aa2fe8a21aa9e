"""``Vault.acting_for``: who writes is an argument of each caller's commits, never state set on
the shared vault, so callers in several threads each get their own trailers."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from core import Vault
from core.vault.writing import Trailers


def _commits(root: Path) -> list[str]:
    out = subprocess.run(["git", "-C", str(root), "log", "--format=%B%x00"],
                         capture_output=True, text=True, check=True).stdout
    return [c.strip() for c in out.split("\0") if c.strip()]


def test_two_concurrent_callers_with_different_tools_each_get_their_own_trailer(tmp_path):
    vault = Vault.open(tmp_path / "v", via="mcp/claude-code")
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def caller(tool: str) -> None:
        acting = vault.acting_for(tool=tool)
        try:
            start.wait(timeout=30)
            for i in range(6):
                acting.add(f"written by {tool} #{i}")
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            failures.append(exc)

    threads = [threading.Thread(target=caller, args=(t,)) for t in ("save_memory", "recall")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures
    adds = [c for c in _commits(vault.root) if "written by" in c]
    assert len(adds) == 12
    for message in adds:
        tool = "save_memory" if "written by save_memory" in message else "recall"
        assert message.endswith(f"Memvault-Via: mcp/claude-code\nMemvault-Tool: {tool}")
    assert vault.via == "mcp/claude-code" and vault.tool is None  # the vault itself unchanged
    assert len(vault.memories) == 12  # one cache: each view's writes are the vault's


def test_a_view_keeps_what_it_does_not_name_and_the_vault_commits_as_before(tmp_path):
    vault = Vault.open(tmp_path / "v", via="mcp/a", secrets="allow")
    view = vault.acting_for(tool="save_memory")
    assert (view.via, view.tool, view.secret_policy) == ("mcp/a", "save_memory", "allow")
    other = view.acting_for(via="mcp/b")
    assert (other.via, other.tool) == ("mcp/b", "save_memory")
    vault.add("plain")
    assert _commits(vault.root)[0].endswith("Memvault-Via: mcp/a")
    assert "Memvault-Tool" not in _commits(vault.root)[0]


def test_trailers_and_the_vaults_writer_cannot_be_changed_in_place(tmp_path):
    trailers = Trailers("mcp/a", "save_memory")
    with pytest.raises(AttributeError):
        trailers.tool = "other"  # type: ignore[misc]
    vault = Vault.open(tmp_path / "v")
    with pytest.raises(AttributeError):
        vault.tool = "save_memory"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        vault.secret_policy = "allow"  # type: ignore[misc]
