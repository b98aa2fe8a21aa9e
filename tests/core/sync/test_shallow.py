"""A shallow clone: `memvault history ID` and `memvault sync status` say that history
before the shallow boundary is missing and name `git fetch --unshallow`; a full clone says
nothing of the kind."""

from __future__ import annotations

import json

from vault_support import run_git
from sync_support import T0, at, make_world, new

from core import Vault
from core.git.shallow import shallow_commits, shallow_note
from core.sync.engine import status
from tui import cli


def test_shallow_commits_from_the_git_directory(tmp_path):
    assert shallow_commits(tmp_path) == [] and shallow_note(tmp_path) is None
    (tmp_path / "shallow").write_text("a" * 40 + "\n" + "b" * 40 + "\n")
    assert shallow_commits(tmp_path) == ["a" * 40, "b" * 40]
    note = shallow_note(tmp_path)
    assert "its 2 boundary commits is missing" in note and "git fetch --unshallow" in note
    (tmp_path / "shallow").write_text("")  # git removes the file when unshallowed; empty: full
    assert shallow_note(tmp_path) is None


def test_history_and_sync_status_in_a_shallow_clone(tmp_path, monkeypatch, capsys):
    world = make_world(tmp_path, second=False)
    a = world.a
    new(a, "m1", "a memory with a past")
    for when in (T0 + 10, T0 + 20):
        at(monkeypatch, when)
        a.vault.touch("m1")
    assert a.sync().pushed
    full_log = len(a.vault.history("m1"))
    assert full_log == 3

    shallow = tmp_path / "shallow-clone"
    run_git(tmp_path, "clone", "-q", "--depth", "1", f"file://{world.remote}", str(shallow))
    vault = Vault.open(shallow)
    assert len(vault.history("m1")) == 1  # the boundary commit only
    assert "git fetch --unshallow" in status(vault)["shallow"]

    assert cli.main(["--vault", str(shallow), "history", "m1"]) == 0
    out = capsys.readouterr().out
    assert "shallow clone" in out and "git fetch --unshallow" in out
    assert cli.main(["--vault", str(shallow), "history", "m1", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)) == 1 and "git fetch --unshallow" in captured.err
    assert cli.main(["--vault", str(shallow), "sync", "status"]) == 0
    assert "git fetch --unshallow" in capsys.readouterr().out
    assert cli.main(["--vault", str(shallow), "sync", "status", "--json"]) == 0
    assert "git fetch --unshallow" in json.loads(capsys.readouterr().out)["shallow"]

    # the full clone says nothing; once unshallowed, neither does this one
    assert status(a.vault)["shallow"] is None
    assert cli.main(["--vault", str(a.vault_dir), "history", "m1"]) == 0
    assert "unshallow" not in capsys.readouterr().out
    run_git(shallow, "fetch", "-q", "--unshallow")
    assert status(Vault.open(shallow))["shallow"] is None
    assert len(Vault.open(shallow).history("m1")) == full_log
