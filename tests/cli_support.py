"""Shared pieces of the CLI tests: an isolated environment for ``memvault`` runs in-process, and
``run(...)``, which calls ``tui.cli.main`` on a vault in tmp_path. Test modules import the
fixtures by name (``from cli_support import cli_env, run, vdir``)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from tui import cli


@pytest.fixture(autouse=True)
def cli_env(tmp_path, monkeypatch):
    """No state outside tmp_path (a fake HOME and XDG folders, an empty global git config, no
    vault or decay settings from the person running the tests); a wide terminal so tables are
    not cut; a stdin that is not a terminal. Returns the fake HOME."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    gitconfig = tmp_path / "gitconfig-cli"
    gitconfig.write_text("")
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(var, str(home / var.lower()))
    for var in list(os.environ):
        if var.startswith("CORTEXGRAPH_") or var == "MEMVAULT_PATH" or var.startswith("GIT_"):
            monkeypatch.delenv(var)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return home


@pytest.fixture
def vdir(tmp_path) -> Path:
    return tmp_path / "vault"


#: The verbs that make a vault where there is none (at a folder ``--vault`` names, only with
#: ``--create``): the tests' runs of them ask for it, as a person starting a vault there would.
CREATING_VERBS = frozenset({"add", "migrate", "import", "import-markdown"})


class Run:
    """``run("list", "--json")``: main() with ``--vault vdir`` (and ``--create`` before a verb
    of :data:`CREATING_VERBS` unless ``create=False``); returns (status, stdout, stderr)."""

    def __init__(self, capsys, vdir: Path):
        self.capsys, self.vdir = capsys, vdir

    def __call__(self, *argv: str, vault: bool = True, create: bool = True
                 ) -> tuple[int, str, str]:
        self.capsys.readouterr()
        creating = vault and create and bool(argv) and argv[0] in CREATING_VERBS
        args = (["--vault", str(self.vdir)] if vault else []) + (
            ["--create"] if creating else []) + list(argv)
        code = cli.main(args)
        out, err = self.capsys.readouterr()
        return code, out, err

    def ok(self, *argv: str) -> str:
        code, out, err = self(*argv)
        assert code == 0, err
        return out

    def json(self, *argv: str):
        return json.loads(self.ok(*argv, "--json"))

    def add(self, content: str, *extra: str) -> str:
        return self.ok("add", content, *extra).strip()

    def fails(self, *argv: str, code: int = 1) -> str:
        got, out, err = self(*argv)
        assert got == code, (out, err)
        return err


@pytest.fixture
def run(capsys, vdir) -> Run:
    return Run(capsys, vdir)
