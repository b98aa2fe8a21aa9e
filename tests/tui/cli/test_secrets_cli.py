"""`memvault add` refusing a secret, `--allow-secret`, `secrets-policy`, `scan [--json]` and
`purge [--dry-run] [--yes]` through ``tui.cli.main``."""

from __future__ import annotations

import json

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)

from secrets_support import AWS, GITHUB, run_git


def test_add_refuses_a_secret_and_allow_secret_overrides(run, vdir):
    assert run("add", "a plain memory")[0] == 0
    head = run_git(vdir, "rev-parse", "HEAD")
    code, out, err = run("add", f"deploy with {AWS} please")
    assert code == 1 and out == ""
    assert "aws-key in content at offset 12" in err and "nothing was written" in err
    assert AWS not in err and run_git(vdir, "rev-parse", "HEAD") == head
    code, out, _ = run("add", "--allow-secret", f"deploy with {AWS} please")
    assert code == 0 and run_git(vdir, "rev-parse", "HEAD") != head


def test_secrets_policy_redact_is_kept_in_the_vault(run, vdir):
    run("add", "a plain memory")
    assert run("secrets-policy")[1].strip() == "refuse"
    assert run("secrets-policy", "redact")[1].strip() == "redact"
    code, out, err = run("add", "--json", f"token {GITHUB} here")
    assert code == 0 and json.loads(out)["content"] == "token [REDACTED:github-token] here"
    assert "redacted before writing" in err
    assert json.loads((vdir / ".meta.json").read_text())["secrets"] == "redact"


def test_scan_and_purge(run, vdir, monkeypatch):
    run("add", "a keeper")
    bad = run("add", "--allow-secret", f"oops {AWS}")[1].strip()
    code, out, _ = run("scan", "--json")
    report = json.loads(out)
    assert code == 0 and report["memories"] == [bad]
    assert {(f["record_id"], f["kind"], f["field"], f["start"]) for f in report["findings"]
            if f["record_kind"] == "memory"} == {(bad, "aws-key", "content", 5)}
    code, out, _ = run("scan")
    assert f"memory {bad[:8]}" in out and "aws-key" in out and "content at offset 5" in out
    head = run_git(vdir, "rev-parse", "HEAD")
    code, out, _ = run("purge", bad[:6], "--dry-run")
    assert code == 0 and "dry run" in out and run_git(vdir, "rev-parse", "HEAD") == head
    code, _, err = run("purge", bad[:6])  # stdin is not a terminal: refused
    assert code == 1 and "--yes" in err and run_git(vdir, "rev-parse", "HEAD") == head
    code, out, _ = run("purge", bad[:6], "--yes", "--json")
    assert code == 0 and json.loads(out)["memories"] == [bad]
    assert AWS not in run_git(vdir, "log", "--all", "-p")
    assert json.loads(run("scan", "--json")[1])["findings"] == []


def test_migrate_refuses_an_import_file_with_a_secret_unless_allowed(run, vdir, tmp_path):
    from migrate_support import memory_line, write_store

    run("add", "a plain memory")
    head = run_git(vdir, "rev-parse", "HEAD")
    source = write_store(tmp_path / "cg", [memory_line("m1", f"imported key {AWS}")])
    code, _, err = run("migrate", "--from", "jsonl", str(source))
    assert code == 1 and "aws-key in content" in err and AWS not in err
    assert run_git(vdir, "rev-parse", "HEAD") == head
    code, _, _ = run("--allow-secret", "migrate", "--from", "jsonl", str(source))  # before the verb
    assert code == 0 and AWS in run_git(vdir, "log", "-p", "-1")
