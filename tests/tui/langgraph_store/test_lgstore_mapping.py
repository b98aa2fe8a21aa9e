"""LangGraph's store on the vault (tui/langgraph_store, docs/langgraph.md): what an item is as a
memory and back, the refusals that write nothing, archive for delete, one commit a batch named
``Memvault-Via: langgraph`` that lands in the review inbox and passes the secret check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    PutOp,
    SearchOp,
)
from secrets_support import GITHUB
from vault_support import commit_count, run_git

from core import MemoryStatus, Vault
from core.ops.inbox import inbox, reject
from core.secrets.policy import SecretRefusedError
from tui.langgraph_store import InvalidValueError
from tui.langgraph_store.items import memory_id_for


def _memories(path: Path) -> dict:
    with Vault.open(path, readonly=True) as v:
        return dict(v.memories)


def test_a_value_is_its_text_as_content_and_the_rest_as_metadata(store, vault_path):
    value = {"content": "Alice prefers pytest", "kind": "pref", "n": 3, "deep": {"a": [1, None]}}
    store.put(("users", "alice"), "k1", value)
    item = store.get(("users", "alice"), "k1")
    assert (item.namespace, item.key, item.value) == (("users", "alice"), "k1", value)
    memory = _memories(vault_path)[memory_id_for(("users", "alice"), "k1")]
    assert memory.content == "Alice prefers pytest"
    assert memory.meta.tags == ["users/alice"]
    assert memory.meta.extra["langgraph"]["value"] == {"kind": "pref", "n": 3,
                                                        "deep": {"a": [1, None]}}


def test_text_key_then_json_when_there_is_none(store, vault_path):
    store.put(("a",), "t", {"text": "under text", "content": 5})
    store.put(("a",), "j", {"data": "value1", "content": {"nested": True}})
    memories = _memories(vault_path)
    assert memories[memory_id_for(("a",), "t")].content == "under text"
    assert memories[memory_id_for(("a",), "j")].content == \
        '{"data": "value1", "content": {"nested": true}}'
    assert store.get(("a",), "t").value == {"text": "under text", "content": 5}
    assert store.get(("a",), "j").value == {"data": "value1", "content": {"nested": True}}


def test_the_same_key_is_the_same_memory_in_another_process(store, vault_path):
    store.put(("users", "alice"), "k1", {"content": "first"})
    script = ("import sys; from tui.langgraph_store import VaultStore\n"
              "s = VaultStore(sys.argv[1]); s.put(('users', 'alice'), 'k1', {'content': 'second'})\n"
              "s.close()\n")
    subprocess.run([sys.executable, "-c", script, str(vault_path)], check=True)
    assert store.get(("users", "alice"), "k1").value == {"content": "second"}
    lg = [m for m in _memories(vault_path).values() if m.meta.source == "langgraph"]
    assert [m.id for m in lg] == [memory_id_for(("users", "alice"), "k1")]


def test_same_key_in_two_namespaces_is_two_items(store):
    store.put(("a",), "k", {"content": "in a"})
    store.put(("b",), "k", {"content": "in b"})
    assert store.get(("a",), "k").value == {"content": "in a"}
    assert store.get(("b",), "k").value == {"content": "in b"}
    assert store.get(("c",), "k") is None


@pytest.mark.parametrize("namespace", [("users", "a/b"), ("users", ""), ("", "x"),
                                       ("a.b",), ("tab\there",), ()])
def test_a_bad_namespace_is_refused_with_langgraphs_error_and_nothing_written(
        store, vault_path, namespace):
    before = commit_count(vault_path)
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("ok",), "fine", {"content": "fine"}),
                     PutOp(namespace, "k", {"content": "x"})])
    assert commit_count(vault_path) == before
    assert store.get(("ok",), "fine") is None


def test_a_slash_in_a_read_namespace_is_refused_too(store):
    with pytest.raises(InvalidNamespaceError):
        store.get(("users", "a/b"), "k")
    with pytest.raises(InvalidNamespaceError):
        store.search(("a/b",))


@pytest.mark.parametrize("value", [
    {"content": "x", "when": __import__("datetime").date(2026, 1, 1)},
    {"content": "x", "pair": (1, 2)},
    {"content": "x", "n": float("nan")},
    {"content": "x", "nested": {1: "int key"}},
    {"content": "x", "s": {"a", "b"}},
    ["not", "a", "dict"],
])
def test_a_value_that_is_not_json_is_refused_and_nothing_written(store, vault_path, value):
    before = commit_count(vault_path)
    with pytest.raises(InvalidValueError, match="nothing was written"):
        store.batch([PutOp(("ok",), "fine", {"content": "fine"}), PutOp(("ok",), "k", value)])
    assert commit_count(vault_path) == before


def test_put_none_archives_and_a_later_put_brings_it_back(store, vault_path):
    store.put(("a",), "k", {"content": "keep me"})
    store.delete(("a",), "k")
    assert store.get(("a",), "k") is None
    assert store.search(("a",)) == []
    memory = _memories(vault_path)[memory_id_for(("a",), "k")]
    assert memory.status == MemoryStatus.ARCHIVED and memory.content == "keep me"
    assert run_git(vault_path, "log", "-1", "--format=%s").startswith("archive: ")
    store.put(("a",), "k", {"content": "back"})
    assert store.get(("a",), "k").value == {"content": "back"}


def test_deleting_a_key_that_is_not_there_makes_no_commit(store, vault_path):
    before = commit_count(vault_path)
    store.delete(("a",), "nothing")
    store.put(("a",), "k", {"content": "same"})
    store.put(("a",), "k", {"content": "same"})
    assert commit_count(vault_path) == before + 1


def test_a_batch_of_puts_is_one_commit_naming_langgraph(store, vault_path):
    store.put(("a",), "gone", {"content": "to archive"})
    before = commit_count(vault_path)
    results = store.batch([PutOp(("a",), f"k{i}", {"content": f"memory {i}"}) for i in range(5)]
                          + [GetOp(("a",), "gone"), PutOp(("a",), "gone", None)])
    assert results[:5] == [None] * 5 and results[5].value == {"content": "to archive"}
    assert commit_count(vault_path) == before + 1
    body = run_git(vault_path, "log", "-1", "--format=%B")
    assert "Memvault-Via: langgraph" in body and "Memvault-Tool: put" in body
    assert body.startswith("update: 6 memories")


def test_a_put_lands_in_the_review_inbox(store, vault_path):
    store.put(("users", "alice"), "k1", {"content": "Alice is allergic to shellfish"})
    with Vault.open(vault_path) as v:
        entries = inbox(v)
    assert [(e.memory_id, e.operation, e.clients) for e in entries] == \
        [(memory_id_for(("users", "alice"), "k1"), "added", ["langgraph"])]


def test_a_secret_in_the_text_or_the_metadata_is_refused(store, vault_path):
    before = commit_count(vault_path)
    with pytest.raises(SecretRefusedError):
        store.put(("a",), "k", {"content": f"token {GITHUB}"})
    with pytest.raises(SecretRefusedError):
        store.put(("a",), "k", {"content": "the token", "token": GITHUB})
    assert commit_count(vault_path) == before


def test_a_namespace_label_that_looks_like_a_key_is_refused_as_a_secret(store, vault_path):
    before = commit_count(vault_path)
    with pytest.raises(SecretRefusedError):
        store.put(("users", "0f3c9a7d2b8e4f61a5c0d9e8b7a6f5e4"), "k", {"content": "x"})
    assert commit_count(vault_path) == before


def test_search_ranks_by_query_and_filters_by_field_with_limit_and_offset(store):
    store.put(("docs", "a"), "1", {"content": "pytest fixtures and parametrize", "lang": "py"})
    store.put(("docs", "b"), "2", {"content": "pytest runs in CI", "lang": "py"})
    store.put(("docs", "b"), "3", {"content": "cargo test for the rust crate", "lang": "rs"})
    store.put(("other",), "4", {"content": "pytest elsewhere", "lang": "py"})
    hits = store.search(("docs",), query="pytest fixtures")
    assert [h.key for h in hits] == ["1", "2"] and hits[0].score >= hits[1].score > 0
    assert [h.key for h in store.search(("docs",), filter={"lang": "rs"})] == ["3"]
    assert {h.key for h in store.search(("docs",), filter={"lang": "py"})} == {"1", "2"}
    every = [h.key for h in store.search(("docs",))]
    assert sorted(every) == ["1", "2", "3"]
    assert [h.key for h in store.search(("docs",), limit=1, offset=1)] == every[1:2]
    assert [h.key for h in store.search((), query="elsewhere")] == ["4"]


def test_a_query_is_plain_words_never_memvaults_query_language(store):
    store.put(("a",), "1", {"content": "the status: archived is a word here"})
    assert [h.key for h in store.search(("a",), query="status:archived -word")] == ["1"]


def test_list_namespaces_with_prefix_suffix_and_depth(store):
    for ns in [("test", "documents", "public"), ("test", "documents", "private"),
               ("test", "images", "public"), ("prod", "documents", "public")]:
        store.put(ns, "k", {"content": "x"})
    assert len(store.list_namespaces()) == 4
    assert store.list_namespaces(prefix=("test",), suffix=("public",)) == \
        [("test", "documents", "public"), ("test", "images", "public")]
    assert store.list_namespaces(max_depth=2) == \
        [("prod", "documents"), ("test", "documents"), ("test", "images")]
    assert store.list_namespaces(prefix=("test", "*", "public"), limit=1, offset=1) == \
        [("test", "images", "public")]
    store.delete(("prod", "documents", "public"), "k")
    assert ("prod", "documents", "public") not in store.list_namespaces()


def test_a_persons_tagged_memory_is_an_item_keyed_by_its_id(vault_path, store):
    with Vault.open(vault_path) as v:
        mine = v.add("I keep my dentist on Tuesdays", tags=["users/alice", "v1.2"]).id
    assert store.get(("users", "alice"), mine).value == {"content": "I keep my dentist on Tuesdays"}
    assert store.list_namespaces() == [("users", "alice")]
    store.put(("users", "alice"), mine, {"content": "Dentist moved to Wednesdays"})
    memory = _memories(vault_path)[mine]
    assert memory.content == "Dentist moved to Wednesdays"
    assert memory.meta.tags == ["users/alice", "v1.2"]


def test_list_namespaces_op_and_search_op_through_batch(store):
    store.put(("x", "y"), "k", {"content": "hello world"})
    got = store.batch([ListNamespacesOp(max_depth=1), SearchOp(("x",), query="hello")])
    assert got[0] == [("x",)] and [h.key for h in got[1]] == ["k"]


async def test_abatch_answers_as_batch(store):
    await store.aput(("a",), "k", {"content": "async"})
    assert (await store.aget(("a",), "k")).value == {"content": "async"}
    assert [h.key for h in await store.asearch(("a",), query="async")] == ["k"]
    # (each abatch runs in a worker thread: the search index open in another thread still works)
    assert [h.key for h in await store.asearch(("a",), query="async")] == ["k"]
    assert [h.key for h in store.search(("a",), query="async")] == ["k"]


def test_a_memory_a_person_moved_to_another_namespace_keeps_its_key_there(store, vault_path):
    store.put(("a",), "k", {"content": "first written in a"})
    moved = memory_id_for(("a",), "k")
    with Vault.open(vault_path) as v:
        v.untag(moved, tags=["a"])
        v.tag(moved, tags=["b"])
    assert store.get(("a",), "k") is None
    assert store.get(("b",), "k").value == {"content": "first written in a"}
    store.batch([PutOp(("b",), "k", {"content": "updated in b"}),
                 PutOp(("a",), "k", {"content": "a new one in a"})])
    memories = _memories(vault_path)
    assert memories[moved].content == "updated in b" and memories[moved].meta.tags == ["b"]
    assert store.get(("a",), "k").value == {"content": "a new one in a"}
    assert len(memories) == 2


def test_rejecting_an_agents_put_in_the_inbox_gives_the_old_value_back(store, vault_path):
    with Vault.open(vault_path) as v:
        mine = v.add("Standup is at 9:30", tags=["team"]).id
    store.put(("team",), mine, {"content": "Standup is at 10:00", "by": "bot"})
    assert store.get(("team",), mine).value == {"content": "Standup is at 10:00", "by": "bot"}
    with Vault.open(vault_path) as v:
        reject(v, mine[:8])
    assert store.get(("team",), mine).value == {"content": "Standup is at 9:30"}
