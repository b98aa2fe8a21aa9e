"""`memvault edit` ($EDITOR and options), `promote`, `pin`, `unpin`, and gc keeping pinned
memories out (tui/cli/edit.py), run in-process."""

from __future__ import annotations

import io
import stat
import subprocess
import sys
from pathlib import Path

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)

from core.io.edit_text import SEPARATOR

DAY = 86400


def commits(vdir: Path) -> int:
    return int(subprocess.run(["git", "-C", str(vdir), "rev-list", "--count", "HEAD"],
                              capture_output=True, text=True, check=True).stdout)


def editor(tmp_path: Path, body: str, name: str = "ed") -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(
        f"#!{sys.executable}\nimport sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
        "text = p.read_bytes().decode('utf-8', 'surrogatepass')\n"
        f"{body}\n"
        "p.write_bytes(text.encode('utf-8', 'surrogatepass'))\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def edits_left(vdir: Path) -> list[Path]:
    folder = vdir / ".git" / "memvault" / "edits"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_edit_in_the_editor_is_one_commit_and_byte_exact(run, vdir, tmp_path, monkeypatch):
    a = run.add("first line\n", "--tag", "x")
    monkeypatch.setenv("EDITOR", editor(
        tmp_path, "text = text.replace('tags: x', 'tags: x, y') + 'second \\x1b line\\n\\n'"))
    before = commits(vdir)
    out = run.ok("edit", a[:8])
    assert out.startswith(f"edited {a[:8]}") and "(content, tags)" in out
    shown = run.json("show", a)
    assert shown["content"] == "first line\n\nsecond \x1b line\n" and shown["meta"]["tags"] == ["x", "y"]
    assert commits(vdir) == before + 1 and edits_left(vdir) == []


def test_edit_unchanged_writes_nothing(run, vdir, monkeypatch):
    a = run.add("same", "--tag", "x")
    monkeypatch.setenv("EDITOR", "true")
    before = commits(vdir)
    report = run.json("edit", a)
    assert report["changed"] == [] and report["commit"] is None and report["memory"]["id"] == a
    assert "unchanged" in run.ok("edit", a) and commits(vdir) == before


def test_a_file_that_does_not_parse_is_kept_and_named(run, vdir, tmp_path, monkeypatch):
    a = run.add("keep my words")
    monkeypatch.setenv("EDITOR", editor(
        tmp_path, f"text = text.replace({SEPARATOR!r}, 'sep gone') + 'typed\\n'"))
    before = commits(vdir)
    err = run.fails("edit", a)
    [kept] = edits_left(vdir)
    assert "separator line is missing" in err and str(kept) in err
    assert "typed" in kept.read_text() and commits(vdir) == before


def test_on_a_terminal_edit_again_is_offered(run, vdir, tmp_path, monkeypatch):
    a = run.add("words")
    monkeypatch.setenv("EDITOR", editor(
        tmp_path, "text = text.replace('strength: 1.0', 'strength: x') if 'again' not in text "
                  "else text.replace('strength: x', 'strength: 1.5')\ntext += 'again\\n'"))

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Tty("y\n"))
    out = run.ok("edit", a)
    assert "edited" in out and run.json("show", a)["strength"] == 1.5
    assert edits_left(vdir) == []


def test_edit_with_options(run, vdir):
    a = run.add("old text", "--tag", "x", "--entity", "E")
    report = run.json("edit", a, "--tag", "p", "--tag", "q", "--strength", "1.7", "--gist", "g")
    assert report["changed"] == ["gist", "strength", "tags"] and report["commit"]
    m = report["memory"]
    assert m["meta"]["tags"] == ["p", "q"] and m["strength"] == 1.7 and m["gist"] == "g"
    assert m["entities"] == ["E"] and "score" in m
    run.ok("edit", a, "--entity", "", "--gist", "")
    shown = run.json("show", a)
    assert shown["entities"] == [] and shown["gist"] is None
    before = commits(vdir)
    assert run.json("edit", a, "--tag", "p", "--tag", "q")["commit"] is None
    assert commits(vdir) == before


def test_edit_refuses_bad_input_and_writes_nothing(run, vdir):
    a = run.add("text")
    before = commits(vdir)
    assert "empty" in run.fails("edit", a, "--content", "   ")
    assert "0 or more" in run.fails("edit", a, "--strength", "-1")
    assert "finite" in run.fails("edit", a, "--strength", "nan")
    assert "usage" in run.fails("edit", a, "--strength", "strong", code=2).lower()
    assert "no memory" in run.fails("edit", "zzzzzz")
    assert commits(vdir) == before


def test_pin_unpin_promote(run, vdir):
    a = run.add("pin me")
    [p] = run.json("pin", a)
    assert p["meta"]["extra"] == {"pinned": True}
    assert "already pinned" in run.fails("pin", a)
    assert run.ok("unpin", a).startswith(f"unpinned {a[:8]}")
    assert "not pinned" in run.fails("unpin", a)
    [q] = run.json("promote", a)
    assert q["status"] == "promoted" and q["promoted_at"]
    assert "only an active memory" in run.fails("promote", a)
    assert run.ok("pin", a).startswith(f"pinned {a[:8]}")


def test_gc_keeps_pinned_memories_out_and_says_so(run, vdir):
    from core import Vault

    a, b = run.add("pinned and faded"), run.add("faded")
    with Vault.open(vdir) as v:
        v.save_many([v.get(i).model_copy(update={"last_used": v.get(i).last_used - 400 * DAY})
                     for i in (a, b)])
    run.ok("pin", a)
    out = run.ok("gc", "--dry-run")
    assert "kept 1 pinned memory below" in out
    report = run.json("gc")
    assert [m["id"] for m in report["candidates"]] == [b] and report["pinned_kept"] == [a]
    assert run.json("show", a)["status"] == "active"
