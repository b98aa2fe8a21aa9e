"""LangGraph's own store tests, run against the vault's store (:class:`tui.langgraph_store.
VaultStore`). LangGraph ships no importable conformance suite for ``BaseStore`` (its
``langgraph-checkpoint-conformance`` covers checkpointers only), so the backend-neutral tests of
its stores are adapted here.

Adapted from langchain-ai/langgraph (MIT License, Copyright (c) 2024 LangChain, Inc.) at
f09cfe8ffc1eeffd68f4b628ed69c30f7cad229f: ``libs/checkpoint/tests/test_store.py`` (the
InMemoryStore's: list_namespaces_*, cannot_put_empty_namespace) and
``libs/checkpoint-sqlite/tests/test_store.py`` (batch_*, basic operations, search, the filter
and namespace-matching tests), without their vector-index and SQL-only parts. Changed: each test
takes the ``store`` fixture (a fresh vault); ``time.sleep`` and cleanup deletes are left out;
``test_non_ascii`` searches with memvault's ranked search instead of fake embeddings; a label
with a newline is refused (a namespace is a tag, and a tag holds no control character) where
LangGraph's stores accept it; a label of 32 hex digits is refused by the secret check (it looks
like a key), so a uuid label is written in its dashed form."""

from __future__ import annotations

import uuid

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)



# -- libs/checkpoint-sqlite/tests/test_store.py -----------------------------------------------
def test_batch_order(store) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    ops = [
        GetOp(namespace=("test", "foo"), key="key1"),
        PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
        SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(namespace=("test",), key="key3"),
    ]
    results = store.batch(ops)
    assert len(results) == 5
    assert isinstance(results[0], Item)
    assert results[0].value == {"data": "value1"}
    assert results[0].key == "key1" and results[0].namespace == ("test", "foo")
    assert results[1] is None
    assert len(results[2]) == 1 and results[2][0].key == "key1"
    assert results[2][0].value == {"data": "value1"}
    assert ("test", "foo") in results[3] and ("test", "bar") in results[3]
    assert results[4] is None

    ops_reordered = [
        SearchOp(namespace_prefix=("test",), filter=None, limit=5, offset=0),
        GetOp(namespace=("test", "bar"), key="key2"),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
        PutOp(namespace=("test",), key="key3", value={"data": "value3"}),
        GetOp(namespace=("test", "foo"), key="key1"),
    ]
    results_reordered = store.batch(ops_reordered)
    assert len(results_reordered) == 5
    assert len(results_reordered[0]) >= 2
    assert results_reordered[1].value == {"data": "value2"}
    assert results_reordered[1].namespace == ("test", "bar")
    assert len(results_reordered[2]) > 0
    assert results_reordered[3] is None
    assert results_reordered[4].value == {"data": "value1"}
    assert store.get(("test",), "key3").value == {"data": "value3"}


def test_batch_get_ops(store) -> None:
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    results = store.batch([GetOp(namespace=("test",), key="key1"),
                           GetOp(namespace=("test",), key="key2"),
                           GetOp(namespace=("test",), key="key3")])
    assert len(results) == 3
    assert results[0].key == "key1" and results[1].key == "key2" and results[2] is None


def test_batch_put_ops(store) -> None:
    results = store.batch([
        PutOp(namespace=("test",), key="key1", value={"data": "value1"}),
        PutOp(namespace=("test",), key="key2", value={"data": "value2"}),
        PutOp(namespace=("test",), key="key3", value=None),
    ])
    assert results == [None, None, None]
    assert store.get(("test",), "key1").value == {"data": "value1"}
    assert store.get(("test",), "key2").value == {"data": "value2"}
    assert store.get(("test",), "key3") is None


def test_batch_search_ops(store) -> None:
    for namespace, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
    ]:
        store.put(namespace, key, value)
    results = store.batch([
        SearchOp(namespace_prefix=("test",), filter={"tag": "a"}, limit=10, offset=0),
        SearchOp(namespace_prefix=("test",), filter=None, limit=2, offset=0),
        SearchOp(namespace_prefix=("test", "foo"), filter=None, limit=10, offset=0),
    ])
    assert len(results[0]) == 2 and all(item.value["tag"] == "a" for item in results[0])
    assert len(results[1]) == 2
    assert len(results[2]) == 1 and results[2][0].namespace == ("test", "foo")


