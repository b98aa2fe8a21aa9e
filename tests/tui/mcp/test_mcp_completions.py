"""``completion/complete`` of ``memvault mcp``: memory ids from a prefix (the memory template,
the split and consolidate prompts), tags (the tag template, the recall prompt's last word); read
with the package's own stdio client from a spawned server on a vault of known ids."""

from __future__ import annotations

import pytest
from mcp.types import PromptReference, ResourceTemplateReference
from mcp_support import McpServer, server_env

from core import Memory, Vault
from tui.mcp.completions import MAX_VALUES

IDS = ["abc00001-one", "abc00002-two", "abd00003-three", "zzz00004-four"]


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    base = tmp_path_factory.mktemp("completions")
    env = server_env(base / "home", MEMVAULT_MCP_USE_INTERVAL="3600")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(base / "vault") as v:
            v.save_many([Memory(id=i, content=f"Memory {n}.", created_at=1_000 + n,
                                meta={"tags": ["deploy", "docs"] if n % 2 else ["deploy"]})
                         for n, i in enumerate(IDS)]
                        + [Memory(id=f"many{n:04d}", content=f"Filler {n}.",
                                  meta={"tags": ["dentist"]}) for n in range(MAX_VALUES + 5)])
    with McpServer(base / "vault", env) as server:
        yield server


def _complete(server, ref, name: str, value: str):
    return server.run(lambda s: s.complete(ref, {"name": name, "value": value})).completion


MEMORY = ResourceTemplateReference(type="ref/resource", uri="memvault://memory/{memory_id}")
TAG = ResourceTemplateReference(type="ref/resource", uri="memvault://tag/{tag}")


def _prompt(name: str) -> PromptReference:
    return PromptReference(type="ref/prompt", name=name)


def test_memory_ids_complete_from_a_prefix_newest_first(known):
    assert known.init.capabilities.completions is not None
    found = _complete(known, MEMORY, "memory_id", "AB")  # any case
    assert found.values == ["abd00003-three", "abc00002-two", "abc00001-one"]
    assert found.total == 3 and found.has_more is False
    assert _complete(known, _prompt("split_memory"), "memory_id", "abc").values == [
        "abc00002-two", "abc00001-one"]
    assert _complete(known, MEMORY, "memory_id", "nothing").values == []


def test_the_consolidate_prompt_completes_its_last_id(known):
    found = _complete(known, _prompt("consolidate_memories"), "memory_ids", "abc00001-one, abc")
    assert found.values == ["abc00001-one, abc00002-two"]  # the one given is not offered again


def test_tags_complete_most_used_first(known):
    assert _complete(known, TAG, "tag", "d").values == ["dentist", "deploy", "docs"]
    assert _complete(known, _prompt("recall_for_task"), "task", "check the do").values == [
        "check the docs"]


def test_at_most_a_hundred_values_and_the_total(known):
    found = _complete(known, MEMORY, "memory_id", "many")
    assert len(found.values) == MAX_VALUES and found.total == MAX_VALUES + 5
    assert found.has_more is True


def test_the_tag_resource_lists_its_memories(known):
    import json

    (content,) = known.run(lambda s: s.read_resource("memvault://tag/docs")).contents
    shown = json.loads(content.text)
    assert shown["count"] == 2 and [m["id"] for m in shown["memories"]] == [
        "zzz00004-four", "abc00002-two"]
