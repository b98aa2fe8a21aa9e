"""PerFileStorage under the one rule for relations when a memory goes: CortexGraph's
consolidation (save the merged memory, create consolidated_from relations to the sources, then
delete the sources) keeps its lineage; other relations go with the deleted memory, in the same
commit as the delete."""

from __future__ import annotations

import subprocess

from core import Memory, PerFileStorage, Relation


def _count(path) -> int:
    out = subprocess.run(["git", "-C", str(path), "rev-list", "--count", "HEAD"],
                         capture_output=True, text=True, check=True).stdout
    return int(out)


def test_consolidation_as_cortexgraph_does_it_keeps_the_lineage(tmp_path):
    storage = PerFileStorage(tmp_path / "v")
    storage.connect()
    storage.save_memories_batch([Memory(id=i, content=f"memory {i}") for i in ("s1", "s2", "x")])
    storage.create_relation(Relation(id="side", from_memory_id="s1", to_memory_id="x",
                                     relation_type="related"))
    storage.save_memory(Memory(id="merged", content="memory s1 and s2"))
    storage.create_relations_batch([
        Relation(id=f"c-{i}", from_memory_id="merged", to_memory_id=i,
                 relation_type="consolidated_from") for i in ("s1", "s2")])
    before = _count(tmp_path / "v")
    assert storage.delete_memory("s1") is True
    assert _count(tmp_path / "v") == before + 1  # the memory and "side" in one commit
    assert storage.delete_memories_batch(["s2"]) == 1
    assert {r.id for r in storage.get_all_relations()} == {"c-s1", "c-s2"}
    assert [r.to_memory_id for r in storage.get_relations(from_memory_id="merged")] == ["s1", "s2"]
    assert storage.get_memory("s1") is None
    storage.close()
    again = PerFileStorage(tmp_path / "v")
    again.connect()
    assert {r.id for r in again.get_all_relations()} == {"c-s1", "c-s2"}
    again.close()
