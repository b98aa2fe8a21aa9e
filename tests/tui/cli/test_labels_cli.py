"""``memvault tag`` / ``untag`` / ``promote`` (bulk): the app's bulk verbs on the
command line, many ids in ONE commit, ``--json`` an array of the changed memories; refusals
are one line on stderr, exit 1, nothing written."""

from __future__ import annotations

import subprocess

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


def commits(vdir) -> int:
    return int(subprocess.run(["git", "-C", str(vdir), "rev-list", "--count", "HEAD"],
                              capture_output=True, text=True, check=True).stdout)


def last_message(vdir) -> str:
    return subprocess.run(["git", "-C", str(vdir), "log", "-1", "--format=%s"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_tag_many_ids_in_one_commit(run, vdir):
    a, b = run.add("a memory", "--tag", "old"), run.add("b memory")
    before = commits(vdir)
    out = run.ok("tag", a[:6], b, "--tag", "work", "--tag", "urgent")
    assert out.splitlines() == [f"tagged {a[:8]} a memory (+work +urgent)",
                                f"tagged {b[:8]} b memory (+work +urgent)"]
    assert commits(vdir) == before + 1
    assert last_message(vdir) == f"tag: 2 memories ({a[:8]}, {b[:8]}) (+work +urgent)"
    assert run.json("show", a)["meta"]["tags"] == ["old", "work", "urgent"]


def test_tag_json_lists_only_the_changed_memories(run, vdir):
    a, b = run.add("a memory", "--tag", "work"), run.add("b memory")
    changed = run.json("tag", a, b, "--tag", "work")
    assert [m["id"] for m in changed] == [b]
    assert changed[0]["meta"]["tags"] == ["work"] and "score" in changed[0]


def test_untag(run, vdir):
    a, b = run.add("a memory", "--tag", "work"), run.add("b memory", "--tag", "work")
    changed = run.json("untag", a, b, "--tag", "work")
    assert {m["id"] for m in changed} == {a, b}
    assert last_message(vdir).startswith("untag: 2 memories") and \
        last_message(vdir).endswith("(-work)")
    assert run.json("show", b)["meta"]["tags"] == []


def test_tag_refusals_write_nothing(run, vdir):
    a = run.add("a memory", "--tag", "work")
    before = commits(vdir)
    for argv, words in ((["tag", a, "--tag", "work"], "already has the tag work"),
                        (["untag", a, "--tag", "nope"], "has none of the tag nope"),
                        (["tag", a, "--tag", " "], "a tag cannot be empty"),
                        (["tag", a, "nothere", "--tag", "x"], "nothere")):
        err = run.fails(*argv)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("memvault: error: ") and words in lines[0]
    assert commits(vdir) == before
    assert "Missing option '--tag'" in run.fails("tag", a, code=2)


def test_promote_many(run, vdir):
    a, b = run.add("a memory"), run.add("b memory")
    changed = run.json("promote", a, b)
    assert {m["status"] for m in changed} == {"promoted"}
    assert last_message(vdir).startswith("promote: 2 memories")
    before = commits(vdir)
    err = run.fails("promote", a)
    assert "only an active memory can be promoted" in err
    assert commits(vdir) == before
    out = run.ok("undo")
    assert "promote" in out
    assert {run.json("show", k)["status"] for k in (a, b)} == {"active"}
