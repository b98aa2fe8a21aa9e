"""`memvault import --from mcp-memory|basic-memory|mem0` and `export --to mcp-memory|
basic-memory` (tui.cli.interchange), run in-process through cli.main."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)
from vault_support import FIXTURES

MCP = FIXTURES / "mcp-memory" / "memory.jsonl"
NOTES = FIXTURES / "basic-memory" / "notes"
MEM0 = FIXTURES / "mem0" / "get_all.json"


def commits(vdir: Path) -> int:
    out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=vdir, capture_output=True,
                         text=True)
    return int(out.stdout.strip())


def test_import_prints_a_summary_commits_once_and_a_rerun_changes_nothing(run, vdir):
    out = run.ok("import", "--from", "mcp-memory", str(MCP))
    assert "imported 5 memories and 5 relations from" in out and "(mcp-memory) in one commit" in out
    assert "memories:  5 new, 0 updated, 0 unchanged" in out
    assert "5 memories without a time in the source: given the import time" in out
    assert "source files backed up, committed, in .backup/mcp-memory-" in out
    assert commits(vdir) == 2  # init, import
    again = run.ok("import", "--from", "mcp-memory", str(MCP))
    assert again.startswith("already imported:") and commits(vdir) == 2
    assert "(--force imports it again)" in again  # not 'importes'
    assert "Ada_Lovelace" in run.ok("search", "tea")


def test_import_dry_run_creates_no_vault_and_json_reports(run, vdir):
    out = run.ok("import", "--from", "basic-memory", str(NOTES), "--dry-run")
    assert out.startswith("dry run:") and "nothing was written" in out
    assert "1 relation to something the source and the vault lack, kept dangling:" in out
    assert "inspired_by [[Tea Ceremony]]" in out
    assert not vdir.exists()
    report = run.json("import", "--from", "mem0", str(MEM0))
    assert report["format"] == "mem0" and report["commit"] and len(report["new_memories"]) == 3
    assert report["bad_records"] == [] and report["refused"] is False


def test_a_bad_line_refuses_with_its_number_unless_skip_bad(run, vdir, tmp_path):
    source = tmp_path / "memory.jsonl"
    lines = MCP.read_text("utf-8").split("\n")
    source.write_text("\n".join(lines[:2] + ['{"type":"entity","name":"Cut'] + lines[2:]),
                      encoding="utf-8")
    run.ok("init")
    err = run.fails("import", "--from", "mcp-memory", str(source))
    assert "memory.jsonl:3: cut short, not JSON" in err and "nothing was imported" in err
    assert "--skip-bad" in err and commits(vdir) == 1
    code, out, _ = run("import", "--from", "mcp-memory", str(source), "--json")
    assert code == 1 and json.loads(out)["bad_records"][0]["line"] == 3
    code, out, _ = run("import", "--from", "mcp-memory", str(source), "--dry-run")
    assert code == 1 and "the import would refuse" in out and "memory.jsonl:3:" in out
    out = run.ok("import", "--from", "mcp-memory", str(source), "--skip-bad")
    assert "skipped 1 bad record" in out and "5 new" in out and commits(vdir) == 2


def test_a_secret_is_refused_and_named(run, vdir, tmp_path):
    source = tmp_path / "memory.jsonl"
    key = "AKIA" + "IOSFODNN7EXAMPLQ"
    source.write_text(json.dumps({"type": "entity", "name": "Ops", "entityType": "team",
                                  "observations": [f"aws key {key}"]}), encoding="utf-8")
    run.ok("init")
    err = run.fails("import", "--from", "mcp-memory", str(source))
    assert "refused:" in err and "aws-key" in err and "nothing was written" in err
    assert commits(vdir) == 1


def test_export_to_both_servers(run, vdir, tmp_path):
    run.ok("import", "--from", "mcp-memory", str(MCP))
    run.ok("import", "--from", "basic-memory", str(NOTES))
    out = run.ok("export", "--to", "mcp-memory", str(tmp_path / "memory.jsonl"))
    assert "exported 9 memories and 10 relations to" in out and "MEMORY_FILE_PATH" in out
    assert "kept in " + str(tmp_path / "memory.jsonl.memvault.json") in out
    assert "1 relation to a memory the vault lacks, under no name, kept there only" in out
    assert "4 memories not from mcp-memory named after the first line" in out
    report = run.json("export", "--to", "basic-memory", str(tmp_path / "notes"))
    assert report["format"] == "basic-memory" and report["entities"] == 9
    assert (tmp_path / "notes" / "coffee" / "Coffee Origins.md").read_bytes() == \
        (NOTES / "coffee" / "Coffee Origins.md").read_bytes()
    err = run.fails("export", "--to", "mcp-memory", str(tmp_path / "memory.jsonl"))
    assert "exists (pass --force" in err
    run.ok("export", "--to", "mcp-memory", str(tmp_path / "memory.jsonl"), "--force")
    run.ok("export", "--format", "jsonl", str(tmp_path / "cg"))  # the old spelling still works
    assert (tmp_path / "cg" / "memories.jsonl").is_file()


def test_usage_errors(run):
    code, _, err = run("import", "nothing")
    assert code == 2 and "--from" in err
    err = run.fails("import", "--from", "mem0", "/nonexistent/file.json")
    assert "no file" in err


def test_ctrl_c_during_an_import_says_nothing_was_imported_and_leaves_nothing(run, vdir,
                                                                             tmp_path,
                                                                             monkeypatch):
    from core.git.commit import Committer

    run.ok("init")
    source = tmp_path / "memory.jsonl"
    source.write_text("".join(f'{{"type":"entity","name":"E{n}","entityType":"x"}}\n'
                              for n in range(100)), "utf-8")

    def interrupted(*args, **kwargs):  # Ctrl+C once the files are in place, before the commit
        raise KeyboardInterrupt

    monkeypatch.setattr(Committer, "_new_tree", interrupted)
    code, out, err = run("import", "--from", "mcp-memory", str(source))
    assert code == 130 and out == ""
    assert err == "memvault: interrupted: nothing was imported\n"
    assert commits(vdir) == 1
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=vdir,
                            capture_output=True, text=True).stdout
    assert status == "" and list((vdir / "memories").iterdir()) == []
