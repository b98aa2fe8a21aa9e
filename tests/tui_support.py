"""A small, fully deterministic vault for the TUI tests and snapshots, and pilot helpers.

Fixed ids, fixed times (everything is measured from ``NOW``), a split done through
``core.ops.split.execute_split`` with its uuid4 ids made predictable, commit dates pinned through
``GIT_AUTHOR_DATE``/``GIT_COMMITTER_DATE``, and the local time zone set to UTC, so what the app
draws is the same on every machine and every day.
"""

from __future__ import annotations

import subprocess

import os
import time
import uuid
import weakref
from dataclasses import dataclass
from pathlib import Path

import pytest

from core import Memory, MemoryMetadata, MemoryStatus, Vault

NOW = 1_750_000_000  # 2025-06-15 15:06:40 UTC
DAY = 86400
SIZE = (120, 40)


def mid(n: int, prefix: str) -> str:
    return f"{prefix}-0000-4000-8000-{n:012d}"


FRESH = mid(1, "a1f2e3d4")
FADING = mid(2, "b2c3d4e5")
DANGER = mid(3, "c3d4e5f6")
CRITICAL = mid(4, "d4e5f6a7")
STALE = mid(5, "e5f6a7b8")
ARCHIVED = mid(6, "f6a7b8c9")
PROMOTED = mid(7, "a7b8c9d0")
COMPOSITE = mid(8, "b8c9d0e1")
STALE2 = mid(9, "e5f6c0c0")  # shares the prefix "e5f6" with STALE

GIST = ("Prefers pytest with plain assert statements; fixtures live in conftest.py and "
        "parametrize beats loops.")
CONTENT = ("The user prefers pytest with plain assert statements over unittest classes. They "
           "said fixtures should live in conftest.py and that parametrize is better than loops "
           "inside tests. Mentioned while reviewing the CI matrix for the [memvault] repository.")


def _memory(memory_id: str, content: str, tags: list[str], *, last_used_days: float,
            created_days: float, uses: int = 0, strength: float = 1.0, gist: str | None = None,
            status: MemoryStatus = MemoryStatus.ACTIVE, entities: list[str] | None = None) -> Memory:
    return Memory(
        id=memory_id, content=content, gist=gist,
        meta=MemoryMetadata(tags=tags, source="chat"),
        created_at=int(NOW - created_days * DAY), last_used=int(NOW - last_used_days * DAY),
        use_count=uses, strength=strength, status=status, entities=entities or [],
        promoted_at=int(NOW - 2 * DAY) if status == MemoryStatus.PROMOTED else None,
        promoted_to="notes/prefs.md" if status == MemoryStatus.PROMOTED else None,
    )


def memories() -> list[Memory]:
    return [
        _memory(FRESH, CONTENT, ["prefs", "python"], last_used_days=0.1, created_days=40,
                uses=6, gist=GIST, entities=["pytest"]),
        _memory(FADING, "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12.",
                ["ci"], last_used_days=3, created_days=20, uses=1),
        _memory(DANGER, "Never deploy on Fridays: the on-call rota is thin.", ["work", "ci"],
                last_used_days=9, created_days=60),
        _memory(CRITICAL, "The staging database is Postgres 16; production is still on 15.",
                ["ci"], last_used_days=30, created_days=90),
        _memory(STALE, "Wants a standing desk for the home office.", ["home"],
                last_used_days=120, created_days=150),
        _memory(STALE2, "The balcony plants need water every second day in summer.", ["home"],
                last_used_days=100, created_days=130),
        _memory(ARCHIVED, "Dave is on parental leave until the end of the quarter.", ["work"],
                last_used_days=50, created_days=80, status=MemoryStatus.ARCHIVED),
        _memory(PROMOTED, "Prefers short answers first and details only when asked.",
                ["assistant"], last_used_days=1, created_days=100, uses=9, strength=1.5,
                status=MemoryStatus.PROMOTED),
        _memory(COMPOSITE, "Onboarding notes. The laptop needs the VPN client for the wiki.\n\n"
                "Payroll runs on the 25th; expenses go through the finance portal.",
                ["work", "admin"], last_used_days=15, created_days=70, uses=2),
    ]