def test_batch_list_namespaces_ops(store) -> None:
    test_data = [
        (("test", "documents", "public"), "doc1", {"content": "public doc"}),
        (("test", "documents", "private"), "doc2", {"content": "private doc"}),
        (("test", "images", "public"), "img1", {"content": "public image"}),
        (("prod", "documents", "public"), "doc3", {"content": "prod doc"}),
    ]
    for namespace, key, value in test_data:
        store.put(namespace, key, value)
    results = store.batch([
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=2, limit=10, offset=0),
        ListNamespacesOp(match_conditions=(MatchCondition("suffix", ("public",)),),
                         max_depth=None, limit=10, offset=0),
    ])
    assert len(results[0]) == len(test_data)
    assert all(len(ns) <= 2 for ns in results[1])
    assert all(ns[-1] == "public" for ns in results[2])


def test_basic_store_ops(store) -> None:
    namespace = ("test", "documents")
    item_value = {"title": "Test Document", "content": "Hello, World!"}
    store.put(namespace, "doc1", item_value)
    item = store.get(namespace, "doc1")
    assert item.namespace == namespace and item.key == "doc1" and item.value == item_value
    updated_value = {"title": "Updated Document", "content": "Hello, Updated!"}
    store.put(namespace, "doc1", updated_value)
    updated_item = store.get(namespace, "doc1")
    assert updated_item.value == updated_value
    assert updated_item.updated_at >= item.updated_at
    assert store.get(("test", "other_documents"), "doc1") is None
    store.delete(namespace, "doc1")
    assert store.get(namespace, "doc1") is None


def test_search(store) -> None:
    for namespace, key, value in [
        (("test", "docs"), "doc1", {"title": "First Doc", "author": "Alice", "tags": ["important"]}),
        (("test", "docs"), "doc2", {"title": "Second Doc", "author": "Bob", "tags": ["draft"]}),
        (("test", "images"), "img1", {"title": "Image 1", "author": "Alice", "tags": ["final"]}),
    ]:
        store.put(namespace, key, value)
    assert len(store.search(["test"])) == 3
    docs_items = store.search(["test", "docs"])
    assert len(docs_items) == 2 and all(i.namespace == ("test", "docs") for i in docs_items)
    alice_items = store.search(["test"], filter={"author": "Alice"})
    assert len(alice_items) == 2 and all(i.value["author"] == "Alice" for i in alice_items)
    assert len(store.search(["test"], limit=2)) == 2
    assert len(store.search(["test"], offset=2)) == 1


def test_basic_store_operations(store) -> None:
    uid = str(uuid.uuid4())  # (LangGraph's uuid4().hex: 32 hex digits, refused as a secret)
    namespace = (uid, "test", "documents")
    assert len(store.search((uid,))) == 0
    item_value = {"title": "Test Document", "content": "Hello, World!"}
    store.put(namespace, "doc1", item_value)
    item = store.get(namespace, "doc1")
    assert item.namespace == namespace and item.value == item_value
    assert item.created_at is not None and item.updated_at is not None
    updated_value = {"title": "Updated Test Document", "content": "Hello, LangGraph!"}
    store.put(namespace, "doc1", updated_value)
    assert store.get(namespace, "doc1").value == updated_value
    assert store.get((uid, "test", "other_documents"), "doc1") is None
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    items = store.search((uid, "test"), limit=10)
    assert {i.key for i in items} == {"doc1", "doc2"}
    assert (uid, "test", "documents") in store.list_namespaces(prefix=(uid, "test"))
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None and store.get(namespace, "doc2") is None
    assert len(store.search((uid, "test"), limit=10)) == 0


