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
    assert code == 1 and report["memories"] == [bad]
    assert {(f["record_id"], f["kind"], f["field"], f["start"]) for f in report["findings"]
            if f["record_kind"] == "memory"} == {(bad, "aws-key", "content", 5)}
    code, out, _ = run("scan")
    assert code == 1 and f"memory {bad[:8]}" in out and "aws-key" in out and "content at offset 5" in out
    head = run_git(vdir, "rev-parse", "HEAD")
    code, out, _ = run("purge", bad[:6], "--dry-run")
    assert code == 0 and "dry run" in out and run_git(vdir, "rev-parse", "HEAD") == head
    code, _, err = run("purge", bad[:6])  # stdin is not a terminal: refused
    assert code == 1 and "--yes" in err and run_git(vdir, "rev-parse", "HEAD") == head
    code, out, _ = run("purge", bad[:6], "--yes", "--json")
    assert code == 0 and json.loads(out)["memories"] == [bad]
    assert AWS not in run_git(vdir, "log", "--all", "-p")
    code, out, _ = run("scan", "--json")
    assert code == 0 and json.loads(out)["findings"] == []


def test_scan_exits_1_when_it_finds_a_secret_and_0_when_history_is_clean(run):
    run("add", "a keeper")
    assert run("scan")[0] == 0 and run("scan", "--json")[0] == 0
    run("add", "--allow-secret", f"oops {AWS}")
    code, out, err = run("scan")
    assert code == 1 and "aws-key" in out and "finding" in err
    code, out, _ = run("scan", "--json")
    assert code == 1 and json.loads(out)["findings"]


def test_purge_dry_run_never_shows_the_secret(run, vdir):
    bad = run("add", "--allow-secret", f"the prod key {AWS} and {GITHUB}")[1].strip()
    for argv in (("purge", bad[:6], "--dry-run"), ("purge", bad[:6])):  # the preview, the ask
        code, out, err = run(*argv)
        assert AWS not in out + err and GITHUB not in out + err and "prod key" not in out + err
        assert f"memory   {bad[:8]}" in out + err
        assert "aws-key" in out + err and "github-token" in out + err
    assert run_git(vdir, "log", "--all", "--format=%H").count("\n") == 1  # nothing changed


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


def test_allow_secret_keeps_the_secret_out_of_the_commit_subject(run, vdir):
    code, out, _ = run("add", "--allow-secret", f"deploy with {AWS} please")
    mid = out.strip()
    assert code == 0 and AWS in (vdir / "memories" / f"{mid}.json").read_text()
    subject = run_git(vdir, "log", "-1", "--format=%s")
    assert subject == f"add: {mid[:8]} deploy with [REDACTED:aws-key] please"
    assert AWS not in run_git(vdir, "log", "--format=%B")