PART_IDS = [mid(11, "9a9a0001"), mid(12, "9a9a0002")]
REL_IDS = [mid(21, "7e7e0001"), mid(22, "7e7e0002"), mid(23, "7e7e0003"), mid(24, "7e7e0004")]


def build_small_vault(path: Path, monkeypatch: pytest.MonkeyPatch, *, split: bool = True) -> Path:
    """The test vault at ``path``: nine memories, two relations, one split (one commit each
    step, all dated at NOW)."""
    from core.ops.split import execute_split

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setenv("GIT_AUTHOR_DATE", f"{NOW} +0000")
    monkeypatch.setenv("GIT_COMMITTER_DATE", f"{NOW} +0000")
    vault = Vault.open(path)
    vault.save_many(memories())
    from core import Relation

    vault.save_relations([
        Relation(id=REL_IDS[0], from_memory_id=FADING, to_memory_id=FRESH,
                 relation_type="supports", created_at=NOW),
        Relation(id=REL_IDS[1], from_memory_id=DANGER, to_memory_id=FRESH,
                 relation_type="related", created_at=NOW),
    ])
    if split:
        ids = iter([PART_IDS[0], REL_IDS[2], PART_IDS[1], REL_IDS[3]])  # part, its edge, ...
        with monkeypatch.context() as m:
            m.setattr(uuid, "uuid4", lambda: uuid.UUID(next(ids)))
            result = execute_split(vault, COMPOSITE, [
                "The work laptop needs the VPN client for the internal wiki.",
                "Payroll runs on the 25th; expenses go through the finance portal.",
            ], tags=[["work"], ["admin"]])
        # core stamps the parts "used now": pin them to the test clock
        vault.save_many([p.model_copy(update={"last_used": NOW - 2 * DAY})
                         for p in result.parts])
    vault.close()
    return path


@pytest.fixture
def tui_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = Path(os.environ["HOME"])
    return build_small_vault(home / "vault", monkeypatch)


def make_app(path: Path, *, open_now: bool = True, poll_interval: float = 0.0,
             keymap: dict[str, str] | None = None):
    from tui.app import MemvaultApp
    from tui.app.service import VaultService

    service = VaultService(path, clock=lambda: NOW)
    if open_now:
        service.open()
    app = MemvaultApp(service, poll_interval=poll_interval, rescore_interval=0, keymap=keymap)
    app.pane_delay = 0.0  # load provenance and history at once (no resting cursor to wait for)
    record_notes(app)
    return app


@dataclass(frozen=True)
class Note:
    """One notification the app sent, as ``notify`` was given it."""

    message: str
    title: str
    severity: str


_NOTES: weakref.WeakKeyDictionary[object, list[Note]] = weakref.WeakKeyDictionary()


def record_notes(app) -> None:
    """Keep every notification ``app`` sends from now on, read back with ``said(app)``: its
    public ``notify`` wrapped (a screen's or widget's ``notify`` goes through the app's), and
    ``clear_notifications`` clearing the record as it clears the screen."""
    notes: list[Note] = []
    _NOTES[app] = notes
    notify, clear = app.notify, app.clear_notifications

    def recording_notify(message, *, title: str = "", severity: str = "information",
                         timeout: float | None = None, markup: bool = True) -> None:
        notes.append(Note(str(message), title, severity))
        notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def recording_clear() -> None:
        notes.clear()
        clear()

    app.notify = recording_notify
    app.clear_notifications = recording_clear


def said(app) -> list[Note]:
    """The notifications ``app`` sent since ``make_app`` made it (or the last clear), oldest
    first."""
    return list(_NOTES[app])


