"""A record's times when its file has none (core.model.times): which it lacks, what they
become, and the file's bytes with them added, every other byte as written."""

from __future__ import annotations

import json

import pytest

from core import Memory, Relation
from core.model.times import missing_times, stable_times, with_fields


def test_missing_times_are_the_fields_the_file_did_not_give() -> None:
    assert missing_times(Memory.model_validate_json('{"id": "m", "content": "x"}')) == (
        "created_at", "last_used")
    assert missing_times(Memory.model_validate_json(
        '{"id": "m", "content": "x", "created_at": 5}')) == ("last_used",)
    assert missing_times(Memory.model_validate_json(
        '{"id": "m", "content": "x", "created_at": 5, "last_used": 6}')) == ()
    assert missing_times(Relation.model_validate_json(
        '{"id": "r", "from_memory_id": "a", "to_memory_id": "b", "relation_type": "related"}'
    )) == ("created_at",)


def test_stable_times_take_the_committed_version_else_the_time_given() -> None:
    bare = Memory.model_validate_json('{"id": "m", "content": "x"}')
    assert stable_times(bare, ("created_at", "last_used"), 1000) == {
        "created_at": 1000, "last_used": 1000}
    used = Memory.model_validate_json('{"id": "m", "content": "x", "last_used": 700}')
    # never created after it was last used
    assert stable_times(used, ("created_at",), 1000) == {"created_at": 700}
    made = Memory.model_validate_json('{"id": "m", "content": "x", "created_at": 300}')
    assert stable_times(made, ("last_used",), 1000) == {"last_used": 300}
    before = Memory.model_validate_json(
        '{"id": "m", "content": "old", "created_at": 100, "last_used": 200}')
    assert stable_times(bare, ("created_at", "last_used"), 1000, before) == {
        "created_at": 100, "last_used": 200}


@pytest.mark.parametrize("text", [
    '{\n  "id": "m",\n  "content": "caf\\u00e9  \\n two spaces",\n  "strength": 1\n}\n',
    '{\r\n\t"id": "m",\r\n\t"content": "x"\r\n}',
    '{"id":"m","content":"x"}',
    '  {  "id": "m", "content": "x"}  ',
])
def test_with_fields_adds_them_and_keeps_every_other_byte(text: str) -> None:
    data = text.encode()
    out = with_fields(data, {"created_at": 1600000000, "last_used": 1600000001})
    assert json.loads(out) == {**json.loads(data), "created_at": 1600000000,
                               "last_used": 1600000001}
    added = out.replace(b'"created_at": 1600000000,', b"", 1).replace(
        b'"last_used": 1600000001,', b"", 1)
    # what is left is the file as written, but for the layout of the two lines added
    assert b"".join(added.split()) == b"".join(data.split())
    assert data.split(b"{", 1)[1].strip() in out  # the rest byte for byte
    record = Memory.model_validate_json(out)
    assert (record.created_at, record.last_used) == (1600000000, 1600000001)


def test_with_fields_keeps_the_files_layout() -> None:
    out = with_fields(b'{\n    "id": "m",\n    "content": "x"\n}\n', {"created_at": 5})
    assert out == b'{\n    "created_at": 5,\n    "id": "m",\n    "content": "x"\n}\n'
    assert with_fields(b'{"id": "m"}', {"created_at": 5}) == b'{"created_at": 5, "id": "m"}'


@pytest.mark.parametrize("data", [b'["id"]', b'{"id": "m", "created_at": 3}', b"{oops"])
def test_with_fields_refuses_what_is_not_an_object_without_them(data: bytes) -> None:
    with pytest.raises(ValueError):
        with_fields(data, {"created_at": 5})
