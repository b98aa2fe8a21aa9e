"""The app shows the last ``memvault sync`` (core.sync.engine's record on this clone): a line in the
stats screen, and a notification at start when conflicts wait for a person."""

from __future__ import annotations

import json

import pytest

from core import Vault
from core.sync.report import RECORD_FILE

from tui_support import said, NOW, SIZE, make_app, settle, text_of, tui_vault  # noqa: F401

sync = pytest.importorskip("core.sync.engine")
pytestmark = pytest.mark.asyncio


def write_record(path, **fields) -> None:
    """A sync record as ``memvault sync`` leaves it (SyncReport.as_dict())."""
    vault = Vault.open(path)
    report = sync.SyncReport(remote="origin", branch="main", time=NOW - 7200, **fields)
    record = vault.journal.state_dir / RECORD_FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(report.as_dict()))
    vault.close()
    assert sync.last_sync(Vault.open(path, readonly=True))["outcome"] == fields["outcome"]


async def test_conflicts_waiting_for_a_person_are_announced_and_listed(tui_vault):
    conflict = {"path": "memories/a1f2e3d4.json", "vault_path": "memories/a1f2e3d4.json",
                "file": str(tui_vault / "sync-conflicts" / "memories" / "a1f2e3d4.json"),
                "reason": "the other side is not a valid memory", "resolved": False}
    write_record(tui_vault, outcome="conflict", message="1 conflict waits for a person",
                 conflicts=[conflict])
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        warnings = [n for n in said(app) if n.title == "sync"]
        assert len(warnings) == 1 and warnings[0].severity == "warning"
        assert "1 conflict waiting for you: memories/a1f2e3d4.json" in warnings[0].message
        assert "(2 hours ago)" in warnings[0].message
        await pilot.press("S")
        await settle(pilot)
        summary = text_of(app.screen.query_one("#stats-summary"))
        assert "last sync" in summary and "2 hours ago · stopped at a conflict" in summary
        assert "sync conflicts" in summary and "the other side is not a valid memory" in summary
        assert "sync-conflicts/memories/a1f2e3d4.json, then run `memvault sync`" in summary


async def test_a_clean_sync_is_a_line_in_stats_and_no_notification(tui_vault):
    write_record(tui_vault, outcome="merged", commits_in=3, commits_out=1, pushed=True)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not [n for n in said(app) if n.title == "sync"]
        await pilot.press("S")
        await settle(pilot)
        summary = text_of(app.screen.query_one("#stats-summary"))
        assert "2 hours ago · merged with origin · 3 commits in, 1 commit out" in summary
        assert "sync conflicts" not in summary
