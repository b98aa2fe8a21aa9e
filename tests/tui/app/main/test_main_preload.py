"""The app's first paint without heavy imports (issues 42/43): importing the app (its main
screen, the service, the palette) imports none of the screens the keys open nor the parts of
core they run (the wizards' clustering and splitting, undo, provenance, sync); once the open
vault is painted a worker imports them (tui/app/main/preload.py), so a first ``M``, ``v`` or
``I`` does not pay the import on the UI thread."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tui_support import (SIZE, make_app, settle, tui_vault,  # noqa: F401  (fixture)
                         until, worker_starts)

ROOT = Path(__file__).resolve().parents[4]

#: what the first paint does without: core's operations the keys run, and their screens
NOT_AT_FIRST_PAINT = ("core.ops.consolidate", "core.ops.split", "core.ops.split_repeats",
                      "core.ops.revert", "core.ops.provenance", "core.ops.inbox",
                      "core.sync.engine", "tui.app.duplicates", "tui.app.search_rank",
                      "tui.app.screens.consolidate_wizard", "tui.app.screens.split_wizard",
                      "tui.app.screens.inbox")


def _modules_after(script: str) -> list[str]:
    """The names of :data:`NOT_AT_FIRST_PAINT` imported after ``script`` runs in a fresh
    interpreter."""
    code = (f"import json, sys\n{script}\n"
            f"print(json.dumps([m for m in {NOT_AT_FIRST_PAINT!r} if m in sys.modules]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    return list(json.loads(out.strip().splitlines()[-1]))


def test_importing_the_main_screen_imports_none_of_the_keys_screens_or_core_operations():
    assert _modules_after("import tui.app.main.screen, tui.app.service, tui.app") == []


def test_the_preload_imports_every_module_the_first_paint_did_without():
    script = ("import tui.app\nfrom tui.app.main.preload import DEFERRED, preload\n"
              "done = preload()\nassert done and set(done) <= set(DEFERRED), done\n"
              "assert preload() == []  # (once: the second finds them imported)")
    assert _modules_after(script) == list(NOT_AT_FIRST_PAINT)


@pytest.mark.asyncio
async def test_the_preload_runs_in_a_worker_once_the_open_vault_is_painted(tui_vault,
                                                                           monkeypatch):
    from tui.app.main import opening

    started = worker_starts(monkeypatch, "preload")  # (was the open vault painted, in a thread)
    ran: list[str] = []
    monkeypatch.setattr(opening, "preload", lambda: ran.append("preload") or [])
    app = make_app(tui_vault, open_now=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ran)
        await settle(pilot)
        assert started == [(True, True)] and ran == ["preload"]  # (never on the UI thread)
