"""What the detail pane says of a highlighted group: its figures in one pass over its members
(a group highlighted as a big vault opens holds most of it, before the tree is painted)."""

from __future__ import annotations

from pathlib import Path

from core import DecayConfig, MemoryStatus
from core.vault.preview import MemorySummary
from tui.app.view import VaultView
from tui.app.widgets.detail import group_figures

from tui_support import DAY, NOW


def _summary(n: int, status: MemoryStatus, idle_days: int) -> MemorySummary:
    return MemorySummary(f"{n:08x}-0000-4000-8000-000000000000", status, 0,
                         NOW - idle_days * DAY, 1.0, NOW - 400 * DAY, (), f"memory {n}")


def test_a_groups_figures_are_its_members_scores_statuses_and_bands():
    summaries = [_summary(1, MemoryStatus.ACTIVE, 0), _summary(2, MemoryStatus.ARCHIVED, 40),
                 _summary(3, MemoryStatus.ACTIVE, 300)]
    view = VaultView.preview(Path("."), summaries, DecayConfig(), NOW)
    rows = list(view.rows.values())
    ids = [r.id for r in rows] + ["not-in-the-view"]
    total, low, high, statuses, in_band = group_figures(view, ids)
    scores = [r.score for r in rows]
    assert (total, low, high) == (sum(scores), min(scores), max(scores))
    assert statuses == {"active": 2, "archived": 1}  # in the order the members come
    assert list(statuses) == ["active", "archived"]
    assert in_band == {band: sum(r.band == band for r in rows) for band in {r.band for r in rows}}
    assert group_figures(view, ["not-in-the-view"]) is None


def test_a_groups_figures_are_made_once_for_a_view():
    """The detail pane asks for a highlighted group's figures again as the tree is redrawn
    around the same cursor (twice as a big vault opens, 0.16-0.19 s each at 100k on the UI
    thread): made once for a view, again for another."""
    from tui.app.groups import Group

    summaries = [_summary(n, MemoryStatus.ACTIVE, n) for n in range(3)]
    view = VaultView.preview(Path("."), summaries, DecayConfig(), NOW)
    group = Group("status:active", "active", 3, list(view.rows))
    made: list[int] = []

    def count(v, ids):
        made.append(1)
        return group_figures(v, ids)

    first = group.figures(view, count)
    assert group.figures(view, count) is first and made == [1]
    other = VaultView.preview(Path("."), summaries, DecayConfig(), NOW + 1)
    group.figures(other, count)
    assert made == [1, 1]
