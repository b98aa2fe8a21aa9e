"""The app's first frame (issue 43: the app usable in two seconds at 100k): launched on a path
(as ``memvault`` launches it), the app paints the tree's groups and their counts before the
vault, pydantic and the main screen are imported (tui/app/first_frame.py), then the main screen
takes its place and opens the vault; its counts are the glance's; a vault cloned without its
index, an index of another version or a half-written one are painted from the folder's names
or not at all, and open as before."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from core import MemoryStatus, Vault
from core.search.index import SCHEMA_VERSION, index_path

from tui_support import SIZE, record_notes, said, settle, tui_vault, until  # noqa: F401  (tui_vault: fixture)

ROOT = Path(__file__).resolve().parents[3]

#: A child process: the app launched on ``argv[1]`` headless; at the first paint of a tree with
#: rows, which of the heavy modules are imported and what the tree shows; then, once the main
#: screen shows the open vault, its groups' labels.
CHILD = """
import asyncio, json, sys
from textual.widgets import Tree
from tui.app import MemvaultApp
from tui.app.settings import Loaded, Settings
first = []
original = Tree.render_lines
def render_lines(self, crop):
    if self.root.children and not first:
        first.append({"heavy": [m for m in ("core.vault", "pydantic", "git", "core.model.records",
                                             "tui.app.main.screen", "tui.app.service")
                                if m in sys.modules],
                      "screen": type(self.screen).__name__,
                      "labels": [str(c.label) for c in self.root.children]})
    return original(self, crop)
Tree.render_lines = render_lines
async def main():
    app = MemvaultApp(sys.argv[1], poll_interval=0, rescore_interval=0,
                      settings=Loaded(Settings()))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(1500):
            main = app.main_screen
            if main is not None and main.view is not None and not main.view.partial:
                break
            await pilot.pause(0.02)
        await app.workers.wait_for_complete()
        main = app.main_screen
        print(json.dumps({"first": first[0] if first else None,
                          "opened": len(main.view.rows),
                          "screen": type(app.screen).__name__}))
asyncio.run(main())
"""


def _launch(vault: Path, tmp_path: Path) -> dict:
    env_config = {"MEMVAULT_CONFIG_DIR": str(tmp_path / "config")}
    import os

    out = subprocess.run([sys.executable, "-c", CHILD, str(vault)], capture_output=True,
                         text=True, cwd=ROOT, env={**os.environ, **env_config}, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _with_index(vault: Path) -> Path:
    """The vault opened once and its derived index written (its summaries: the counts)."""
    opened = Vault.open(vault)
    opened.wait_for_open_index()
    opened.close()
    return vault


def test_the_first_frame_is_painted_before_the_vault_pydantic_or_the_main_screen_is_imported(
        tui_vault, tmp_path):
    from core.vault.preview import read_glance

    glance = read_glance(_with_index(tui_vault))
    assert glance is not None
    found = _launch(tui_vault, tmp_path)
    first = found["first"]
    assert first["screen"] == "FirstFrame" and first["heavy"] == []
    assert first["labels"] == [f"{s.value}  {glance.statuses[s]}" for s in MemoryStatus
                               if glance.statuses.get(s)]
    assert found["screen"] == "MainScreen" and found["opened"] == glance.total


def test_the_first_frame_counts_are_the_glance_counts(tui_vault):
    from core.store.layout import MEMORIES_DIR
    from core.vault.preview import read_glance
    from tui.app.first_frame import MEMORIES_FOLDER, STATUS_ORDER, read_first_counts

    assert STATUS_ORDER == tuple(s.value for s in MemoryStatus)
    assert MEMORIES_FOLDER == MEMORIES_DIR  # (the index's commit key is read where core keeps it)
    glance = read_glance(_with_index(tui_vault))
    counts = read_first_counts(tui_vault)
    assert glance is not None and counts is not None and counts.total == glance.total
    assert [(s, n) for s, n, _ in counts.statuses] == \
        [(s.value, glance.statuses[s]) for s in MemoryStatus if glance.statuses.get(s)]
    assert {(s, t): n for s, _, tags in counts.statuses for t, n in tags.items()} == \
        {(s.value, t): n for (s, t), n in glance.tags.items()}


def _older_index(vault: Path) -> None:
    with sqlite3.connect(index_path(vault)) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")


def _half_written_index(vault: Path) -> None:
    path = index_path(vault)
    path.write_bytes(path.read_bytes()[:5000])  # (cut as a killed writer might leave it)
    for extra in ("-wal", "-shm"):
        path.with_name(path.name + extra).unlink(missing_ok=True)


def _a_memory_pulled_in(vault: Path) -> None:
    """One more memory committed by git alone, as a pull brings it: the index's rows are of the
    commit before (their counts are not the vault's)."""
    source = next((vault / "memories").rglob("*.json"))
    record = json.loads(source.read_text())
    record["id"] = "0f0f0f0f-0000-4000-8000-0000000000aa"
    target = source.with_name(record["id"] + ".json")
    target.write_text(json.dumps(record, indent=2))
    target.chmod(0o600)
    git = ["git", "-C", str(vault), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "add", "--", str(target.relative_to(vault))], check=True)
    subprocess.run([*git, "commit", "-qm", "add: pulled in"], check=True)


