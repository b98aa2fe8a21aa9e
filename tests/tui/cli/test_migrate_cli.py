"""`memvault migrate`, `export`, `import-markdown` and `log` (tui.cli.migrate), run in-process
through cli.main."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core import Vault
from migrate_support import memory_line, relation_line, write_store

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

from vault_support import FIXTURES  # noqa: E402  (tests/fixtures, wherever this test lives)

FIXTURE = FIXTURES / "cortexgraph-v1"




@pytest.fixture
def source(tmp_path) -> Path:
    target = tmp_path / "cortexgraph"
    target.mkdir()
    for name in ("memories.jsonl", "relations.jsonl"):
        shutil.copyfile(FIXTURE / name, target / name)
    return target




def commits(vdir: Path) -> int:
    import subprocess

    out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=vdir, capture_output=True,
                         text=True)
    return int(out.stdout.strip())


def test_migrate_prints_a_summary_and_commits_once(run, vdir, source):
    out = run.ok("migrate", "--from", "jsonl", str(source))
    assert "migrated 45 memories and 105 relations from" in out
    assert "in one commit" in out
    assert "memories:  45 new, 0 updated, 0 unchanged" in out
    # the one rule for relations when a memory goes: of the 78 relations of memories the
    # source deleted, the 13 lineage ones are migrated, the 65 others left out (in the backup)
    assert "relations: 40 new, 0 updated, 0 unchanged" in out
    assert "13 dangling relations kept" in out
    assert "65 relations of deleted memories left out" in out
    assert "backed up, committed, in .backup/jsonl-v1-" in out
    assert "45 memories without a gist: `memvault backfill-gists`" in out
    assert commits(vdir) == 2  # init, migrate
    listed = json.loads(run.ok("list", "--json", "--status", "active"))
    assert len(listed) == 39
    again = run.ok("migrate", "--from", "jsonl", str(source))
    assert again.startswith("already migrated:") and commits(vdir) == 2
    assert "(--force migrates it again)" in again


def test_migrate_json_report(run, source):
    report = run.json("migrate", str(source))  # --from defaults to jsonl
    assert report["memories"] == 45 and report["relations"] == 105
    assert report["format"] == "jsonl-v1" and report["commit"]
    assert len(report["dangling_relations"]) == 13 and report["skipped_lines"] == []
    assert len(report["dropped_relations"]) == 65
    assert report["backup"].startswith(".backup/jsonl-v1-")
    second = run.json("migrate", str(source))
    assert second["already_migrated"] is True and second["commit"] is None


def test_migrate_dry_run_creates_no_vault(run, vdir, source):
    out = run.ok("migrate", "--from", "jsonl", str(source), "--dry-run")
    assert out.startswith("dry run:") and "nothing was written" in out
    assert "45 new" in out and "would be copied to .backup/" in out
    assert not vdir.exists()
    run.ok("init")
    report = run.json("migrate", str(source), "--dry-run")
    assert report["dry_run"] and report["commit"] is None and len(report["new_memories"]) == 45
    assert commits(vdir) == 1


def test_migrate_reports_malformed_lines(run, tmp_path):
    src = write_store(tmp_path / "cg", [memory_line("a"), "{oops", memory_line("b")],
                      [relation_line("r", "a", "gone")])
    out = run.ok("migrate", str(src))
    assert "skipped 1 line:" in out
    assert "  memories.jsonl:2: not valid JSON" in out
    assert "1 dangling relation kept" in out
    report = run.json("migrate", str(src), "--force")
    assert report["skipped_lines"] == [{"file": "memories.jsonl", "line": 2,
                                        "message": report["skipped_lines"][0]["message"]}]


def test_migrate_refusals(run, tmp_path):
    err = run.fails("migrate", str(tmp_path / "missing"))
    assert err.startswith("memvault: error: no folder")
    (tmp_path / "empty").mkdir()
    assert "nothing to migrate" in run.fails("migrate", str(tmp_path / "empty"))
    assert "nothing to import" in run.fails("import-markdown", str(tmp_path / "empty"))
    assert not (tmp_path / "vault").exists()  # no vault was created for a refused source
    run.fails("migrate", "--from", "sqlite", str(tmp_path), code=2)


def test_export_writes_cortexgraph_files(run, tmp_path, source, cortexgraph_expected):
    run.ok("migrate", str(source))
    out_dir = tmp_path / "back"
    out = run.ok("export", "--format", "jsonl", str(out_dir))
    # (65 of the 105 relations went with their deleted memories when migrated)
    assert "exported 45 memories and 40 relations to" in out
    lines = (out_dir / "memories.jsonl").read_text().splitlines()
    by_id = {r["id"]: r for r in map(json.loads, lines)}
    for mid, record in cortexgraph_expected["memories"].items():
        assert {k: by_id[mid][k] for k in record} == record
    assert "exists" in run.fails("export", str(out_dir))
    report = run.json("export", str(out_dir), "--force")
    assert report["memories"] == 45 and len(report["paths"]) == 2
    assert "no vault" in run.fails("--vault", str(tmp_path / "none"), "export", str(out_dir))


def test_import_markdown(run, vdir, tmp_path):
    md = tmp_path / "md"
    (md / "memory").mkdir(parents=True)
    (md / "memory" / "2026-01-29.md").write_text(
        "## 14:30 - Auth\n\nJWT it is.\n\n<!--\nid: mem_a\nimportance: lots\n-->\n\n"
        "## 15:00 - Broken\n\n<!--\nid: mem_b\n")
    (md / "MEMORY.md").write_text("## Preferences\n\nDark mode.\n")
    dry = run.ok("import-markdown", str(md), "--dry-run")
    assert dry.startswith("dry run:") and not vdir.exists()
    out = run.ok("import-markdown", str(md))
    assert "imported 2 memories and 0 relations from" in out and "(2 files)" in out
    assert "skipped 1 entry:" in out
    assert "memory/2026-01-29.md:12: the metadata comment opened here is never closed" in out
    assert "ignored:" in out and "memory/2026-01-29.md:7: importance 'lots'" in out
    assert commits(vdir) == 2
    shown = json.loads(run.ok("show", "mem_a", "--json"))
    assert shown["strength"] == 1.5 and shown["meta"]["source"] == "markdown:memory/2026-01-29.md"
    report = run.json("import-markdown", str(md))
    assert report["commit"] is None and report["unchanged_memories"] == 2
    assert [p["line"] for p in report["problems"]] == [12, 7]
    assert commits(vdir) == 2


def test_log_human_and_jsonl(run, vdir, source):
    mid = run.ok("add", "a memory to follow").strip()
    run.ok("archive", mid)
    run.ok("migrate", str(source))
    lines = run.ok("log").splitlines()
    assert len(lines) == 4
    assert [line.split()[3] for line in lines] == ["init", "add", "archive", "migrate"]
    assert "memories +1" in lines[1] and "memories ~1" in lines[2]
    assert "memories +45, relations +40, meta, files +2" in lines[3]
    assert lines[3].endswith("(13 dangling relations kept; 65 relations of deleted memories "
                             "left out; source backed up under .backup/)")
    events = [json.loads(x) for x in run.ok("log", "--jsonl").splitlines()]
    assert [e["operation"] for e in events] == ["init", "add", "archive", "migrate"]
    archive = events[2]
    assert archive["memories"] == [mid]
    assert archive["changes"][0]["before"]["status"] == "active"
    assert archive["changes"][0]["after"]["status"] == "archived"
    since = [json.loads(x) for x in run.ok("log", "--jsonl", "--since",
                                           events[1]["commit"][:10]).splitlines()]
    assert [e["operation"] for e in since] == ["archive", "migrate"]
    assert "unknown revision" in run.fails("log", "--since", "nope")


def test_verbs_are_listed(run, tmp_path):
    out = run.ok()
    for name in ("migrate", "export", "import-markdown", "log"):
        assert f"  {name} " in out
    assert run("migrate", "-h")[0] == 0
    vault = Vault.open(tmp_path / "vault")  # nothing above created anything in the vault
    assert vault.memories == {}
