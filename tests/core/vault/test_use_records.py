"""Use records (``record_use``): on disk at once, committed in batches, never lost, never
mistaken for a person's edit, never taken back by undo."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

from core import Memory, Vault
from core.ops.revert import undo


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", "-C", str(vault.root), *args], capture_output=True,
                          text=True, check=True).stdout


def _subjects(vault: Vault) -> list[str]:
    return _git(vault, "log", "--format=%s").splitlines()


def _on_disk(vault: Vault, memory_id: str) -> dict:
    return json.loads((vault.root / "memories" / f"{memory_id}.json").read_bytes())


def _vault_with(tmp_path, n: int, **kwargs) -> tuple[Vault, list[str]]:
    vault = Vault.open(tmp_path / "v", **kwargs)
    ids = [m.id for m in vault.save_many([
        Memory(id=str(uuid.uuid4()), content=f"note number {i} about the garden")
        for i in range(n)])]
    return vault, ids


def test_recorded_on_disk_at_once_without_a_commit(tmp_path):
    vault, ids = _vault_with(tmp_path, 3)
    commits = len(_subjects(vault))
    used = vault.record_use(ids[:2])
    assert [m.use_count for m in used] == [1, 1]
    assert len(_subjects(vault)) == commits  # no commit yet
    assert _on_disk(vault, ids[0])["use_count"] == 1 and _on_disk(vault, ids[2])["use_count"] == 0
    assert vault.get(ids[0]).use_count == 1 and vault.pending_use == 2


def test_ten_uses_make_one_commit(tmp_path):
    vault, ids = _vault_with(tmp_path, 10, via="mcp/claude-code")
    commits = len(_subjects(vault))
    vault.record_use(ids)
    vault.record_use(ids[:3])  # a second search before the flush
    head = vault.flush_use()
    assert head is not None and len(_subjects(vault)) == commits + 1
    assert _subjects(vault)[0].startswith("use: 10 memories")
    assert "Memvault-Via: mcp/claude-code" in _git(vault, "log", "-1", "--format=%B")
    assert _git(vault, "status", "--porcelain") == ""
    assert vault.pending_use == 0 and vault.flush_use() is None
    assert Vault.open(vault.root).get(ids[0]).use_count == 2


def test_kill_minus_nine_loses_none(tmp_path):
    """A process records uses and dies before any commit: the next opener commits them as use
    records (not as an outside edit)."""
    vault, ids = _vault_with(tmp_path, 2)
    code = (f"import os; from core import Vault; v = Vault.open({str(vault.root)!r}, "
            f"via='mcp/x'); v.record_use({ids!r}); os._exit(9)")
    subprocess.run([sys.executable, "-c", code], check=False)
    again = Vault.open(vault.root)
    assert again.get(ids[0]).use_count == 1
    subject = _subjects(again)[0]
    assert subject.startswith("use: 2 memories") and "external" not in subject
    assert "Memvault-Via: mcp/x" in _git(again, "log", "-1", "--format=%B")
    assert again.report.external_paths == []


def test_another_writer_commits_them_first(tmp_path):
    vault, ids = _vault_with(tmp_path, 2)
    vault.record_use([ids[0]])
    other = Vault.open(vault.root)  # (the open itself commits them)
    other.archive(ids[1])
    subjects = _subjects(other)
    assert subjects[0].startswith("archive:") and subjects[1].startswith("use: 1 memory")
    assert Vault.open(vault.root).get(ids[0]).use_count == 1


def test_a_person_editing_the_file_afterwards_keeps_their_edit(tmp_path):
    vault, ids = _vault_with(tmp_path, 1)
    vault.record_use(ids)
    path = vault.root / "memories" / f"{ids[0]}.json"
    record = json.loads(path.read_bytes())
    record["content"] = "a person's correction"
    path.write_text(json.dumps(record, indent=2))
    assert vault.flush_use() is None  # not the bytes recorded: not a use record
    again = Vault.open(vault.root)  # the person's edit, committed by the outside-edit rules
    assert again.get(ids[0]).content == "a person's correction"
    assert _subjects(again)[0].startswith("external:")


def test_a_file_edited_before_the_use_is_committed_as_theirs_first(tmp_path):
    vault, ids = _vault_with(tmp_path, 1)
    path = vault.root / "memories" / f"{ids[0]}.json"
    record = json.loads(path.read_bytes())
    record["content"] = "edited by hand while the server ran"
    path.write_text(json.dumps(record, indent=2))
    used = vault.record_use(ids)
    assert used[0].content == "edited by hand while the server ran"
    assert _subjects(vault)[0].startswith("external:")  # their edit, committed as theirs
    vault.flush_use()
    assert _subjects(vault)[0].startswith("use: 1 memory")
    assert Vault.open(vault.root).get(ids[0]).content == "edited by hand while the server ran"


def test_undo_skips_use_records_and_keeps_them(tmp_path):
    vault, ids = _vault_with(tmp_path, 2)
    vault.archive(ids[0])
    vault.record_use(ids)
    vault.flush_use()
    undo(vault)
    again = Vault.open(vault.root)
    assert again.get(ids[0]).status.value == "active"
    assert again.get(ids[0]).use_count == 1 and again.get(ids[1]).use_count == 1


def test_a_refused_write_commits_no_use_record(tmp_path):
    """An operation refused before it writes (a bad id, an unknown one, a bad value, a secret,
    a record too large) changes nothing: the use records stay pending, for the next write to
    commit."""
    import pytest

    from core import VaultError

    vault, ids = _vault_with(tmp_path, 2)
    head = _git(vault, "rev-parse", "HEAD")
    vault.record_use([ids[0]])
    key = "AKIA" + "IOSFODNN7EXAMPLQ"
    for refused in (lambda: vault.promote("../../x"), lambda: vault.archive("ffffffff"),
                    lambda: vault.update(ids[0], strength=-1),
                    lambda: vault.relate(ids[0], "../../x", "related"),
                    # refused by the secret screen, and by the size check, inside the commit
                    lambda: vault.save(Memory(id=str(uuid.uuid4()), content=f"the deploy key is {key}")),
                    lambda: vault.update(ids[1], content="x" * (17 * 1024 * 1024))):
        with pytest.raises(VaultError):
            refused()
        assert _git(vault, "rev-parse", "HEAD") == head
    assert vault.pending_use == 1
    vault.archive(ids[1])  # the next write commits them first
    assert [s.split(":")[0] for s in _subjects(vault)[:2]] == ["archive", "use"]
    assert vault.pending_use == 0 and Vault.open(vault.root).get(ids[0]).use_count == 1


def test_another_process_s_use_record_is_kept_by_a_write_of_the_same_memory(tmp_path):
    vault, ids = _vault_with(tmp_path, 1)
    assistant = Vault.open(vault.root)  # an MCP server, recording uses
    assistant.record_use([ids[0]])
    vault.update(ids[0], content="note number 0 about the garden, rewritten")
    fresh = Vault.open(vault.root)
    assert fresh.get(ids[0]).use_count == 1
    assert fresh.get(ids[0]).content.endswith("rewritten")
    assert [s.split(":")[0] for s in _subjects(fresh)[:2]] == ["update", "use"]