def test_list_namespaces_operations(store) -> None:
    p = str(uuid.uuid4())
    test_namespaces = [
        (p, "test", "documents", "public", p),
        (p, "test", "documents", "private", p),
        (p, "test", "images", "public", p),
        (p, "test", "images", "private", p),
        (p, "prod", "documents", "public", p),
        (p, "prod", "documents", "some", "nesting", "public", p),
        (p, "prod", "documents", "private", p),
    ]
    store.batch([PutOp(ns, "dummy", {"content": "dummy"}) for ns in test_namespaces])
    prefix_result = store.list_namespaces(prefix=(p, "test"))
    assert len(prefix_result) == 4 and all(ns[1] == "test" for ns in prefix_result)
    specific = store.list_namespaces(prefix=(p, "test", "documents"))
    assert len(specific) == 2
    suffix_result = store.list_namespaces(suffix=("public", p))
    assert len(suffix_result) == 4 and all(ns[-2] == "public" for ns in suffix_result)
    assert len(store.list_namespaces(prefix=(p, "test"), suffix=("public", p))) == 2
    wildcard_prefix = store.list_namespaces(prefix=(p, "*", "documents"))
    assert len(wildcard_prefix) == 5 and all(ns[2] == "documents" for ns in wildcard_prefix)
    assert len(store.list_namespaces(suffix=("*", "public", p))) == 4
    assert store.list_namespaces(suffix=("some", "*", "public", p)) == \
        [(p, "prod", "documents", "some", "nesting", "public", p)]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    depth4 = store.list_namespaces(max_depth=4, prefix=(p, "*", "documents"))
    assert len(set(depth4)) == len(depth4) == 5
    assert len(store.list_namespaces(prefix=(p,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(p,), offset=3)) == len(test_namespaces) - 3
    assert set(store.list_namespaces(prefix=(p,))) == set(test_namespaces)


def test_search_items(store) -> None:
    base = "test_search_items"
    test_namespaces = [(base, "documents", "user1"), (base, "documents", "user2"),
                       (base, "reports", "department1"), (base, "reports", "department2")]
    test_items = [
        {"title": "Doc 1", "author": "John Doe", "tags": ["important"]},
        {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]},
        {"title": "Report A", "author": "John Doe", "tags": ["final"]},
        {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]},
    ]
    for ns, item in zip(test_namespaces, test_items):
        store.put(ns, f"item_{ns[-1]}", item)
    docs = store.search((base, "documents"))
    assert len(docs) == 2 and all(item.namespace[1] == "documents" for item in docs)
    assert len(store.search((base, "reports"))) == 2
    first_page = store.search((base,), limit=2, offset=0)
    second_page = store.search((base,), limit=2, offset=2)
    assert len(first_page) == len(second_page) == 2
    assert {i.key for i in first_page}.isdisjoint({i.key for i in second_page})
    assert len(store.search((base,))) == 4
    john = store.search((base,), filter={"author": "John Doe"})
    assert len(john) == 2
    draft = store.search((base,), filter={"tags": ["draft"]})
    assert len(draft) == 2 and all("draft" in item.value["tags"] for item in draft)


def test_sql_injection_filter_values(store) -> None:
    store.put(("docs",), "doc1", {"access": "public", "title": "Public Document"})
    store.put(("docs",), "doc2", {"access": "private", "title": "Private Document"})
    for malicious in ["public' OR '1'='1", "public'; --", "public' UNION SELECT * FROM store --",
                      "public\x00' OR '1'='1", "''''", "public' OR 'א'='א"]:
        assert store.search(("docs",), filter={"access": malicious}) == []
    store.put(("docs",), "doc4", {"title": "O'Brien's Document", "access": "public"})
    found = store.search(("docs",), filter={"title": "O'Brien's Document"})
    assert [r.key for r in found] == ["doc4"]


def test_numeric_filter_safety(store) -> None:
    store.put(("items",), "item1", {"price": 10, "quantity": 5})
    store.put(("items",), "item2", {"price": 20, "quantity": 3})
    store.put(("items",), "item3", {"price": 30, "quantity": 1})
    results = store.search(("items",), filter={"price": {"$gt": 15}})
    assert len(results) == 2 and all(r.value["price"] > 15 for r in results)
    assert len(store.search(("items",), filter={"price": {"$lt": float("inf")}})) == 3
    assert len(store.search(("items",), filter={"price": {"$gt": float("-inf")}})) == 3
    assert store.search(("items",), filter={"price": {"$eq": float("nan")}}) == []
    assert len(store.search(("items",), filter={"price": {"$lt": 10**100}})) == 3
    store.put(("items",), "item4", {"price": -10, "quantity": 0})
    assert [r.key for r in store.search(("items",), filter={"price": {"$lt": 0}})] == ["item4"]


