"""One write path: a plan is the preview, and ``Vault.apply`` commits exactly it (the ids it
showed), or refuses it, writing nothing, when a later commit changed what it would write."""

from __future__ import annotations

import subprocess

import pytest

from core import Vault
from core.ops.consolidate import apply_consolidation, plan_consolidation
from core.ops.split import apply_split, plan_split
from core.ops.maintenance import META_KEY, MaintenanceRefused
from core.vault import Plan, StalePlanError

TEXT = ("The tomatoes need water every morning in July. Ana from next door lends us her "
        "ladder on weekends. The bike's brake pads must be changed before the trip.")


def _head(vault: Vault) -> str:
    return subprocess.run(["git", "-C", str(vault.root), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()


def _parts() -> list[str]:
    return [s.strip() + "." for s in TEXT.split(".") if s.strip()]


def test_the_split_committed_is_the_preview(tmp_path):
    vault = Vault.open(tmp_path / "v")
    memory = vault.add(TEXT, tags=["home"])
    plan = plan_split(vault, memory.id, _parts())
    shown = [m.id for m in plan.put_memories[:3]]
    assert plan.base == _head(vault)
    result = apply_split(vault, plan)
    assert [m.id for m in result.parts] == shown
    assert result.commit == _head(vault) == plan.commit
    again = Vault.open(tmp_path / "v")
    assert all(i in again.memories for i in shown)
    assert again.get(memory.id).status.value == "archived"
    assert all(i[:8] in plan.message for i in shown)


def test_a_plan_is_refused_when_its_memory_changed_since(tmp_path):
    vault = Vault.open(tmp_path / "v")
    memory = vault.add(TEXT)
    plan = plan_split(vault, memory.id, _parts())
    other = Vault.open(tmp_path / "v")  # another process edits the memory meanwhile
    other.update(memory.id, content=TEXT + " Also: buy seeds.")
    before = _head(vault)
    with pytest.raises(StalePlanError, match=f"memory {memory.id[:8]} changed"):
        apply_split(vault, plan)
    assert _head(vault) == before  # nothing written
    assert Vault.open(tmp_path / "v").get(memory.id).content.endswith("buy seeds.")
    assert len(Vault.open(tmp_path / "v").memories) == 1


def test_a_touch_since_the_plan_also_refuses_it(tmp_path):
    """The plan would write the original back with the old use count: plan again."""
    vault = Vault.open(tmp_path / "v")
    memory = vault.add(TEXT)
    plan = plan_split(vault, memory.id, _parts())
    Vault.open(tmp_path / "v").touch(memory.id)
    with pytest.raises(StalePlanError):
        apply_split(vault, plan)
    fresh = plan_split(vault, memory.id, _parts())  # planning again works
    apply_split(vault, fresh)
    assert Vault.open(tmp_path / "v").get(memory.id).use_count == 1


def test_an_unrelated_commit_since_the_plan_does_not_refuse_it(tmp_path):
    vault = Vault.open(tmp_path / "v")
    memory = vault.add(TEXT)
    plan = plan_split(vault, memory.id, _parts())
    Vault.open(tmp_path / "v").add("something else entirely")
    result = apply_split(vault, plan)
    assert result.commit == _head(vault)


def test_a_relation_added_to_a_source_refuses_the_merge_that_deletes_it(tmp_path):
    """Deleting the sources drops their relations as planned; a relation made since would
    be left pointing at a deleted memory."""
    vault = Vault.open(tmp_path / "v")
    a = vault.add("The staging database lives on db-2 and is restored every night.")
    b = vault.add("Staging database: db-2, restored nightly from production backups.")
    c = vault.add("Unrelated note about lunch.")
    preview = plan_consolidation(vault, [a.id, b.id], sources="delete")
    Vault.open(tmp_path / "v").relate(c.id, a.id, "related")
    before = _head(vault)
    with pytest.raises(StalePlanError, match="relation"):
        apply_consolidation(vault, preview)
    assert _head(vault) == before
    preview = plan_consolidation(vault, [a.id, b.id], sources="delete")
    apply_consolidation(vault, preview)
    after = Vault.open(tmp_path / "v")
    merged = preview.merged.id
    assert merged in after.memories and a.id not in after.memories
    assert any(r.from_memory_id == c.id and r.to_memory_id == merged
               for r in after.relations.values())  # moved to the merged memory


def test_a_plan_checks_its_requirements_under_the_lock(tmp_path):
    """The maintenance-machine rule travels with the consolidation plan."""
    vault = Vault.open(tmp_path / "v")
    a = vault.add("The staging database lives on db-2 and is restored every night.")
    b = vault.add("Staging database: db-2, restored nightly from production backups.")
    preview = plan_consolidation(vault, [a.id, b.id])
    vault.apply(Plan("meta: designate", meta={META_KEY: "some-other-machine"}))
    before = _head(vault)
    with pytest.raises(MaintenanceRefused, match="some-other-machine"):
        apply_consolidation(vault, preview)
    assert _head(vault) == before
