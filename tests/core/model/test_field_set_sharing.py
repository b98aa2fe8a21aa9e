"""Loaded records share pydantic's set of given fields (core.model.records.FieldSetSharing):
less memory per record, and nothing a record says or writes changes."""

from __future__ import annotations

from core import Memory, MemoryMetadata, Relation, Vault
from core.model.records import FieldSetSharing


def test_an_open_vault_shares_one_field_set_per_shape(tmp_path):
    vault = Vault.open(tmp_path / "v")
    vault.save_many([Memory(id=f"m{n}", content=f"note {n}", meta=MemoryMetadata(tags=["t"]))
                     for n in range(5)])
    dumps = {i: m.model_dump_json() for i, m in vault.memories.items()}
    for _ in range(2):  # the first open reads the files, the second the index
        opened = Vault.open(vault.root)
        memories = list(opened.memories.values())
        assert len({id(m.__pydantic_fields_set__) for m in memories}) == 1
        assert len({id(m.meta.__pydantic_fields_set__) for m in memories}) == 1
        assert {i: m.model_dump_json() for i, m in opened.memories.items()} == dumps


def test_a_record_given_other_fields_keeps_its_own_set():
    sharing = FieldSetSharing()
    full = sharing.memory(Memory(id="a", content="x", gist="g", created_at=1, last_used=1))
    other = sharing.memory(Memory(id="b", content="y"))
    assert other.model_fields_set == {"id", "content"}
    assert full.model_fields_set == {"id", "content", "gist", "created_at", "last_used"}
    same = sharing.memory(Memory(id="c", content="z", gist="h", created_at=2, last_used=2))
    assert same.__pydantic_fields_set__ is full.__pydantic_fields_set__
    r1 = sharing.relation(Relation(id="r1", from_memory_id="a", to_memory_id="b",
                                   relation_type="related"))
    r2 = sharing.relation(Relation(id="r2", from_memory_id="b", to_memory_id="c",
                                   relation_type="related"))
    assert r1.__pydantic_fields_set__ is r2.__pydantic_fields_set__


def test_assigning_a_field_still_validates_and_copies_are_their_own():
    sharing = FieldSetSharing()
    a = sharing.memory(Memory(id="a", content="x"))
    b = sharing.memory(Memory(id="b", content="y"))
    a.use_count = 3
    assert a.use_count == 3 and b.use_count == 0
    copy = a.model_copy(update={"content": "changed"})
    assert copy.content == "changed" and a.content == "x"
