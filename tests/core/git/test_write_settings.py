"""The git settings a write reads (the modes, the compression, the identity,
``core.splitIndex``) come from one ``git config`` the first time a commit needs them
(issue 42: a first commit ran five, each a process the key's result waited for), and mean what
each ``git config --get`` said before."""

from __future__ import annotations



from core import Vault


def test_the_first_archive_of_an_open_reads_git_config_once(vault, git_runs, monkeypatch):
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "GIT_AUTHOR_EMAIL",
                "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(var, raising=False)  # (the identity is looked up in the config)
    vault.add("the user prefers pytest", memory_id="m1")
    vault = Vault.open(vault.root)  # (a new open: nothing read of git's settings yet)
    git_runs.clear()
    vault.archive("m1")
    configs = [argv for argv in git_runs if "config" in argv[:3]]
    assert len(configs) == 1, configs
    assert len(git_runs) <= 7, git_runs  # (it was 11)
    assert vault.get("m1").status == "archived"


def test_the_settings_mean_what_git_config_said(vault, git):
    git(vault.root, "config", "core.compression", "3")
    git(vault.root, "config", "core.splitIndex", "false")
    git(vault.root, "config", "core.fileMode", "off")
    git(vault.root, "config", "user.name", "A Person")
    commands = Vault.open(vault.root).journal.commands
    assert commands.write_settings["core.splitindex"] == "false"
    assert commands.write_settings["user.name"] == "A Person"
    assert commands.file_modes == {"core.filemode": False, "core.symlinks": True}
    assert commands._object_options("tree") == []  # (the person's compression: git's own)
    assert commands._object_options("blob") == []
