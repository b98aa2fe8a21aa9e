"""`memvault inbox`, `inbox accept`, `inbox reject` (tui.cli.inbox) over core/ops/inbox.py: the
assistant writes through a vault opened with via="mcp/test", the person through the CLI."""

from __future__ import annotations

import subprocess

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)

from core import Vault


def _assistant(vdir):
    return Vault.open(vdir, via="mcp/test")


def test_list_accept_and_json_shapes(run, vdir):
    p = run.add("the user prefers pytest", "--tag", "prefs")
    assert "the inbox is empty" in run.ok("inbox")
    a = _assistant(vdir).add("the user likes dark mode", tags=["ui"]).id
    _assistant(vdir).update(p, meta={"tags": ["prefs", "python"]})
    _assistant(vdir).touch(p)  # a use record: nothing new
    entries = run.json("inbox")
    assert [e["memory_id"] for e in entries] == [p, a]
    assert {"memory_id", "operation", "changes", "when", "clients", "commits", "later",
            "blocked", "summary"} <= set(entries[0])
    assert entries[0]["operation"] == "changed" and entries[0]["summary"] == "tags: +python"
    assert entries[1]["operation"] == "added" and entries[1]["clients"] == ["mcp/test"]
    out = run.ok("inbox")  # piped: plain lines, never cut
    lines = out.splitlines()
    assert lines[0].split() == ["id", "operation", "when", "client", "change"]
    assert lines[1].startswith(p[:8]) and "tags: +python" in lines[1]
    assert "content: 'the user likes dark mode'; tags: +ui" in lines[2]
    report = run.json("inbox", "accept", p[:8])
    assert report == {"mark": None, "accepted": [p], "all": False}
    assert [e["memory_id"] for e in run.json("inbox")] == [a]
    assert "accepted 1 memory" in run.ok("inbox", "accept", "--all")
    assert run.json("inbox") == []
    assert run.json("inbox", "accept", "--all")["accepted"] == []


def test_accept_usage_and_refusals(run, vdir):
    run.add("x")
    _assistant(vdir).add("y", memory_id="a1b2c3d4")
    assert "usage:" in run.fails("inbox", "accept", code=2)
    assert "usage:" in run.fails("inbox", "accept", "a1b2", "--all", code=2)
    err = run.fails("inbox", "accept", "zzzz")
    assert err.startswith("memvault: error:") and "zzzz" in err and err.count("\n") == 1
    assert "usage:" in run.fails("inbox", "reject", code=2)
    assert len(run.json("inbox")) == 1


def test_reject_and_its_refusal_over_a_persons_later_change(run, vdir):
    p = run.add("deploys happen on Tuesdays")
    _assistant(vdir).update(p, content="deploys happen on Fridays")
    head = subprocess.run(["git", "-C", str(vdir), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout
    out = run.ok("inbox", "reject", p[:8])
    assert out.startswith(f"rejected the assistant's change to {p[:8]}")
    assert run.json("show", p)["content"] == "deploys happen on Tuesdays"
    assert run.json("inbox") == []
    _assistant(vdir).update(p, content="deploys happen on Mondays")
    run.ok("undo")  # the person's own later change of the same field: undo is a commit too
    run.ok("restore", p, "--at", head.strip())  # content back to Fridays, by the person
    entries = run.json("inbox")
    assert entries[0]["blocked"] and entries[0]["later"]
    assert "you changed it since" in run.ok("inbox")
    before = run.json("history", p)
    err = run.fails("inbox", "reject", p)
    assert "nothing was written" in err and "you changed memory" in err
    assert run.json("history", p) == before
    report = run.json("inbox", "accept", p)
    assert report["accepted"] == [p]


def test_reject_json_and_restart(run, vdir):
    a = _assistant(vdir).add("an invented fact", memory_id="f00dcafe").id
    run.ok("inbox", "accept", "--all")
    _assistant(vdir).archive(a)
    _assistant(vdir).add("another", memory_id="beefbeef")
    report = run.json("inbox", "reject", "f00d")
    assert report["memory_id"] == a and report["commit"] and len(report["reverted"]) == 1
    assert run.json("show", a)["status"] == "active"
    assert [e["memory_id"] for e in run.json("inbox")] == ["beefbeef"]  # a new process


def test_control_characters_are_neutralised(run, vdir):
    run.add("plain")
    _assistant(vdir).add("evil \x1b[2J text", tags=["t\x07ag"])
    out = run.ok("inbox")
    assert "\x1b" not in out and "\x07" not in out and "\\x1b[2J" in out