@pytest.mark.parametrize("damage", ["no index", "older", "half-written", "of another commit"])
def test_a_vault_without_a_usable_index_is_counted_from_its_files_and_opens(tui_vault,
                                                                            tmp_path, damage):
    from tui.app.first_frame import FirstFrame, read_first_counts

    _with_index(tui_vault)
    if damage == "no index":
        index_path(tui_vault).unlink()
    elif damage == "older":
        _older_index(tui_vault)
    elif damage == "half-written":
        _half_written_index(tui_vault)
    else:
        _a_memory_pulled_in(tui_vault)
    total = len(list((tui_vault / "memories").rglob("*.json")))
    counts = read_first_counts(tui_vault)
    assert counts is not None and (counts.total, counts.statuses) == (total, [])
    assert [str(n.label) for n in FirstFrame(counts, "v").count_tree().root.children] == \
        [f"{total} memories, reading them…"]
    found = _launch(tui_vault, tmp_path)
    assert found["screen"] == "MainScreen" and found["opened"] == total


@pytest.mark.asyncio
async def test_launched_on_a_path_the_main_screen_takes_the_glance_and_its_keys_work(
        tui_vault, monkeypatch):
    from tui.app import MemvaultApp, service
    from tui.app.first_frame import FirstFrame
    from tui.app.main.opening import VaultOpening

    monkeypatch.setattr(service, "GLANCE_FROM", 1)  # (a glance for the small vault)
    glanced, drawn = [], []
    read, paint = service.VaultService.glance, VaultOpening.paint_first
    monkeypatch.setattr(service.VaultService, "glance",
                        lambda self: glanced.append(1) or read(self))
    monkeypatch.setattr(VaultOpening, "paint_first", lambda self, view, painted: (
        drawn.append(view.glance is not None), paint(self, view, painted))[1])
    _with_index(tui_vault)
    app = MemvaultApp(tui_vault, poll_interval=0, rescore_interval=0)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, FirstFrame)
        await until(pilot, lambda: app.main_screen is not None)
        main = app.main_screen
        await until(pilot, lambda: main.view is not None and not main.view.partial)
        await settle(pilot)
        assert app.screen is main and main.check_action("archive", ()) is True
        memory_id = next(i for i, row in main.view.rows.items()
                         if row.memory.status is MemoryStatus.ACTIVE)
        main.jumps.jump(memory_id)
        await until(pilot, lambda: main.current == memory_id)
        view = main.view
        await pilot.press("a")
        await until(pilot, lambda: main.view is not view)
        await settle(pilot)
    # the main screen drew the glance read with the imports at once (never an empty tree
    # between the first frame and it), and did not read it again
    assert drawn == [True] and glanced == [1]
    assert Vault.open(tui_vault).get(memory_id).status is MemoryStatus.ARCHIVED


@pytest.mark.asyncio
async def test_help_opened_on_the_first_frame_stays_until_closed_then_the_main_screen_shows(
        tui_vault, monkeypatch):
    import threading

    from tui.app import MemvaultApp, service
    from tui.app.first_frame import FirstFrame
    from tui.app.screens.help import HelpScreen

    gate = threading.Event()
    read = service.VaultService.glance
    monkeypatch.setattr(service.VaultService, "glance",
                        lambda self: gate.wait(10) and read(self))  # (the imports held)
    app = MemvaultApp(tui_vault, poll_interval=0, rescore_interval=0)
    record_notes(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, FirstFrame)
            await pilot.press("comma")  # (the settings wait for the vault: said)
            await until(pilot, lambda: any("settings open once" in n.message
                                           for n in said(app)))
            await pilot.press("down", "question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            gate.set()
            await until(pilot, lambda: app.main_waiting is not None)
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen) and app.main_screen is None
            await pilot.press("escape")
            await until(pilot, lambda: app.main_screen is not None
                        and app.screen is app.main_screen)
            main = app.main_screen
            await until(pilot, lambda: main.view is not None and not main.view.partial)
    finally:
        gate.set()