async def settle(pilot, rounds: int = 2) -> None:
    """Let timers fire, workers finish and their messages land: at least ``rounds`` rounds,
    and then on until ``rounds`` rounds in a row start no worker (on a busy machine a message
    that starts one, such as a tab's activation loading a pane, lands a round or two later
    than on an idle one: a fixed count of pauses read a pane not drawn yet). A test that reads
    one widget waits for that widget's own state with :func:`until`."""
    from textual.worker import WorkerCancelled, WorkerState

    def busy() -> bool:
        return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for w in pilot.app.workers)

    quiet = 0
    for _ in range(rounds + 50):
        await pilot.pause(0.02)
        was_busy = busy()
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:  # a pane load overtaken by a newer one
            pass
        await pilot.pause()
        quiet = 0 if was_busy or busy() else quiet + 1
        if quiet >= rounds:
            return


async def until(pilot, condition, timeout: float = 10.0) -> None:
    """Wait (pausing the pilot) until ``condition()`` holds."""
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("timed out")


def worker_starts(monkeypatch: pytest.MonkeyPatch, group: str) -> list[tuple[bool, bool]]:
    """For each worker of ``group`` the main screen starts: (whether the open vault was painted
    by then, whether the worker runs in a thread). What a test of work that must wait for the
    first paint (the index's build, the preload) reads."""
    from tui.app.main.screen import MainScreen
    from tui.app.widgets.memory_tree import MemoryTree

    painted: list[object] = []
    real_render = MemoryTree.render_lines

    def render_lines(self, crop):  # type: ignore[no-untyped-def]
        if self.view is not None and not self.view.partial and self.root.children:
            painted.append(self.view)
        return real_render(self, crop)

    started: list[tuple[bool, bool]] = []
    real_run_worker = MainScreen.run_worker

    def run_worker(self, work, *args, **kwargs):  # type: ignore[no-untyped-def]
        if kwargs.get("group") == group:
            started.append((self.view in painted, kwargs.get("thread") is True))
        return real_run_worker(self, work, *args, **kwargs)

    monkeypatch.setattr(MemoryTree, "render_lines", render_lines)
    monkeypatch.setattr(MainScreen, "run_worker", run_worker)
    return started


def pane_shows(app, pane_id: str, memory_id: str) -> bool:
    """The provenance (``"provenance"``) or history (``"history"``) pane shows ``memory_id``
    loaded (not "reading…"): what a test reading that pane waits for, with :func:`until`."""
    panes = app.main_screen.query(f"#{pane_id}")
    if not panes:
        return False
    pane = panes.first()
    title = pane.query(f"#{'prov' if pane_id == 'provenance' else pane_id}-title")
    return pane.memory_id == memory_id and bool(title) and "reading" not in text_of(title.first())


def held_app(vault: Path, monkeypatch: pytest.MonkeyPatch, mode: str = "status_tag"):
    """An app on ``vault`` as on a big one (``GLANCE_FROM`` and ``PREVIEW_FROM`` lowered: a
    glance or a first look from the index, then the open) in group ``mode``, whose first look
    and open each wait
    for their gate (``gates["preview"]``, ``gates["open"]``: set them, also when the test
    fails). The index is at HEAD."""
    import threading

    from tui.app import service as service_module

    monkeypatch.setattr(service_module, "GLANCE_FROM", 0)
    monkeypatch.setattr(service_module, "PREVIEW_FROM", 0)
    Vault.open(vault)  # an open leaves the index's summaries and counts at HEAD
    app = make_app(vault, open_now=False)
    app.settings.mode = mode
    gates = {"preview": threading.Event(), "open": threading.Event()}
    for name, gate in gates.items():
        real = getattr(app.service, name)

        def held(_real=real, _gate=gate):
            assert _gate.wait(20)
            return _real()

        monkeypatch.setattr(app.service, name, held)
    return app, gates


def text_of(static) -> str:
    """What a Static shows, as plain text (rich tables included)."""
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(static.content)
    return console.export_text()


