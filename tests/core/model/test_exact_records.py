"""Records made without pydantic's validator (core.model.exact_records) are the very records
validation makes, and a file holding anything validation would convert, fill in or refuse is
left to validation."""

from __future__ import annotations

import json
import subprocess
import sys
import zlib

import pytest

from core.model.exact_records import memory_exact, read_memory, read_relation, relation_exact
from core.model.records import Memory, Relation
from core.store.record_loading import RecordRefused, check_record


def memory_record(**changes) -> dict:
    record = Memory(id="m1", content="Prefers dark mode", gist="dark mode",
                    meta={"tags": ["ui", "editor"], "source": "chat", "context": None,
                          "extra": {"pinned": True, "deep": {"a": [1, 2.5, None]}}},
                    entities=["vim"], embed=[0.25, -1.5], use_count=3, strength=1.5,
                    promoted_at=5, promoted_to="wiki", last_review_at=7,
                    review_priority=0.5, created_at=100, last_used=200).model_dump(mode="json")
    record.update(changes)
    return record


def relation_record(**changes) -> dict:
    record = Relation(id="r1", from_memory_id="m1", to_memory_id="m2", relation_type="supports",
                      strength=0.5, metadata={"why": ["x"]}, created_at=100).model_dump(mode="json")
    record.update(changes)
    return record


def same(made, validated) -> None:
    """Equal as records, in what they were given and in every dump."""
    assert made == validated
    assert type(made) is type(validated)
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_extra == validated.model_extra
    assert list(made.__dict__) == list(validated.__dict__)
    assert json.dumps(made.model_dump(mode="json")) == json.dumps(
        validated.model_dump(mode="json"))
    if isinstance(made, Memory):
        assert made.meta.model_fields_set == validated.meta.model_fields_set
        assert type(made.status) is type(validated.status)


@pytest.mark.parametrize("changes", [
    {},
    {"gist": None, "embed": None, "promoted_at": None, "promoted_to": None},
    {"unknown_key": {"kept": [1, "two"]}, "another": None},
    {"meta": {"tags": [], "source": None, "context": "c", "extra": {}, "newer": 1}},
    {"status": "archived", "content": "ünïcödé \x1b[31m\n\tline"},
])
def test_a_file_memvault_writes_makes_the_record_validation_makes(changes):
    data = json.dumps(memory_record(**changes)).encode()
    made = memory_exact(data)
    assert made is not None
    same(made, Memory.model_validate_json(data))
    same(check_record(Memory, "m1", data), Memory.model_validate_json(data))


def test_a_relation_file_makes_the_relation_validation_makes():
    data = json.dumps(relation_record(extra_key=[1])).encode()
    made = relation_exact(data)
    assert made is not None
    same(made, Relation.model_validate_json(data))


@pytest.mark.parametrize("data", [
    json.dumps(memory_record(strength=1)),  # an int where a float is kept: converted
    json.dumps(memory_record(use_count=2.0)),
    json.dumps(memory_record(use_count=True)),
    json.dumps({k: v for k, v in memory_record().items() if k != "created_at"}),  # filled in
    json.dumps({k: v for k, v in memory_record().items() if k != "embed"}),
    json.dumps(memory_record(meta={"tags": ["x"]})),
    json.dumps(memory_record(embed=[1, 2])),
    json.dumps(memory_record(status="gone")),  # refused
    json.dumps(memory_record(use_count=-1)),
    json.dumps(memory_record(review_priority=1.5)),
    json.dumps(memory_record(created_at=2 ** 70)),
    json.dumps(memory_record(entities="vim")),
    json.dumps(memory_record(content="\ud800")),
    json.dumps(memory_record(strength=float("nan"))),  # NaN: JSON pydantic's reader refuses
    json.dumps(memory_record()).replace('"gist": "dark mode"', '"gist": "a", "gist": "b"'),
    json.dumps(memory_record(_fields_set=["id"])),  # pydantic's own names: validated
    json.dumps(memory_record(_private=1)),
    json.dumps(memory_record(meta={"tags": [], "source": None, "context": None, "extra": {},
                                   "_x": 1})),
    "[1, 2]",
    "{not json",
], ids=lambda data: f"{zlib.crc32(data.encode('utf-8', 'surrogatepass')):08x}")
def test_anything_else_is_left_to_validation(data):
    raw = data.encode("utf-8", "surrogatepass")
    assert memory_exact(raw) is None
    try:
        validated = Memory.model_validate_json(raw)
    except ValueError:
        with pytest.raises(RecordRefused):
            check_record(Memory, "m1", raw)
        with pytest.raises(ValueError):
            read_memory(raw)
    else:
        same(check_record(Memory, "m1", raw), validated)
        same(read_memory(raw), validated)


def test_a_relation_out_of_bounds_is_left_to_validation():
    raw = json.dumps(relation_record(strength=2.0)).encode()
    assert relation_exact(raw) is None
    with pytest.raises(ValueError):
        read_relation(raw)


def test_reading_a_file_memvault_wrote_builds_no_validator():
    """The models are built on first use (``defer_build``): a program that only reads the
    files memvault writes never builds them."""
    data = json.dumps(memory_record()).encode()
    script = ("import sys\nfrom core.store.record_loading import check_record\n"
              "from core.model.records import Memory, MemoryMetadata\n"
              f"m = check_record(Memory, 'm1', {data!r})\n"
              "print(m.content, Memory.__pydantic_complete__, "
              "MemoryMetadata.__pydantic_complete__)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Prefers", "dark", "mode", "False", "False"]


def test_every_field_of_the_models_is_one_the_exact_reading_checks():
    """A field added to a model and not to the exact reading's tables would be taken from the
    file unchecked: each model's fields are the ones the reading names, no more, no fewer."""
    from core.model import exact_records
    from core.model.records import MemoryMetadata

    checked_apart = {"status", "entities", "meta", "embed"}  # (checked by memory_exact itself)
    assert set(Memory.model_fields) == set(exact_records._MEMORY) | checked_apart
    assert set(MemoryMetadata.model_fields) == set(exact_records._META) | {"tags", "extra"}
    assert set(Relation.model_fields) == set(exact_records._RELATION) | {"metadata"}


def test_a_process_reading_many_records_builds_the_validator_and_reads_the_rest_with_it(
        tmp_path):
    """The exact reading costs ~6x pydantic's built reader a record: a process reads only its
    first EXACT_READS records exactly, then builds the validator once (10k memories read whole
    took 0.6 s instead of 0.15 s when every one was read exactly)."""
    script = (
        "import sys, json\n"
        "from core.model import exact_records\n"
        "from core.model.records import Memory\n"
        "exact_records.EXACT_READS = 3\n"
        "data = sys.argv[1].encode()\n"
        "seen = []\n"
        "for _ in range(5):\n"
        "    exact_records.read_memory(data)\n"
        "    seen.append(Memory.__pydantic_complete__)\n"
        "print(json.dumps(seen))\n")
    out = subprocess.run([sys.executable, "-c", script, json.dumps(memory_record())],
                         capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert json.loads(out) == [False, False, False, True, True]
