"""The vault opened while the server starts (tui/mcp/early.py): taken by the server's access at
its first use, caught up with what other processes committed meanwhile; no vault, or one that
does not open, is left to the access, which reports it as before."""

from __future__ import annotations

import pytest

from core import Vault
from tui.mcp.access import ToolRefusal, VaultAccess
from tui.mcp.early import EarlyOpen


def test_no_vault_yet_is_left_to_the_server(tmp_path):
    early = EarlyOpen(tmp_path / "vault")
    assert early.take() is None
    assert not (tmp_path / "vault").exists()  # made at the server's first write, as before


def test_the_vault_and_its_warmed_search_are_taken_once(tmp_path):
    with Vault.open(tmp_path / "vault") as v:
        kite = v.add("Kites need wind.").id
    early = EarlyOpen(tmp_path / "vault")
    taken = early.take()
    assert taken is not None
    vault, finder = taken
    assert finder is not None
    try:
        assert [m.id for m in finder.find(vault, "kites", limit=5)] == [kite]
        assert early.take() is None  # once
    finally:
        finder.close()
        vault.close()


def test_a_first_build_of_the_search_index_is_left_to_the_server(tmp_path, monkeypatch):
    """After a clone (no search rows) the early open does not build the index: the server's
    warm-up does, outside its lock, as without an early open."""
    from core.search import first_build

    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 1)
    with Vault.open(tmp_path / "vault") as v:
        kite = v.add("Kites need wind.").id
    (tmp_path / "vault" / ".git" / "memvault" / "index.sqlite").unlink()
    early = EarlyOpen(tmp_path / "vault")
    early.wait()
    access = VaultAccess(tmp_path / "vault", early=early)
    try:
        access.warm_up()
        assert access.read(lambda vault: access.finder.index(vault).row_count()) == 1
        found = access.read(lambda vault: [m.id for m in access.finder.find(vault, "kites")])
        assert found == [kite]
    finally:
        access.close()


@pytest.mark.parametrize("read_only", [False, True])
def test_commits_made_after_the_early_open_are_seen_by_the_first_tool(tmp_path, read_only):
    with Vault.open(tmp_path / "vault") as v:
        v.add("Kites need wind.")
    early = EarlyOpen(tmp_path / "vault", read_only=read_only)
    early.wait()
    with Vault.open(tmp_path / "vault") as other:  # another process, after the early open
        glider = other.add("Gliders need thermals.").id
    access = VaultAccess(tmp_path / "vault", read_only=read_only, early=early)
    try:
        assert access.read(lambda vault: glider in vault.memories)
        found = access.read(lambda vault: [m.id for m in access.finder.find(vault, "gliders")])
        assert found == [glider]
    finally:
        access.close()


def test_a_vault_that_does_not_open_is_reported_by_the_first_tool(tmp_path):
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / ".git").write_text("gitdir: /nowhere/at/all\n")
    early = EarlyOpen(tmp_path / "vault")
    access = VaultAccess(tmp_path / "vault", early=early)
    with pytest.raises(ToolRefusal):
        access.read(lambda vault: len(vault.memories))
    access.close()


def test_writes_after_the_handshake_carry_the_clients_name(tmp_path):
    with Vault.open(tmp_path / "vault") as v:
        v.add("Kites need wind.")
    access = VaultAccess(tmp_path / "vault", early=EarlyOpen(tmp_path / "vault"))
    try:
        access.set_client("Claude Code")
        access.write("save_memory", lambda vault: vault.add("Gliders need thermals."))
        head = access.read(lambda vault: vault.journal.head())
    finally:
        access.close()
    with Vault.open(tmp_path / "vault") as v:
        entry = v.journal.log(v.root / "memories")[0]
    assert entry.commit == head
    assert "Memvault-Via: mcp/Claude Code" in entry.message
