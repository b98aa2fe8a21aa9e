"""The app follows what an assistant writes over MCP (issue: let the assistant in): a memory
saved by another process appears within 2 s with no key pressed (the app's default polling),
and use records the assistant leaves on disk are committed as use records, never as a person's
outside edits."""

from __future__ import annotations

import subprocess
import time

from core import Vault
from tui.app import MemvaultApp

from tui_support import SIZE, STALE, make_app, settle, tui_vault  # noqa: F401


def log(path) -> list[str]:
    return subprocess.run(["git", "-C", str(path), "log", "--format=%s"], capture_output=True,
                          text=True, check=True).stdout.splitlines()


DEFAULT_POLL = MemvaultApp.__init__.__kwdefaults__["poll_interval"]


async def _until(pilot, app, done, seconds: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        await pilot.pause(0.05)
        if done():
            break
    await app.workers.wait_for_complete()
    return time.monotonic() - started


async def test_a_memory_saved_by_the_assistant_appears_within_two_seconds(tui_vault):
    assert DEFAULT_POLL <= 2.0
    app = make_app(tui_vault, poll_interval=DEFAULT_POLL)  # as a person runs it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assistant = Vault.open(tui_vault, via="mcp/claude-code")
        assistant.add("The user's new laptop is a ThinkPad X1.", tags=["hardware"],
                      memory_id="a551a551-mcp")
        await _until(pilot, app, lambda: "a551a551-mcp" in app.main_screen.view.rows, 4.0)
        assert "a551a551-mcp" in app.main_screen.view.rows


async def test_the_assistants_use_records_are_not_taken_for_a_persons_edit(tui_vault):
    app = make_app(tui_vault, poll_interval=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.main_screen.view.rows[STALE].memory.use_count
        assistant = Vault.open(tui_vault, via="mcp/claude-code")
        assistant.record_use([STALE])  # a search returned it: on disk, no commit yet
        await _until(pilot, app,
                     lambda: app.main_screen.view.rows[STALE].memory.use_count == before + 1, 4.0)
        assert app.main_screen.view.rows[STALE].memory.use_count == before + 1
        assert not any(subject.startswith("external:") for subject in log(tui_vault)[:3])
        assert log(tui_vault)[0].startswith("use: 1 memory")
