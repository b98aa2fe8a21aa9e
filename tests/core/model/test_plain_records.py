"""Records read without the models (core.model.plain_records), as a command that only reads
makes them: the fields and extra keys the model would hold, ``text``, and whatever else is
asked (``model_dump``...) answered by the model they stand for, equal to what the exact reading
makes otherwise; models again once plain reading is turned off."""

from __future__ import annotations

import json

import pytest

from core.model import plain_records
from core.model.exact_records import memory_exact, read_memory, relation_exact
from core.model.field_sets import FieldSetSharing
from core.model.plain_records import PlainMemory, PlainMeta, PlainRelation
from core.model.records import Memory, MemoryStatus, Relation


def memory_bytes(**changes) -> bytes:
    record = Memory(id="m1", content="Prefers dark mode", gist="dark mode",
                    meta={"tags": ["ui"], "source": "chat", "context": None,
                          "extra": {"pinned": True}, "newer": 1},
                    entities=["vim"], use_count=3, strength=1.5, created_at=100,
                    last_used=200).model_dump(mode="json")
    record.update(changes)
    return json.dumps(record).encode()


RELATION = json.dumps(Relation(id="r1", from_memory_id="m1", to_memory_id="m2",
                               relation_type="supports", strength=0.5, metadata={"why": 1},
                               created_at=100).model_dump(mode="json")).encode()


@pytest.fixture
def plainly():
    plain_records.read_without_models()
    yield
    plain_records.read_without_models(False)


@pytest.mark.parametrize("changes", [{}, {"gist": None, "unknown_key": [1, "two"]},
                                     {"status": "archived"}])
def test_a_plain_memory_holds_what_the_model_holds(plainly, changes):
    data = memory_bytes(**changes)
    made = memory_exact(data)
    assert type(made) is PlainMemory and type(made.meta) is PlainMeta
    model = Memory.model_validate_json(data)
    for name in (*Memory.model_fields, *(model.model_extra or {})):
        if name != "meta":
            assert getattr(made, name) == getattr(model, name)
    assert type(made.status) is MemoryStatus
    assert made.meta.tags == model.meta.tags and made.meta.extra == model.meta.extra
    assert made.text == model.text
    # what only a model answers, from the model it stands for: the very dump
    assert made.model_dump(mode="json") == model.model_dump(mode="json")
    assert made.model_dump_json() == model.model_dump_json()
    assert made.model_extra == model.model_extra
    assert made.meta.model_extra == model.meta.model_extra


def test_a_plain_relation_and_the_field_sets_left_alone(plainly):
    made = relation_exact(RELATION)
    assert type(made) is PlainRelation
    assert made.model_dump(mode="json") == Relation.model_validate_json(RELATION).model_dump(
        mode="json")
    sharing = FieldSetSharing()  # a plain record is left as it is
    assert sharing.memory(memory_exact(memory_bytes())).meta.tags == ["ui"]
    assert type(sharing.relation(made)) is PlainRelation


def test_a_file_the_exact_reading_does_not_take_is_still_validated_into_a_model(plainly):
    data = memory_bytes(use_count=3.0)  # a float where an int is kept: validation converts it
    made = read_memory(data)
    assert type(made) is Memory and made.use_count == 3


def test_models_again_once_plain_reading_is_off():
    plain_records.read_without_models()
    plain_records.read_without_models(False)
    assert type(memory_exact(memory_bytes())) is Memory
    assert type(relation_exact(RELATION)) is Relation
