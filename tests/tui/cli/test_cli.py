"""The `memvault` command line, run in-process through ``tui.cli.main`` (and once as the installed
console script). Every vault lives under tmp_path; HOME and XDG folders point there too."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from core import Memory, MemoryMetadata, Vault
from core.model.records import now_epoch
from tui import cli
from tui.cli import common

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

DAY = 86400






def commits(vdir: Path) -> int:
    out = subprocess.run(["git", "-C", str(vdir), "rev-list", "--count", "HEAD"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def last_message(vdir: Path) -> str:
    return subprocess.run(["git", "-C", str(vdir), "log", "-1", "--format=%s"],
                          capture_output=True, text=True, check=True).stdout.strip()


def memory_file(vdir: Path, memory_id: str) -> Path:
    return vdir / "memories" / f"{memory_id}.json"


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("memvault: error: "), err
    return lines[0]


def save_faded(vdir: Path, content: str, days: int, memory_id: str | None = None) -> str:
    """A memory last used ``days`` ago, written through core."""
    then = now_epoch() - days * DAY
    with Vault.open(vdir) as vault:
        m = vault.save(Memory(id=memory_id or str(uuid.uuid4()), content=content,
                              created_at=then, last_used=then, meta=MemoryMetadata(tags=["old"])))
    return m.id


# -- add, list, show -------------------------------------------------------------------------
def test_add_prints_only_the_new_id(run, vdir):
    code, out, err = run("add", "The user prefers pytest", "--tag", "prefs", "--tag", "python",
                         "--entity", "pytest", "--source", "chat", "--context", "setup",
                         "--strength", "1.5")
    assert code == 0
    new_id = out.strip()
    assert out == new_id + "\n"
    uuid.UUID(new_id)
    data = json.loads(memory_file(vdir, new_id).read_text())
    assert data["content"] == "The user prefers pytest"
    assert data["meta"]["tags"] == ["prefs", "python"]
    assert data["meta"]["source"] == "chat" and data["meta"]["context"] == "setup"
    assert data["entities"] == ["pytest"] and data["strength"] == 1.5
    assert "created a new vault" in err  # a note on stderr, never on stdout
    assert last_message(vdir).startswith(f"add: {new_id[:8]}")


def test_add_warns_of_likely_duplicates_on_stderr_and_json_carries_them(run, vdir):
    first = run.add("The staging database is restored from the nightly snapshot every Monday")
    other = run.add("Lunch orders go to the office manager before eleven")
    code, out, err = run("add", "Every Monday the staging database gets restored from the "
                                "nightly snapshot")
    assert code == 0 and out.strip() != first
    uuid.UUID(out.strip())  # stdout: only the new id
    assert f"likely duplicate of {first[:8]} (similarity 0." in err
    assert other[:8] not in err
    assert f"memvault consolidate {out.strip()[:8]} {first[:8]}" in err
    assert len(run.json("list")) == 3  # nothing merged
    code, out, err = run("add", "--json", "The staging database is restored from the nightly "
                                          "snapshot on Mondays")
    likely = json.loads(out)["likely_duplicates"]
    assert {d["id"] for d in likely} == {first, *(m["id"] for m in run.json("list")
                                                  if "gets" in m["content"])}
    code, out, _ = run("add", "--json", "The staging database is restored from the nightly "
                                        "snapshot every Friday")  # another day: distinct
    assert json.loads(out)["likely_duplicates"] == []
    assert all(0.6 <= d["similarity"] <= 1 for d in likely)
    code, out, _ = run("add", "--json", "Completely unrelated words about gardening tools")
    assert json.loads(out)["likely_duplicates"] == []


def test_add_warns_of_a_longer_rewording_of_a_short_memory(run):
    """Issue 41: before, this pair warned nothing."""
    first = run.add("Prefers pytest with plain assert")
    _code, _out, err = run("add", "Prefers pytest with plain assert statements over unittest")
    assert f"likely duplicate of {first[:8]}" in err


def test_add_refuses_empty_content_and_bad_strength(run, vdir):
    code, out, err = run("add", "   ")
    assert code == 1 and out == ""
    assert "non-empty content" in one_line_error(err)
    assert not vdir.exists()  # refused before a vault was created for it
    run.add("first")
    code, _, err = run("add", "x", "--strength", "-1")
    assert code == 1 and "strength" in one_line_error(err)
    assert len(run.json("list")) == 1


def test_list_and_show_json_are_the_file_format_plus_score(run, vdir):
    a = run.add("alpha memory", "--tag", "one")
    b = run.add("beta memory", "--tag", "two")
    listed = run.json("list")
    assert isinstance(listed, list) and {m["id"] for m in listed} == {a, b}
    for item in listed:
        on_disk = json.loads(memory_file(vdir, item["id"]).read_text())
        assert set(item) == set(on_disk) | {"score"}
        assert {k: item[k] for k in on_disk} == on_disk
        assert 0 < item["score"] <= 2
    shown = run.json("show", a[:6])
    on_disk = json.loads(memory_file(vdir, a).read_text())
    assert set(shown) == set(on_disk) | {"score", "relations"} and shown["relations"] == []
    assert shown["id"] == a and isinstance(shown["score"], float)


def test_list_filters_sort_and_limit(run, vdir):
    a = run.add("deploys never on fridays", "--tag", "ops")
    b = run.add("user likes short answers", "--tag", "user")
    run.ok("archive", b)
    assert [m["id"] for m in run.json("list", "--tag", "ops")] == [a]
    assert [m["id"] for m in run.json("list", "--status", "archived")] == [b]
    assert [m["id"] for m in run.json("list", "--query", "FRIDAYS deploys")] == [a]
    assert len(run.json("list", "--limit", "1", "--sort", "created")) == 1
    assert run.json("list", "--query", "nothing-like-this") == []
    out = run.ok("list")
    assert a[:8] in out and b[:8] in out and "archived" in out and "deploys never" in out
    assert "no memories match" in run.ok("list", "--tag", "missing")


def test_show_human(run, vdir):
    a = run.add("The production database is PostgreSQL 15", "--tag", "infra", "--entity", "pg")
    b = run.add("Migrations run with alembic")
    run.ok("relate", a, b, "related")
    out = run.ok("show", a[:8])
    for text in (a, "active", "infra", "pg", "PostgreSQL 15", "use count", "score",
                 "forgotten", "just now", "related", b[:8]):
        assert text in out, text


def test_markup_in_content_is_printed_verbatim(run):
    a = run.add("use [bold]brackets[/bold] literally")
    assert "[bold]brackets[/bold]" in run.ok("show", a)
    assert "[bold]brackets" in run.ok("list")


# -- errors ----------------------------------------------------------------------------------
def test_unknown_id_is_a_one_line_error(run):
    run.add("something")
    code, out, err = run("show", "deadbeef")
    assert code == 1 and out == ""
    assert "deadbeef" in one_line_error(err)
    code, _, err = run("archive", "nope")
    assert code == 1
    one_line_error(err)


def test_ambiguous_prefix_lists_candidates(run, vdir):
    run.add("first")  # creates the vault
    with Vault.open(vdir) as vault:
        vault.add("one", memory_id="abcd-one")
        vault.add("two", memory_id="abcd-two")
    code, out, err = run("show", "abcd")
    assert code == 1 and out == ""
    line = one_line_error(err)
    assert "ambiguous" in line and "abcd-one" in line and "abcd-two" in line
    code, _, err = run("touch", "abcd")
    assert code == 1 and "abcd-one" in err
    assert run.json("show", "abcd-t")["id"] == "abcd-two"


@pytest.mark.parametrize("argv", [
    ["list", "--sort", "bogus"],
    ["list", "--limit", "0"],
    ["frobnicate"],
    ["show"],
    ["add", "x", "--strength", "lots"],
])
def test_usage_errors_exit_2(run, argv):
    code, out, err = run(*argv)
    assert code == 2
    assert "usage:" in err


def test_read_only_verbs_need_an_existing_vault(run, vdir):
    for argv in (["list"], ["show", "abcd"], ["stats"], ["gc", "--dry-run"], ["history", "abcd"],
                 ["archive", "abcd"]):
        code, out, err = run(*argv)
        assert code == 1, argv
        assert f"no vault at {vdir}" in one_line_error(err)
        assert "memvault init" in err
    assert not vdir.exists()


def test_lock_timeout_is_a_user_error(run, vdir, monkeypatch):
    a = run.add("locked out")

    class QuickVault(Vault):
        def __init__(self, path, **kwargs):
            super().__init__(path, lock_timeout=0.2, **kwargs)

    monkeypatch.setattr(common, "Vault", QuickVault)
    holder = Vault.open(vdir)
    with holder.journal.lock():
        code, _, err = run("archive", a)
    assert code == 1
    assert "gave up" in one_line_error(err)
    assert run.json("show", a)["status"] == "active"


# -- write verbs -----------------------------------------------------------------------------
def test_init_is_idempotent(run, vdir):
    assert "initialised" in run.ok("init")
    assert (vdir / ".meta.json").exists() and commits(vdir) == 1
    assert "already exists" in run.ok("init")
    assert commits(vdir) == 1


def test_touch_several_ids_in_one_commit(run, vdir):
    a, b = run.add("a memory"), run.add("b memory")
    before = commits(vdir)
    out = run.ok("touch", a[:6], b, "--boost")
    assert a[:8] in out and b[:8] in out
    assert commits(vdir) == before + 1
    assert last_message(vdir).startswith("touch: 2 memories")
    for key in (a, b):
        m = run.json("show", key)
        assert m["use_count"] == 1 and m["strength"] == pytest.approx(1.1)


def test_archive_and_unarchive(run, vdir):
    a, b = run.add("a memory"), run.add("b memory")
    out = run.ok("archive", a, b[:5])
    assert out.count("archived") == 2
    assert {m["status"] for m in run.json("list")} == {"archived"}
    assert last_message(vdir).startswith("archive: 2 memories")
    code, _, err = run("archive", a)
    assert code == 1 and "already archived" in one_line_error(err)
    run.ok("unarchive", a)
    assert run.json("show", a)["status"] == "active"
    code, _, err = run("unarchive", a)
    assert code == 1
    one_line_error(err)


def test_delete_with_yes_removes_memory_and_relations(run, vdir):
    a, b = run.add("a memory"), run.add("b memory")
    run.ok("relate", a, b, "supports")
    before = commits(vdir)
    out = run.ok("delete", a, "--yes")
    assert a[:8] in out and "1 relation" in out
    assert not memory_file(vdir, a).exists()
    assert list((vdir / "relations").glob("*.json")) == []
    assert commits(vdir) == before + 1
    assert last_message(vdir).startswith(f"delete: {a[:8]}")


def test_delete_without_yes_and_no_terminal_refuses(run, vdir, monkeypatch):
    a = run.add("keep me")
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # piped "y": still not a terminal
    before = commits(vdir)
    code, out, err = run("delete", a)
    assert code == 1 and out == ""
    assert "--yes" in one_line_error(err)
    assert memory_file(vdir, a).exists() and commits(vdir) == before


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_delete_asks_on_a_terminal(run, vdir, monkeypatch):
    a, b = run.add("first to go"), run.add("second")
    run.ok("relate", a, b, "related")
    monkeypatch.setattr(sys, "stdin", FakeTerminal("n\n"))
    code, out, err = run("delete", a)
    assert code == 1 and "nothing deleted" in err
    assert "first to go" in err and "1 memory and 1 relation" in err  # what would go
    assert memory_file(vdir, a).exists()
    monkeypatch.setattr(sys, "stdin", FakeTerminal("y\n"))
    code, out, err = run("delete", a)
    assert code == 0 and not memory_file(vdir, a).exists()


def test_relate_refuses_unknown_types_unless_forced(run, vdir):
    a, b = run.add("a memory"), run.add("b memory")
    code, out, err = run("relate", a, b, "likes")
    assert code == 1 and "unknown relation type 'likes'" in one_line_error(err)
    assert list((vdir / "relations").glob("*.json")) == []
    out = run.ok("relate", a[:6], b[:6], "likes", "--force", "--strength", "0.4")
    assert f"{a[:8]} -likes-> {b[:8]}" in out
    (rel_file,) = (vdir / "relations").glob("*.json")
    rel = json.loads(rel_file.read_text())
    assert (rel["from_memory_id"], rel["to_memory_id"], rel["relation_type"]) == (a, b, "likes")
    assert rel["strength"] == 0.4
    assert last_message(vdir).startswith("relate:")


# -- gc, history, restore, stats -------------------------------------------------------------
def test_gc_dry_run_lists_and_gc_deletes_in_one_commit(run, vdir):
    fresh = run.add("fresh memory")
    old1 = save_faded(vdir, "stale build note", 365)
    old2 = save_faded(vdir, "stale meeting note", 200)
    run.ok("relate", fresh, old1, "related")
    before = commits(vdir)

    report = run.json("gc", "--dry-run")
    assert report["applied"] is False
    assert [m["id"] for m in report["candidates"]] == [old1, old2]  # lowest score first
    assert all(m["score"] < report["threshold"] for m in report["candidates"])
    human = run.ok("gc", "--dry-run")
    assert old1[:8] in human and old2[:8] in human and fresh[:8] not in human
    assert commits(vdir) == before and memory_file(vdir, old1).exists()

    out = run.ok("gc")
    assert "deleted 2 memories and 1 relation" in out
    assert commits(vdir) == before + 1
    assert last_message(vdir).startswith("gc: prune 2 memories below 0.05")
    assert not memory_file(vdir, old1).exists() and not memory_file(vdir, old2).exists()
    assert list((vdir / "relations").glob("*.json")) == []
    assert [m["id"] for m in run.json("list")] == [fresh]
    assert run.json("stats")["last_gc_at"] is not None
    assert "nothing to collect" in run.ok("gc")


def test_gc_archive(run, vdir):
    run.add("fresh memory")
    old = save_faded(vdir, "stale", 365)
    report = run.json("gc", "--archive")
    assert report["applied"] and report["archived"] and report["commit"]
    assert run.json("show", old)["status"] == "archived"
    assert last_message(vdir).startswith("gc: archive 1 memory")


def test_history_shows_each_commits_subject_and_who_it_was_for_not_its_trailers(run, vdir):
    a = run.add("the staging server rebuilds nightly")
    vault = Vault.open(vdir)
    vault.acting_for(via="claude-code", tool="update_memory").update(a, content="rebuilds at 2am")
    vault.close()
    run.ok("archive", a)
    run.ok("undo")
    human = run.ok("history", a[:8])
    assert "Memvault-" not in human and "\\n" not in human  # (a literal backslash-n before)
    assert "(via claude-code)" in human and "undo: archive:" in human


def test_history_and_restore_of_a_deleted_memory(run, vdir):
    a = run.add("remember the staging URL")
    b = run.add("staging is at staging.internal")
    run.ok("relate", b, a, "supports")
    run.ok("archive", a)
    run.ok("delete", a, "--yes")

    entries = run.json("history", a[:8])
    assert [e["action"] for e in entries] == ["deleted", "changed", "created"]
    assert [e["operation"] for e in entries] == ["delete", "archive", "add"]
    assert all(len(e["commit"]) == 40 and e["timestamp"] > 0 for e in entries)
    human = run.ok("history", a[:8])
    assert "(deleted)" in human and "deleted" in human and f"memvault restore {a}" in human

    out = run.ok("restore", a[:8])
    assert f"restored {a[:8]}" in out and "with 1 relation" in out
    restored = run.json("show", a)
    assert restored["status"] == "archived"  # the last version before the deletion
    assert len(list((vdir / "relations").glob("*.json"))) == 1
    assert last_message(vdir).startswith(f"restore: {a[:8]}")

    # again: it already is the version before the deletion (it went back one more each time)
    again = run.ok("restore", a[:8])
    assert f"already at {a[:8]}" in again and "nothing written" in again
    assert last_message(vdir).startswith(f"restore: {a[:8]}")
    assert run.json("restore", a)["unchanged"] is True
    assert run.json("show", a)["status"] == "archived"

    # an earlier version, by revision
    created = run.json("history", a)[-1]["commit"]
    run.ok("restore", a, "--at", created)
    assert run.json("show", a)["status"] == "active"
    code, _, err = run("restore", a, "--at", "no-such-rev")
    assert code == 1
    one_line_error(err)


def test_stats_json_and_human(run, vdir):
    a, b = run.add("a memory", "--tag", "x"), run.add("b memory", "--tag", "y")
    run.ok("archive", b)
    run.ok("relate", a, b, "related")
    stats = run.json("stats")
    assert stats["memories"] == 2 and stats["relations"] == 1
    assert stats["by_status"]["active"] == 1 and stats["by_status"]["archived"] == 1
    assert stats["relation_types"] == {"related": 1}
    assert stats["decay_model"] == "power_law" and stats["path"] == str(vdir.resolve())
    out = run.ok("stats")
    assert "power_law" in out and "archived 1" in out


# -- opening: problems, external edits, default view, path resolution ------------------------
def test_unreadable_files_are_a_warning_for_list_and_stats(run, vdir):
    a = run.add("fine")
    (vdir / "memories" / "broken.json").write_text("{not json")
    for argv in (["list", "--json"], ["stats", "--json"]):
        code, out, err = run(*argv)
        assert code == 0
        assert "warning" in err and "broken.json" in err
        json.loads(out)
    assert [m["id"] for m in run.json("list")] == [a]


def test_external_edit_is_committed_by_a_write_verb_with_a_note(run, vdir):
    a = run.add("original text")
    path = memory_file(vdir, a)
    data = json.loads(path.read_text())
    data["content"] = "edited in an editor"
    path.write_text(json.dumps(data, indent=2))
    before = commits(vdir)
    assert run.json("show", a)["content"] == "edited in an editor"  # read-only: no commit
    assert commits(vdir) == before
    code, out, err = run("touch", a)
    assert code == 0
    assert "note" in err and "changed outside memvault" in err
    log = subprocess.run(["git", "-C", str(vdir), "log", "--format=%s", "-2"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert log[0].startswith("touch:") and log[1].startswith("external:")


def test_no_verb_prints_an_overview(run, vdir):
    code, out, _ = run()
    assert code == 0 and "no vault at" in out and "verbs:" in out
    run.add("a memory")
    a = run.add("b memory")
    run.ok("archive", a)
    out = run.ok()
    assert str(vdir.resolve()) in out
    assert "memories: 2" in out and "active 1" in out and "archived 1" in out
    for name in cli.VERB_HELP:
        assert name in out


def test_vault_path_resolution(run, tmp_path, monkeypatch):
    env_vault = tmp_path / "from-memvault-path"
    cg_vault = tmp_path / "from-cortexgraph"
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", str(cg_vault))
    run("add", "into cortexgraph path", vault=False)
    assert len(list((cg_vault / "memories").glob("*.json"))) == 1
    monkeypatch.setenv("MEMVAULT_PATH", str(env_vault))
    run("add", "--create", "into memvault path", vault=False)  # a named folder: asked for
    assert len(list((env_vault / "memories").glob("*.json"))) == 1
    # --vault wins, before or after the verb
    other = tmp_path / "explicit"
    assert cli.main(["add", "explicit", "--vault", str(other), "--create"]) == 0
    assert len(list((other / "memories").glob("*.json"))) == 1
    monkeypatch.delenv("MEMVAULT_PATH")
    monkeypatch.delenv("CORTEXGRAPH_STORAGE_PATH")
    run("add", "into the per-user folder", vault=False)
    default = Path(os.environ["XDG_DATA_HOME"]) / "memvault" / "vault"
    assert default.is_relative_to(tmp_path)
    assert len(list((default / "memories").glob("*.json"))) == 1


def test_nothing_is_written_outside_the_vault(run, vdir, cli_env):
    a = run.add("a memory")
    run.ok("touch", a)
    run.ok("list")
    run.ok("history", a)
    assert [p for p in cli_env.rglob("*")] == []


# -- the installed console script ------------------------------------------------------------
def test_console_script_entry_point(tmp_path):
    script = Path(sys.executable).parent / "memvault"
    if not script.exists():
        found = shutil.which("memvault")
        assert found, "the memvault console script is not installed"
        script = Path(found)
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    vault = tmp_path / "script-vault"
    added = subprocess.run([str(script), "--vault", str(vault), "--create", "add", "via the script"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert added.returncode == 0, added.stderr
    new_id = added.stdout.strip()
    uuid.UUID(new_id)
    imported = {line.rsplit("|", 1)[-1].strip() for line in added.stderr.splitlines()
                if line.startswith("import time:")}
    assert "core" in imported and not any(m == "rich" or m.startswith("rich.") for m in imported)

    env.pop("PYTHONPROFILEIMPORTTIME")
    listed = subprocess.run([str(script), "--vault", str(vault), "list", "--json"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert [m["id"] for m in json.loads(listed.stdout)] == [new_id]
    missing = subprocess.run([str(script), "--vault", str(vault), "show", "zzzz9999"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 1 and missing.stderr.startswith("memvault: error:")
