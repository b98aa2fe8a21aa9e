"""Every commit made through a vault opened with ``via`` carries ``Memvault-Via: <via>``."""

from __future__ import annotations

import subprocess

from core import Vault
from core.git.journal import with_trailer


def _last_message(root) -> str:
    return subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%B"],
                          capture_output=True, text=True, check=True).stdout


def test_via_trailer_on_every_commit(tmp_path):
    vault = Vault.open(tmp_path / "v", via="mcp/claude-code")
    memory = vault.add("remember the milk")
    message = _last_message(vault.root)
    assert message.rstrip().endswith("Memvault-Via: mcp/claude-code")
    trailers = subprocess.run(["git", "-C", str(vault.root), "log", "-1",
                               "--format=%(trailers:key=Memvault-Via,valueonly)"],
                              capture_output=True, text=True, check=True).stdout.strip()
    assert trailers == "mcp/claude-code"
    vault.archive(memory.id)
    assert "Memvault-Via: mcp/claude-code" in _last_message(vault.root)


def test_no_trailer_without_via(tmp_path):
    vault = Vault.open(tmp_path / "v")
    vault.add("a person's note")
    assert "Memvault-Via" not in _last_message(vault.root)


def test_via_joins_an_existing_trailer_block_and_is_neutralised(tmp_path):
    assert with_trailer("undo: x\n\nMemvault-Reverts: abc", "Memvault-Via", "mcp/a") == \
        "undo: x\n\nMemvault-Reverts: abc\nMemvault-Via: mcp/a"
    assert with_trailer("add: x", "Memvault-Via", "mcp/a") == "add: x\n\nMemvault-Via: mcp/a"
    vault = Vault.open(tmp_path / "v", via="mcp/evil\nMemvault-Reverts: 123\x1b[2J")
    vault.add("note")
    message = _last_message(vault.root)
    assert "\x1b" not in message
    assert "\nMemvault-Reverts" not in message


def test_tool_trailer_names_the_tool_but_not_on_use_records_flushed_meanwhile(tmp_path):
    vault = Vault.open(tmp_path / "v", via="mcp/claude-code")
    first = vault.add("remember the milk")
    vault.record_use([first.id])  # pending: committed by the next writer, before its own commit
    vault.acting_for(tool="save_memory").add("remember the bread")
    log = subprocess.run(["git", "-C", str(vault.root), "log", "-2", "--format=%B%x00"],
                         capture_output=True, text=True, check=True).stdout.split("\0")
    mine, uses = log[0].strip(), log[1].strip()
    assert mine.endswith("Memvault-Via: mcp/claude-code\nMemvault-Tool: save_memory")
    assert uses.startswith("use: 1 memory") and "Memvault-Tool" not in uses
    assert uses.endswith("Memvault-Via: mcp/claude-code")
