"""`memvault undo` / `memvault redo` (tui.cli.undo) over core's revert, run in-process."""

from __future__ import annotations

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)


def test_undo_and_redo_an_archive(run):
    a = run.add("the staging server rebuilds nightly")
    run.ok("archive", a)
    out = run.ok("undo")
    assert out.startswith("undid ") and "archive:" in out
    assert run.json("show", a)["status"] == "active"
    listed = run.json("undo", "--list")
    assert listed and {"commit", "subject", "timestamp"} <= set(listed[0])
    report = run.json("redo")
    assert {"commit", "reverted", "subject", "memories", "relations", "kept_touches"} <= \
        set(report)
    assert a in report["memories"] and "archive:" in report["subject"]  # redo reverses the undo
    assert run.json("show", a)["status"] == "archived"
    assert "archive" in run.ok("undo", "--list")


def test_undo_json_and_refusals_are_one_line(run):
    a = run.add("first memory")
    report = run.json("undo")
    assert report["memories"] == [a] and report["subject"].startswith("add:")
    err = run.fails("redo", "--bogus", code=2)
    assert "usage:" in err
    run.json("redo")
    err = run.fails("undo", "--limit", "0", code=2)
    assert "usage:" in err


def test_redo_names_the_operation_it_does_again_not_the_undo(run):
    a = run.add("the staging server rebuilds nightly")
    run.ok("archive", a)
    run.ok("undo")
    out = run.ok("redo").splitlines()[0]
    assert out.startswith("redid archive: ") and "redid undo:" not in out
    assert "(undo " in out and "taken back; commit " in out
    run.ok("undo")
    assert run.json("redo")["operation"].startswith("archive: ")