def test_boolean_filter_safety(store) -> None:
    store.put(("flags",), "flag1", {"active": True, "name": "Feature A"})
    store.put(("flags",), "flag2", {"active": False, "name": "Feature B"})
    store.put(("flags",), "flag3", {"active": True, "name": "Feature C"})
    results = store.search(("flags",), filter={"active": True})
    assert len(results) == 2 and all(r.value["active"] is True for r in results)
    results = store.search(("flags",), filter={"active": False})
    assert len(results) == 1 and results[0].value["active"] is False


def test_filter_keys_with_hyphens_and_digits(store) -> None:
    store.put(("docs",), "hyphen", {"access-level": "public", "user": {"access-level": "nested"}})
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2"}})
    assert [r.key for r in store.search(("docs",), filter={"access-level": "public"})] == ["hyphen"]
    assert [r.key for r in store.search(("docs",), filter={"user.access-level": "nested"})] == \
        ["hyphen"]
    assert [r.key for r in store.search(("docs",), filter={"123abc": "ok"})] == ["digit"]
    assert [r.key for r in store.search(("docs",), filter={"user.123abc": "ok2"})] == ["digit"]


def test_non_ascii(store) -> None:
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    store.batch([PutOp(("user_123", "memories"), str(i), {"text": t})
                 for i, t in enumerate(texts, 1)])
    for i, text in enumerate(texts, 1):
        assert store.search(("user_123", "memories"), query=text)[0].key == str(i)