def _lines(tree) -> list[tuple[int, str, bool]]:
    """Every line the tree shows: (depth, label, open)."""
    out: list[tuple[int, str, bool]] = []

    def walk(node, depth: int) -> None:
        for child in node.children:
            out.append((depth, str(child.label), child.is_expanded))
            if child.is_expanded:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return out


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["status_tag", "tag"])
async def test_the_first_frame_draws_what_the_main_screens_glance_then_draws(tui_vault,
                                                                             monkeypatch, mode):
    import threading

    from tui.app import MemvaultApp, service
    from tui.app.first_frame import FirstFrame

    monkeypatch.setattr(service, "GLANCE_FROM", 1)  # (a glance for the small vault)
    gate, opening = threading.Event(), threading.Event()
    read, open_ = service.VaultService.glance, service.VaultService.open
    monkeypatch.setattr(service.VaultService, "glance", lambda self: gate.wait(10) and read(self))
    monkeypatch.setattr(service.VaultService, "open", lambda self: opening.wait(10) and open_(self))
    _with_index(tui_vault)
    app = MemvaultApp(tui_vault, poll_interval=0, rescore_interval=0)
    app.settings.mode = mode
    try:
        async with app.run_test(size=SIZE) as pilot:
            frame = app.screen
            assert isinstance(frame, FirstFrame)
            first, title = _lines(frame.query_one("#tree")), frame.query_one("#tree").border_title
            gate.set()
            await until(pilot, lambda: app.main_screen is not None
                        and app.screen is app.main_screen and app.main_screen.view is not None)
            main = app.main_screen
            await pilot.pause()
            assert main.view.glance is not None
            assert _lines(main.memory_tree) == first and main.memory_tree.border_title == title
            opening.set()
            await until(pilot, lambda: not main.view.partial)
    finally:
        gate.set()
        opening.set()


def test_the_first_frame_in_a_grouping_counts_cannot_draw_says_how_many(tui_vault):
    from tui.app.first_frame import FirstFrame, read_first_counts

    counts = read_first_counts(_with_index(tui_vault))
    lines = [str(n.label) for n in FirstFrame(counts, "v", "band").count_tree().root.children]
    assert lines == [f"{counts.total} memories, reading them…"]


def test_the_vaults_folder_in_its_repository_is_the_one_git_names(tmp_path):
    from tui.app.first_frame import repository_folder

    top = tmp_path / "repo"
    (top / "notes" / "vault").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    for place in (top, top / "notes" / "vault"):
        said = subprocess.run(["git", "rev-parse", "--show-prefix"], cwd=place, check=True,
                              capture_output=True, text=True).stdout.strip().rstrip("/")
        assert repository_folder(place) == (said or ".")
    assert repository_folder(tmp_path) is None


@pytest.mark.asyncio
async def test_a_service_that_cannot_be_made_is_said_on_the_first_frame(tui_vault, monkeypatch):
    from core import VaultError
    from tui.app import MemvaultApp, service
    from tui.app.first_frame import FirstFrame

    def refuse(self, *args, **kwargs):
        raise VaultError("no such vault \x1b[31m")

    monkeypatch.setattr(service.VaultService, "__init__", refuse)
    app = MemvaultApp(tui_vault, poll_interval=0, rescore_interval=0)
    record_notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: any("no such vault" in n.message for n in said(app)))
        assert not any("\x1b" in n.message for n in said(app))
        assert isinstance(app.screen, FirstFrame) and app.main_screen is None
        assert app.screen.query_one("#tree").border_title == "memories"


def test_a_memories_folder_that_is_a_symlink_is_not_followed(tmp_path):
    from tui.app.first_frame import read_first_counts

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.json").write_text("{}")
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "memories").symlink_to(elsewhere)
    assert read_first_counts(tmp_path / "vault") is None


def test_the_main_screens_glance_is_made_from_the_first_frames_counts(tui_vault, monkeypatch):
    """The index's counts are read once (~0.1 s of CPU at 100k memories, read twice before):
    the first frame's, of HEAD, make the main screen's glance as a read of its own would."""
    from core.vault.preview import read_glance
    from tui.app import service as service_module
    from tui.app.first_frame import read_first_counts
    from tui.app.service import VaultService

    vault = _with_index(tui_vault)
    expected = read_glance(vault)
    counts = read_first_counts(vault)
    assert expected is not None and counts is not None and counts.read is not None
    monkeypatch.setattr(service_module, "GLANCE_FROM", 1)
    monkeypatch.setattr(service_module, "read_glance",
                        lambda *a, **k: pytest.fail("the counts were read again"))
    service = VaultService(vault)
    service.counted = counts.read
    view = service.glance()
    assert view is not None and view.glance == expected
