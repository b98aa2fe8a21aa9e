"""``?`` opens help without importing every screen of the app: the classes of every place a key
works (:data:`tui.app.keys_doc.PLACES`) are imported only to check a keymap's ids, so only when
there is a keymap (without one, a first ``?`` imported some twenty screen modules)."""

from __future__ import annotations

import subprocess
import sys

from core import Vault

SCRIPT = """
import asyncio, sys
from tui.app import MemvaultApp
from tui.app.screens.help import HelpScreen
from tui.app.service import VaultService

async def run():
    keymap = {"memvault.archive": "A"} if sys.argv[2] == "keymap" else None
    app = MemvaultApp(VaultService(sys.argv[1]), poll_interval=0, rescore_interval=0,
                      keymap=keymap)
    async with app.run_test() as pilot:
        for _ in range(1000):
            if app.main_screen is not None and app.main_screen.view is not None:
                break
            await pilot.pause(0.02)
        await pilot.press("question_mark")
        for _ in range(1000):
            if isinstance(app.screen, HelpScreen):
                break
            await pilot.pause(0.02)
        print(isinstance(app.screen, HelpScreen), "tui.app.screens.gc" in sys.modules)

asyncio.run(run())
"""


def _help_opened(tmp_path, keymap: str) -> str:
    path = tmp_path / "vault"
    with Vault.open(path) as vault:
        vault.add("Prefers pytest fixtures", tags=["python"])
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(path), keymap],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_help_without_a_keymap_imports_no_other_screen(tmp_path):
    assert _help_opened(tmp_path, "none") == "True False"


def test_help_with_a_keymap_checks_its_ids_against_every_place(tmp_path):
    assert _help_opened(tmp_path, "keymap") == "True True"
