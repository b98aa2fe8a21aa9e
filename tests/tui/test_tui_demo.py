"""The demo vault (``memvault demo``) and the app's command-line verbs."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from core import PROVENANCE_RELATION_TYPES, MemoryStatus, Vault
from core.ops.inbox import inbox
from core.ops.provenance import lineage
from tui import cli
from tui.demo import build_demo
from tui.demo.content import COMPOSITES, RELATIONS, WAITING_COMPOSITE
from tui.app.view import VaultView

NOW = 1_750_000_000


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = tmp_path_factory.mktemp("demo") / "vault"
    return build_demo(path, now=NOW)


def test_demo_vault_is_realistic(demo):
    vault = Vault.open(demo.path, readonly=True)
    memories = list(vault.memories.values())
    assert len(memories) >= 150 and demo.memories == len(memories)
    statuses = Counter(m.status for m in memories)
    assert statuses[MemoryStatus.ARCHIVED] >= 5 and statuses[MemoryStatus.PROMOTED] >= 5
    assert demo.splits == 3 and demo.consolidations == 3
    tags = {t for m in memories for t in m.meta.tags}
    assert len(tags) >= 10
    view = VaultView.build(vault.root, memories, vault.relations, vault.config, NOW)
    bands = Counter(row.band for row in view.rows.values())
    assert all(bands[b] >= 5 for b in ("fresh", "fading", "danger", "critical", "forget")), bands
    assert sum(1 for m in memories if m.gist) >= 30  # and many without: both cases show
    types = Counter(r.relation_type for r in vault.relations.values())
    assert types["split_from"] >= 6 and types["consolidated_from"] >= 6
    assert sum(types[t] for t in types if t not in PROVENANCE_RELATION_TYPES) >= 5


def test_demo_history_is_real_and_dated(demo):
    vault = Vault.open(demo.path)
    log = subprocess.run(["git", "-C", str(demo.path), "log", "--format=%at %s"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(log) >= 50
    times = [int(line.split(" ", 1)[0]) for line in log]
    assert times == sorted(times, reverse=True)  # replayed in time order
    assert times[0] <= NOW and times[-1] < NOW - 150 * 86400
    subjects = [line.split(" ", 1)[1] for line in log]
    for verb in ("add:", "touch:", "split:", "consolidate:", "archive:", "promote:", "update:",
                 "relate:", "delete:"):
        assert any(s.startswith(verb) for s in subjects), verb
    # provenance through core: a merge whose sources were deleted shows them as gone
    merged = next(r.from_memory_id for r in vault.relations.values()
                  if r.relation_type == "consolidated_from"
                  and r.to_memory_id not in vault.memories)
    found = lineage(vault, merged)
    gone = [n for n in found.nodes.values() if n.gone]
    assert gone and all(n.memory is not None for n in gone)  # last versions from git


_SMALL_WORDS = frozenset(
    "that with this from they them their have will when what which there about into over only "
    "than then been were also should must each every after before other some more most does "
    "like same once first next".split())


def _content_words(text: str) -> set[str]:
    """The words of ``text`` that say what it is about: four letters or more, not among the
    small words, a plural's ``s`` dropped."""
    out = set()
    for word in re.findall(r"[a-z][a-z'-]+", text.lower()):
        word = word.strip("'-")
        if len(word) >= 4 and word not in _SMALL_WORDS:
            out.add(word[:-1] if word.endswith("s") and not word.endswith("ss") else word)
    return out


def test_demo_inbox_has_an_assistants_add_update_and_archive(demo):
    """The demo shows the review inbox: writes an MCP client and Claude's memory tool made
    through their doors, left unreviewed (the demo used to say "Nothing to review")."""
    vault = Vault.open(demo.path, readonly=True)
    entries = inbox(vault)
    by_operation = {e.operation: e for e in entries}
    assert {"added", "changed", "archived"} <= set(by_operation), [e.operation for e in entries]
    assert {c for e in entries for c in e.clients} == {"mcp/claude-code",
                                                       "anthropic/memory-tool"}
    assert any(c.field == "content" for c in by_operation["changed"].changes)
    log = subprocess.run(["git", "-C", str(demo.path), "log", "--format=%B"],
                         capture_output=True, text=True, check=True).stdout
    assert log.count("Memvault-Via: mcp/claude-code") == 3  # save, relate, archive
    assert log.count("Memvault-Via: anthropic/memory-tool\nMemvault-Tool: str_replace") == 1


def test_demo_relations_join_memories_that_share_a_word(demo):
    """Every relation the person made joins two memories about one thing: they share a content
    word (the demo used to relate random memories of a tag: "Uses a password manager"
    similar_to "Donates to the local food bank")."""
    vault = Vault.open(demo.path, readonly=True)
    made = [r for r in vault.relations.values()
            if r.relation_type not in PROVENANCE_RELATION_TYPES]
    assert len(made) == len(RELATIONS) + 1  # and the assistant's supersedes
    for r in made:
        a, b = vault.memories[r.from_memory_id], vault.memories[r.to_memory_id]
        assert _content_words(a.content) & _content_words(b.content), (
            a.content, r.relation_type, b.content)


