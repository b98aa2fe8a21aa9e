"""``scan_history``: secrets planted in content, tags, meta, an import file (a migration's
committed backup) and old versions are all found, with the memory, the commit and the place;
each distinct version is read once."""

from __future__ import annotations


from migrate_support import memory_line, write_store
from secrets_support import AWS, GITHUB, JWT, PASSWORD, SLACK, run_git

from core import MemoryMetadata, Vault
from core.io.migrate import migrate_jsonl
from core.secrets.history import scan_history


def test_planted_secrets_are_found_in_every_version(vault_path, tmp_path):
    vault = Vault.open(vault_path, secrets="allow")
    clean = vault.add("nothing to see here")
    old = vault.add(f"first version with {AWS}")
    vault.update(old.id, content="cleaned up since")  # the secret lives on in history
    tagged = vault.add("tagged one", tags=["fine", GITHUB])
    meta = vault.add("meta one", source=f"from {SLACK}")
    vault.update(meta.id, meta=MemoryMetadata(extra={"password": PASSWORD}))
    store = write_store(tmp_path / "cg", [memory_line("m1", f"imported {JWT} here")])
    migrate_jsonl(vault, store)
    report = scan_history(vault)
    found = {(f.record_kind, f.record_id, f.kind, f.field) for f in report.findings}
    assert ("memory", old.id, "aws-key", "content") in found
    assert ("memory", tagged.id, "github-token", "meta.tags[1]") in found
    assert ("memory", meta.id, "slack-token", "meta.source") in found
    assert ("memory", meta.id, "password-assignment", "meta.extra.password") in found
    assert any(f.kind == "jwt" and f.record_kind == "memory" for f in report.findings)
    backups = [f for f in report.findings if f.record_kind == "file"]
    assert backups and backups[0].path.startswith(".backup/") and backups[0].kind == "jwt"
    assert clean.id not in {f.record_id for f in report.findings}
    # the commit is the one that wrote that version
    first = next(f for f in report.findings if f.record_id == old.id and f.field == "content")
    assert run_git(vault_path, "show", "-s", "--format=%s", first.commit).startswith("add:")
    assert first.start == len("first version with ")
    assert set(report.memory_ids) >= {old.id, tagged.id, meta.id}
    # every blob once: no more versions read than blobs history has
    blobs = run_git(vault_path, "rev-list", "--all", "--objects").count("\n") + 1
    assert report.blobs < blobs


def test_a_commit_message_holding_a_secret_is_reported(vault_path):
    vault = Vault.open(vault_path, secrets="allow")
    vault.add(f"{AWS} is the key")  # memvault's subject quotes it redacted: a message by hand
    run_git(vault_path, "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-q",
            "--allow-empty", "-m", f"by hand: {AWS}")
    report = scan_history(vault)
    assert {f.record_kind for f in report.findings} == {"memory", "message"}


def test_remote_tracking_refs_are_scanned_too(vault_path, tmp_path):
    vault = Vault.open(vault_path, secrets="allow")
    vault.add("base memory")
    side = run_git(vault_path, "rev-parse", "HEAD")
    m = vault.add(f"on a side ref {GITHUB}")
    run_git(vault_path, "update-ref", "refs/remotes/origin/main", "HEAD")
    run_git(vault_path, "reset", "-q", "--hard", side)
    fresh = Vault.open(vault_path)
    assert m.id not in fresh.memories
    assert m.id in scan_history(fresh).memory_ids
