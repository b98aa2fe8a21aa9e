"""Values no record may hold (core.model.checks): non-finite or out-of-range numbers, text that
is not valid UTF-8, a file nested more than 200 levels deep. Refused by the models (so by every path that builds
a record: add, update, MCP, import, migrate) and again where a record becomes bytes (so a record
built by ``model_copy`` or ``model_construct`` cannot slip through); nothing is committed."""

from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError

from core import Memory, MemoryMetadata, Relation, Vault, VaultError
from core.errors import InvalidRecordError
from core.io.migrate import migrate_jsonl
from core.model.checks import MAX_NESTING, RecordValueError, check_value
from migrate_support import memory_line, write_store


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels):
        value = {"a": value}
    return value


BAD_NUMBERS = [math.inf, -math.inf, math.nan, float("1e309")]


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_non_finite_numbers_are_refused_by_the_models(number):
    with pytest.raises(ValidationError, match="finite"):
        Memory(id="m", content="x", strength=number)
    with pytest.raises(ValidationError, match="finite"):
        Memory(id="m", content="x", embed=[0.5, number])
    with pytest.raises(ValidationError, match="finite"):
        Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="related",
                 strength=number)
    with pytest.raises(ValidationError, match="finite"):
        MemoryMetadata(extra={"score": number})
    with pytest.raises(ValidationError, match="finite"):
        Memory(id="m", content="x", custom={"deep": [1, number]})


@pytest.mark.parametrize("value, why", [
    (10 ** 30, "out of range"), (-(2 ** 63) - 1, "out of range"),
    (nested(MAX_NESTING + 1), "nested too deep"), (nested(250), "nested too deep"),
    ("text \udcff", "not valid UTF-8"), ({"key \udc80": 1}, "not valid UTF-8"),
])
def test_out_of_range_deep_and_undecodable_values_are_refused(value, why):
    with pytest.raises(RecordValueError, match=why):
        check_value(value, "meta.extra")
    with pytest.raises(ValidationError, match=why):
        MemoryMetadata(extra={"v": value})
    with pytest.raises(ValidationError, match=why):
        Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="related",
                 metadata={"v": value})


def test_the_deepest_record_allowed_is_read_back(vault):
    deepest = Memory(id="deep", content="x", meta={"extra": {"v": nested(MAX_NESTING - 4)}})
    vault.save(deepest)
    assert Vault.open(vault.root).get("deep") == vault.get("deep")
    with pytest.raises(ValidationError, match="nested too deep"):
        Memory(id="deeper", content="x", meta={"extra": {"v": nested(MAX_NESTING - 3)}})


def test_ordinary_values_pass():
    check_value({"a": [1, 2.5, -3, 2 ** 63 - 1, None, True, "é ✓"], "b": nested(MAX_NESTING - 2)},
                "meta.extra")
    Memory(id="m", content="x", strength=2.0, meta={"extra": {"n": 1e300, "deep": nested(50)}})


def unvalidated(changes: dict) -> dict:
    """``changes`` with each field of the type the model holds, built without validation (so
    its bad value is not refused here): ``meta`` a ``MemoryMetadata``, not a dict, as
    ``model_copy`` and ``model_construct`` take it as given."""
    if "meta" not in changes:
        return changes
    return {**changes, "meta": MemoryMetadata.model_construct(**changes["meta"])}


@pytest.mark.parametrize("changes", [{"strength": math.inf}, {"strength": math.nan},
                                     {"meta": {"extra": {"x": math.inf}}},
                                     {"meta": {"extra": nested(250)}},
                                     {"content": "bad \udcff byte"}])
def test_every_vault_write_path_refuses_them_and_commits_nothing(vault, changes):
    kept = vault.add("a memory that stays as it is")
    head = vault.journal.head()
    with pytest.raises(VaultError):
        vault.update(kept.id, **changes)
    unchecked = unvalidated(changes)
    with pytest.raises(VaultError):  # a record built without validation
        vault.save(kept.model_copy(update=unchecked))
    with pytest.raises(VaultError):
        vault.save(Memory.model_construct(**{**dict(kept), **unchecked}))
    assert vault.journal.head() == head
    assert vault.get(kept.id) == kept


def test_add_refuses_infinite_strength(vault):
    head = vault.journal.head()
    for number in BAD_NUMBERS:
        with pytest.raises(VaultError, match="finite"):
            vault.add("x", strength=number)
    with pytest.raises(InvalidRecordError, match="not valid UTF-8"):
        vault.add("undecodable \udcff")
    assert vault.journal.head() == head and vault.memories == {}


def test_meta_json_with_a_non_finite_number_is_refused(vault):
    head = vault.journal.head()
    with pytest.raises(InvalidRecordError, match="finite"):
        vault.write_path.commit("meta: bad", vault.write_path.meta_write(score=math.inf))
    assert vault.journal.head() == head


def test_migrate_reports_each_bad_line_and_migrates_the_rest(tmp_path, vault):
    deep = json.dumps(memory_line("deep", meta={"tags": [], "extra": nested(250)}))
    src = write_store(tmp_path / "s", [
        json.dumps(memory_line("ok1")),
        deep,                                                          # 2
        '{"id": "inf", "content": "x", "strength": Infinity}',         # 3
        json.dumps(memory_line("big", meta={"extra": {"n": 10 ** 30}})).replace(
            "1000000000000000000000000000000", "1e400"),               # 4: 1e400 is inf
        json.dumps(memory_line("ok2")),
        "[" * 5000 + "]" * 5000,                                       # 6: deeper than json
    ])
    report = migrate_jsonl(vault, src)
    assert set(vault.memories) == {"ok1", "ok2"}
    lines = {p.line: p.message for p in report.problems}
    assert set(lines) == {2, 3, 4, 6}, lines
    assert "nested too deep" in lines[2]
    assert "finite" in lines[3] and "finite" in lines[4]
    assert all(m.strength == 1.0 for m in vault.memories.values())