def test_search_namespace_segment_boundary(store) -> None:
    store.batch([PutOp(ns, "k", {"v": 1}) for ns in [
        ("foo",), ("foo", "child"), ("foo", "child", "deep"), ("foobar",), ("foobar", "baz"),
        ("foo2",)]])

    def _namespaces(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {item.namespace for item in store.search(prefix, limit=100)}

    assert _namespaces(("foo",)) == {("foo",), ("foo", "child"), ("foo", "child", "deep")}
    assert _namespaces(("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert _namespaces(("foo2",)) == {("foo2",)}
    assert _namespaces(("fo",)) == set()


def test_search_namespace_wildcard_chars_are_literal(store) -> None:
    store.batch([PutOp(ns, "k", {"v": 1}) for ns in [
        ("user_1",), ("user_1", "child"), ("userX1",), ("a%b",), ("axxb",), ("star*",),
        ("starX",)]])

    def _namespaces(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {item.namespace for item in store.search(prefix, limit=100)}

    assert _namespaces(("user_1",)) == {("user_1",), ("user_1", "child")}
    assert _namespaces(("a%b",)) == {("a%b",)}
    assert _namespaces(("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store) -> None:
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert {item.namespace for item in store.search(("foo",), limit=100)} == {("foo",)}
    assert {item.namespace for item in store.search(("Foo",), limit=100)} == {("Foo",)}
    assert store.get(("Foo",), "k").value == {"v": "upper"}


def test_list_namespaces_segment_boundary(store) -> None:
    store.batch([PutOp(ns, "k", {"v": 1}) for ns in [
        ("foo",), ("foo", "child"), ("foobar",), ("foobar", "baz"), ("uid", "users", "alice"),
        ("uid", "users", "malice"), ("uid", "a", "b", "alice")]])
    assert set(store.list_namespaces(prefix=["foo"], limit=100)) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == \
        {("uid", "users", "alice"), ("uid", "a", "b", "alice")}
    assert set(store.list_namespaces(prefix=["uid", "*", "alice"], limit=100)) == \
        {("uid", "users", "alice")}
    assert set(store.list_namespaces(prefix=["uid"], limit=100)) == \
        {("uid", "users", "alice"), ("uid", "users", "malice"), ("uid", "a", "b", "alice")}


def test_search_empty_prefix_is_unconstrained(store) -> None:
    store.batch([PutOp(ns, "k", {"v": 1}) for ns in [("a",), ("b", "c"), ("d", "e", "f")]])
    assert {item.namespace for item in store.search((), limit=100)} == \
        {("a",), ("b", "c"), ("d", "e", "f")}


def test_namespace_labels_with_trailing_newline_are_refused(store) -> None:
    """(LangGraph's stores keep such a label apart from ``alice``; the vault refuses it.)"""
    store.put(("users", "alice"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {("users", "alice")}


def test_list_namespaces_metacharacter_labels(store) -> None:
    pairs = [("star*", "starX"), ("q?m", "qXm"), ("br[ack]et", "brXacXket"),
             ("user_1", "userX1"), ("a%b", "axxb"), ("plus+", "plusX")]
    store.batch([PutOp(ns, "k", {"v": 1}) for label, decoy in pairs
                 for ns in [(label,), (decoy,), (label, "child")]])
    for label, decoy in pairs:
        found = set(store.list_namespaces(prefix=[label], limit=100))
        assert found == {(label,), (label, "child")}
        assert set(store.list_namespaces(prefix=[label, "child"], limit=100)) == \
            {(label, "child")}


# -- libs/checkpoint/tests/test_store.py --------------------------------------------------------
def test_list_namespaces_basic(store) -> None:
    namespaces = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"),
                  ("a", "c", "f"), ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"),
                  ("admin", "users", "789")]
    store.batch([PutOp(ns, f"id_{i}", {"data": f"value_{i:02d}"})
                 for i, ns in enumerate(namespaces)])
    assert sorted(store.list_namespaces(prefix=("a", "b"))) == \
        [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(suffix=("f",))) == \
        [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert sorted(store.list_namespaces(prefix=("a",), suffix=("f",))) == \
        [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "b"), max_depth=3)) == \
        [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == \
        [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == \
        [("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "*", "f"))) == \
        [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(suffix=("*", "f"))) == \
        [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store) -> None:
    namespaces = [("users", "123"), ("users", "456"), ("users", "789", "settings"),
                  ("admin", "users", "789"), ("guests", "123"), ("guests", "456", "preferences")]
    store.batch([PutOp(ns, f"id_{i}", {"data": f"value_{i:02d}"})
                 for i, ns in enumerate(namespaces)])
    assert sorted(store.list_namespaces(prefix=("users", "*"))) == \
        [("users", "123"), ("users", "456"), ("users", "789", "settings")]
    assert store.list_namespaces(suffix=("*", "preferences")) == \
        [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []


def test_list_namespaces_pagination(store) -> None:
    store.batch([PutOp(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": f"value_{i:02d}"})
                 for i in range(20)])
    for offset in (0, 5, 15):
        assert store.list_namespaces(prefix=("namespace",), limit=5, offset=offset) == \
            [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_max_depth(store) -> None:
    namespaces = [("a", "b", "c", "d"), ("a", "b", "c", "e"), ("a", "b", "f"), ("a", "g"),
                  ("h", "i", "j", "k")]
    store.batch([PutOp(ns, f"id_{i}", {"data": f"value_{i:02d}"})
                 for i, ns in enumerate(namespaces)])
    assert sorted(store.list_namespaces(max_depth=2)) == [("a", "b"), ("a", "g"), ("h", "i")]


def test_list_namespaces_no_conditions(store) -> None:
    namespaces = [("a", "b"), ("c", "d"), ("e", "f", "g")]
    store.batch([PutOp(ns, f"id_{i}", {"data": f"value_{i:02d}"})
                 for i, ns in enumerate(namespaces)])
    assert sorted(store.list_namespaces()) == sorted(namespaces)


def test_list_namespaces_empty_store(store) -> None:
    assert store.list_namespaces() == []


async def test_cannot_put_empty_namespace(store) -> None:
    doc = {"foo": "bar"}
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
        with pytest.raises(InvalidNamespaceError):
            await store.aput(bad, "foo", doc)

    await store.aput(("foo", "langgraph", "foo"), "bar", doc)
    assert (await store.aget(("foo", "langgraph", "foo"), "bar")).value == doc
    assert (await store.asearch(("foo", "langgraph", "foo"), query="bar"))[0].value == doc
    await store.adelete(("foo", "langgraph", "foo"), "bar")
    assert (await store.aget(("foo", "langgraph", "foo"), "bar")) is None
    store.put(("foo", "langgraph", "foo"), "bar", doc)
    assert store.get(("foo", "langgraph", "foo"), "bar").value == doc
    assert store.search(("foo", "langgraph", "foo"), query="bar")[0].value == doc
    store.delete(("foo", "langgraph", "foo"), "bar")
    assert store.get(("foo", "langgraph", "foo"), "bar") is None

    # past the public put api
    await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == doc
    assert (await store.asearch(("langgraph", "foo")))[0].value == doc
    await store.adelete(("langgraph", "foo"), "bar")
    assert (await store.aget(("langgraph", "foo"), "bar")) is None
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.get(("langgraph", "foo"), "bar").value == doc
    assert store.search(("langgraph", "foo"))[0].value == doc
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None