def test_demo_memories_are_each_about_one_subject(demo):
    """Each sentence of a memory shares a content word with the sentences before it (the demo
    used to glue a fact to a sentence from elsewhere: "Runs three times a week... This matters
    for restaurant suggestions"); the composite memories are the deliberate exceptions."""
    vault = Vault.open(demo.path, readonly=True)
    composite = {c for c, _tags, _parts in COMPOSITES} | {WAITING_COMPOSITE[0]}
    checked = 0
    for m in vault.memories.values():
        if m.content in composite:
            continue
        sentences = re.split(r"(?<=[.!?])\s+", m.content.strip())
        for index in range(1, len(sentences)):
            before = _content_words(" ".join(sentences[:index]))
            assert _content_words(sentences[index]) & before, m.content
            checked += 1
    assert checked >= 30  # the check ran on many memories of two sentences


def test_demo_is_built_with_few_git_processes(tmp_path, git_runs):
    """Its history goes through one ``git fast-import`` (core/git/batch.py): the first run of
    ``memvault demo`` is the README's "a few seconds" (issue 42: it ran 300 git processes, three
    a commit, and flushed each file: 75 s to the first frame on a loaded machine)."""
    report = build_demo(tmp_path / "vault", now=NOW)
    assert report.memories >= 150
    assert len(git_runs) <= 30, Counter(argv[0] for argv in git_runs)
    assert sum(argv[0] == "fast-import" for argv in git_runs) == 1
    status = subprocess.run(["git", "-C", str(report.path), "status", "--porcelain"],
                            capture_output=True, text=True, check=True).stdout
    assert status == ""


def test_demo_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "something").write_text("x")
    with pytest.raises(Exception, match="not empty"):
        build_demo(tmp_path, now=NOW)


def test_cli_demo_without_opening(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    target = tmp_path / "demo-vault"
    assert cli.main(["demo", str(target), "--no-open"]) == 0
    out = capsys.readouterr().out
    assert "memories" in out and f"memvault --vault {target.resolve()}" in out
    assert len(list((target / "memories").glob("*.json"))) >= 150


def test_cli_tui_needs_a_vault(tmp_path, capsys):
    assert cli.main(["--vault", str(tmp_path / "none"), "tui"]) == 1
    assert "no vault at" in capsys.readouterr().err


def test_no_verb_off_a_terminal_prints_the_overview(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    vault = Vault.open(tmp_path / "v")
    vault.add("one memory")
    vault.close()
    assert cli.main(["--vault", str(tmp_path / "v")]) == 0
    out = capsys.readouterr().out
    assert "memories: 1" in out and "tui" in out and "demo" in out


def test_no_verb_on_a_terminal_opens_the_app(tmp_path, monkeypatch):
    from tui.cli import app as app_cli

    vault = Vault.open(tmp_path / "v")
    vault.add("one memory")
    vault.close()
    opened = []
    monkeypatch.setattr(app_cli, "interactive", lambda: True)
    monkeypatch.setattr(app_cli, "launch", lambda path: opened.append(path) or 0)
    assert cli.main(["--vault", str(tmp_path / "v")]) == 0
    assert opened == [tmp_path / "v"]
    monkeypatch.setenv("MEMVAULT_KEYMAP", "memvault.archive=A; memvault.delete=D,ctrl+d")
    from tui.app import parse_keymap

    assert parse_keymap("memvault.archive=A; memvault.delete=D,ctrl+d; junk") == {
        "memvault.archive": "A", "memvault.delete": "D,ctrl+d"}


@pytest.mark.parametrize("argv", [["demo", "--vault", "{target}", "--no-open"],
                                  ["--vault", "{target}", "demo", "--no-open"]])
def test_cli_demo_builds_in_the_vault_it_is_given(tmp_path, capsys, monkeypatch, argv):
    """`memvault demo --vault DIR` builds the demo in DIR (it used to ignore --vault and build
    in a temporary folder)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    target = tmp_path / "given"
    assert cli.main([a.format(target=target) for a in argv]) == 0
    assert f"memvault --vault {target.resolve()}" in capsys.readouterr().out
    assert len(list((target / "memories").glob("*.json"))) >= 150


def test_cli_demo_refuses_two_different_folders(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli.main(["demo", str(a), "--vault", str(b), "--no-open"]) == 1
    assert "two folders" in capsys.readouterr().err
    assert not a.exists() and not b.exists()


def test_cli_demo_prints_a_command_that_runs_outside_the_venv(tmp_path, capsys, monkeypatch):
    """With no ``memvault`` on PATH (a venv not activated), the command to open the demo again
    is one that runs: the venv's own script."""
    empty = os.path.dirname(shutil.which("git") or "/usr/bin/git")  # git, and no memvault
    if shutil.which("memvault", path=empty):
        pytest.skip(f"memvault is installed in {empty}")
    monkeypatch.setenv("PATH", empty)
    folder = tmp_path / "demo vault"
    assert cli.main(["demo", str(folder), "--no-open"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("open it again")][0]
    command = shlex.split(line.partition("with: ")[2])
    assert command[0] != "memvault" and command[-2:] == ["--vault", str(folder)]
    run = subprocess.run([*command, "tui", "--json"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PATH": empty})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["vault"] == str(folder)


def test_cli_demo_that_opens_the_app_prints_open_it_again_once(tmp_path, capsys, monkeypatch):
    """The line is printed after the app closes, not also before it (where the app's screen
    covered it and the terminal showed it twice once the app was gone)."""
    import tui.cli.app as app_verb

    opened: list[Path] = []
    monkeypatch.setattr(app_verb, "interactive", lambda: True)
    monkeypatch.setattr(app_verb, "launch", lambda path: opened.append(path) or 0)
    assert cli.main(["demo", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr().out
    assert opened == [tmp_path / "demo"] and out.count("open it again with:") == 1
    assert out.rstrip().splitlines()[-1].startswith("open it again with:")
