"""``memvault sync install`` (core.sync.install) commits the ``.gitattributes`` lines through the
vault's write path, as every other write: the write path is the one caller of the journal's
commit, and its commits carry the trailers of whoever writes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core.sync.install import ATTRIBUTES_FILE, attribute_lines, install, installed

ROOT = Path(__file__).resolve().parents[3]
WRITE_PATH = "core/vault/writing.py"


def journal_commit_callers() -> set[str]:
    """The modules of core and tui that call a journal's ``commit`` (``journal.commit(...)``,
    ``x.journal.commit(...)``)."""
    callers = set()
    for package in ("core", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "commit"):
                    continue
                owner = node.func.value
                if (isinstance(owner, ast.Name) and owner.id == "journal") or (
                        isinstance(owner, ast.Attribute) and owner.attr == "journal"):
                    callers.add(path.relative_to(ROOT).as_posix())
    return callers


def test_only_the_write_path_calls_the_journals_commit() -> None:
    assert journal_commit_callers() == {WRITE_PATH}


def test_the_scan_finds_a_call_of_the_journals_commit() -> None:
    tree = ast.parse("vault.journal.commit('m', {})\njournal.commit('m', {})\nself.commit()")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert sum(isinstance(c.func, ast.Attribute) and c.func.attr == "commit" for c in calls) == 3
    assert WRITE_PATH in journal_commit_callers()


def test_install_commits_the_attributes_with_the_writers_trailers(vault, git) -> None:
    view = vault.acting_for(via="mcp/tester", tool="sync_install")
    report = install(view)
    assert report.commit is not None and report.commit == vault.journal.head()
    assert view.write_path.state.head == report.commit  # the vault saw its own commit
    message = git(vault.root, "log", "-1", "--format=%B")
    assert message.splitlines()[0] == "sync: install merge driver"
    assert "Memvault-Via: mcp/tester" in message and "Memvault-Tool: sync_install" in message
    written = (vault.journal.worktree / ATTRIBUTES_FILE).read_text().splitlines()
    assert set(attribute_lines(vault.journal)) <= set(written)
    assert installed(vault)
    assert install(vault).commit is None  # idempotent: nothing more to commit


def test_the_write_path_refuses_a_vault_file_as_a_repository_file(vault) -> None:
    memory = vault.add("a memory")
    head = vault.journal.head()
    path = vault.layout.memory_path(memory.id)
    with vault.transaction(), pytest.raises(ValueError, match="vault file"):
        vault.write_path.commit_repository_files("sneak", {path: b"{}"})
    assert vault.journal.head() == head and vault.get(memory.id) == memory
