"""The app's wizards commit the plan they showed (tui/app/service.py): the same ids, or a clear
refusal and nothing written when the vault changed in between."""

from __future__ import annotations

import subprocess

import pytest

from core import Vault
from core.vault import StalePlanError
from tui.app.service import VaultService

from tui_support import DUPES, wizard_vault  # noqa: F401  (a fixture)

TEXT = ("The tomatoes need water every morning in July. Ana from next door lends us her "
        "ladder on weekends. The bike's brake pads must be changed before the trip.")
PARTS = [s.strip() + "." for s in TEXT.split(".") if s.strip()]


def _head(root) -> str:
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_split_commits_the_ids_the_preview_showed(tmp_path):
    memory = Vault.open(tmp_path / "v").add(TEXT)
    service = VaultService(tmp_path / "v")
    service.open()
    preview = service.wizards.plan_split(memory.id, PARTS)
    change = service.wizards.split(preview)
    assert change.focus == preview.parts[0].id
    assert set(change.ids) >= {p.id for p in preview.parts}
    assert all(p.id in Vault.open(tmp_path / "v").memories for p in preview.parts)


def test_a_merge_planned_before_another_process_changed_a_source_is_refused(tmp_path):
    vault = Vault.open(tmp_path / "v")
    a = vault.add("The staging database lives on db-2 and is restored every night.")
    b = vault.add("Staging database: db-2, restored nightly from production backups.")
    service = VaultService(tmp_path / "v")
    service.open()
    preview = service.wizards.plan_consolidation([a.id, b.id])
    Vault.open(tmp_path / "v").update(b.id, content="Staging database moved to db-3.")
    before = _head(tmp_path / "v")
    with pytest.raises(StalePlanError, match=f"memory {b.id[:8]}"):
        service.wizards.consolidate(preview)
    assert _head(tmp_path / "v") == before
    fresh = service.wizards.plan_consolidation([a.id, b.id])  # planning again shows the change
    assert "db-3" in fresh.plan.merged.content
    change = service.wizards.consolidate(fresh)
    assert change.focus == fresh.plan.merged.id



def test_clusters_are_found_again_only_when_the_vault_moved_on(wizard_vault, monkeypatch):
    """Issue 42: ``M`` clustered every active memory each time it opened (5.2 s of CPU cold at
    10k memories); the duplicates' grouping did it again. Found once a commit and threshold."""
    import core.ops.consolidate as consolidate

    service = VaultService(wizard_vault)
    service.open()
    runs = []
    real = consolidate.find_clusters
    monkeypatch.setattr(consolidate, "find_clusters",
                        lambda *args, **kw: runs.append(kw.get("threshold")) or real(*args, **kw))
    first = service.wizards.clusters()
    again = service.wizards.clusters()
    assert [sorted(m.id for m in c.members) for c in again] == [sorted(DUPES)]
    assert again == first and again is not first and len(runs) == 1  # not found again
    service.wizards.clusters(0.55)
    assert len(runs) == 2  # another threshold
    service.bulk.archive_many([DUPES[0]])
    after = service.wizards.clusters()
    assert len(runs) == 3 and [len(c.members) for c in after] == [2]  # a commit: found again