def tree_lines(app) -> list[str]:
    """The tree's visible lines as plain text (labels only, no guides)."""
    tree = app.main_screen.memory_tree
    return [("  " * depth_of(node)) + node.label.plain for node in drawn_nodes(tree)]


def drawn_nodes(tree) -> list:
    """The tree's nodes in the order of its visible lines, read with Tree's public
    ``last_line`` and ``get_node_at_line``."""
    return [tree.get_node_at_line(line) for line in range(tree.last_line + 1)]


def depth_of(node) -> int:
    """How deep ``node`` is below the tree's root (0: a child of the root)."""
    depth = 0
    while node.parent is not None and node.parent.parent is not None:
        depth += 1
        node = node.parent
    return depth


def top_labels(app) -> list[str]:
    return [n.label.plain for n in app.main_screen.memory_tree.root.children]


# -- for the split and consolidate wizards ---------------------------------------------------
GARDEN = mid(31, "6a4de111")  # composite: a split candidate (long, four ideas, five tags)
DUPES = [mid(41, "d0d0e001"), mid(42, "d0d0e002"), mid(43, "d0d0e003")]  # one cluster at 0.83
GARDEN_TEXT = (
    "Garden and balcony notes. The tomatoes on the balcony need water every evening in July "
    "and tomato feed every second week.\n\n"
    "Ana, the neighbour downstairs, looks after the plants when we travel; her spare key is in "
    "the blue box by the door.\n\n"
    "The bike room code changed to 4711 in May, and the bike needs new brake pads before the "
    "autumn rides start.\n\n"
    "The building manager, Mr Costa, wants the balcony drain cleared before the first storms "
    "in October, or the rain water runs into the flat below and the ceiling there stains.")
DUPE_TEXTS = [
    "The dentist appointment is on Tuesday 3 July at 09:30 with Dr Silva.",
    "Dentist appointment on Tuesday 3 July at 09:30 with Dr Silva.",
    "Dentist appointment: Tuesday 3 July, 09:30, Dr Silva.",
]


def build_wizard_vault(path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test vault plus a composite memory (a split candidate) and three near-duplicates
    (a cluster at the default threshold), in one more commit dated NOW."""
    build_small_vault(path, monkeypatch)
    vault = Vault.open(path)
    extra = [_memory(GARDEN, GARDEN_TEXT, ["home", "garden", "neighbours", "bike", "building"],
                     last_used_days=5, created_days=45, uses=3, entities=["Ana", "Mr Costa"])]
    for index, (memory_id, text) in enumerate(zip(DUPES, DUPE_TEXTS)):
        extra.append(_memory(memory_id, text, ["health"], last_used_days=2 + index,
                             created_days=10 + index, uses=index + 1, entities=["Dr Silva"]))
    vault.save_many(extra)
    vault.close()
    return path


@pytest.fixture
def wizard_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = Path(os.environ["HOME"])
    return build_wizard_vault(home / "vault", monkeypatch)


async def wait_clusters(pilot, timeout: float = 10.0) -> None:
    """Wait until the consolidate wizard on screen has its clusters (they come from a daemon
    thread, not a worker, so ``settle`` does not wait for them)."""
    waited = 0.0
    while getattr(pilot.app.screen, "clusters", ()) is None and waited < timeout:
        await pilot.pause(0.02)
        waited += 0.02
    await pilot.pause()


def log(path, n: int = 1) -> list[str]:
    """The subjects of the last ``n`` commits of the vault at ``path``, newest first."""
    out = subprocess.run(["git", "-C", str(path), "log", f"-{n}", "--format=%s"],
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def on_disk(path) -> Vault:
    """The vault as the files hold it now (read-only: opening it writes nothing)."""
    return Vault.open(path, readonly=True)


async def goto(pilot, memory_id: str) -> None:
    pilot.app.main_screen.jumps.jump(memory_id)
    await settle(pilot, 1)
