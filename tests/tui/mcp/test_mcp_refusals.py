"""Bad input to ``memvault mcp`` over a real stdio connection: an unknown or ambiguous id,
content over the vault's size limit, wrong types, a read-only server asked to write. Each is a
tool error (isError) with a clear message, never a traceback, and writes nothing: no commit, no
file changed."""

from __future__ import annotations

import pytest
from mcp_support import McpServer, head, status

from core import Memory, Vault
from core.store.layout import MAX_FILE_BYTES


def refused(server: McpServer, tool: str, says: str, **arguments) -> str:
    before, dirty = head(server.vault), status(server.vault)
    answer = server.call(tool, **arguments)
    assert answer.error is True, answer.text
    assert says in answer.text, answer.text
    assert "Traceback" not in answer.text
    assert head(server.vault) == before and status(server.vault) == dirty
    return answer.text


@pytest.fixture(scope="module")
def known(mcp_server) -> str:
    answer = mcp_server.call("save_memory", content="A memory the refusals point at.")
    return answer.data["memory_id"]


@pytest.mark.parametrize("tool, arguments", [
    ("touch_memory", {"memory_id": "nosuchid"}),
    ("archive_memory", {"memory_id": "nosuchid"}),
    ("delete_memory", {"memory_id": "nosuchid"}),
    ("open_memories", {"memory_ids": ["nosuchid"]}),
    ("observe_memory_usage", {"memory_ids": ["nosuchid"]}),
    ("promote_memory", {"memory_id": "nosuchid", "force": True}),
    ("split_memory", {"memory_id": "nosuchid", "parts": ["one", "two"]}),
    ("consolidate_memories", {"memory_ids": ["nosuchid", "nosuchid2"], "mode": "apply"}),
    ("memory_history", {"memory_id": "nosuchid"}),
    ("restore_memory", {"memory_id": "nosuchid"}),
])
def test_an_unknown_id_is_a_tool_error(mcp_server, tool, arguments):
    refused(mcp_server, tool, "nosuchid", **arguments)


def test_an_unknown_end_of_a_relation_is_refused(mcp_server, known):
    refused(mcp_server, "create_relation", "no memory with id or prefix 'nosuchid'",
            from_memory_id=known, to_memory_id="nosuchid", relation_type="related")


def test_an_ambiguous_prefix_lists_the_candidates(mcp_server):
    with Vault.open(mcp_server.vault) as v:  # another process writes beside the server
        v.save_many([Memory(id="twin0000-a", content="First twin."),
                     Memory(id="twin0000-b", content="Second twin.")])
    for tool in ("touch_memory", "archive_memory", "delete_memory"):
        text = refused(mcp_server, tool, "ambiguous", memory_id="twin0000")
        assert "twin0000-a" in text and "twin0000-b" in text
    refused(mcp_server, "open_memories", "ambiguous", memory_ids="twin0000")


def test_content_over_the_size_limit_writes_nothing(mcp_server):
    text = refused(mcp_server, "save_memory", "refused", content="x" * (MAX_FILE_BYTES + 1))
    assert "MiB" in text


@pytest.mark.parametrize("tool, arguments, says", [
    ("save_memory", {"content": "   "}, "non-empty content"),
    ("save_memory", {"content": "ok", "tags": "not-a-list"}, "tags"),
    ("save_memory", {"content": "ok", "strength": 5.0}, "strength"),
    ("save_memory", {"content": ["a", "list"]}, "content"),
    ("search_memory", {"top_k": "many"}, "top_k"),
    ("search_memory", {"top_k": 1000}, "top_k"),
    ("search_memory", {"status": "lost"}, "status"),
    ("touch_memory", {"memory_id": 12345678}, "memory_id"),
    ("touch_memory", {}, "memory_id"),
    ("create_relation", {"from_memory_id": "a", "to_memory_id": "b", "relation_type": "loves"},
     "unknown relation type"),
    ("read_graph", {"status": "everything"}, "status"),
    ("recall", {"query": "x", "token_budget": 0}, "token_budget"),
    ("consolidate_memories", {"mode": "apply"}, "memory_ids or cluster_id"),
    ("consolidate_memories", {"cluster_id": "nope", "mode": "apply"}, "no cluster"),
    ("split_memory", {"memory_id": "x", "parts": ["only one"]}, "parts"),
    ("gc", {"dry_run": False, "limit": 0}, "limit"),
    ("promote_memory", {}, "memory_id"),
])
def test_wrong_arguments_are_tool_errors(mcp_server, tool, arguments, says):
    refused(mcp_server, tool, says, **arguments)


def test_a_split_core_refuses_writes_nothing(mcp_server, known):
    refused(mcp_server, "split_memory", "only repeats the original", memory_id=known,
            parts=["A memory the refusals point at.", "Something new."])


WRITES = [
    ("save_memory", {"content": "Should not be saved."}),
    ("touch_memory", {"memory_id": "{id}"}),
    ("create_relation", {"from_memory_id": "{id}", "to_memory_id": "{id}",
                         "relation_type": "related"}),
    ("observe_memory_usage", {"memory_ids": ["{id}"]}),
    ("archive_memory", {"memory_id": "{id}"}),
    ("delete_memory", {"memory_id": "{id}"}),
    ("restore_memory", {"memory_id": "{id}"}),
    ("undo_last", {}),
    ("gc", {"dry_run": False}),
    ("promote_memory", {"memory_id": "{id}", "force": True}),
    ("consolidate_memories", {"memory_ids": ["{id}", "{id}"], "mode": "apply"}),
    ("split_memory", {"memory_id": "{id}", "parts": ["Deploys happen.", "On Tuesdays."]}),
]


@pytest.mark.parametrize("tool, arguments", WRITES, ids=[w[0] for w in WRITES])
def test_a_read_only_server_refuses_every_write(read_only_server, tool, arguments):
    found = read_only_server.call("search_memory", query="Tuesdays").data["results"]
    mid = found[0]["id"]
    filled = {k: ([x.replace("{id}", mid) for x in v] if isinstance(v, list)
                  else v.replace("{id}", mid) if isinstance(v, str) else v)
              for k, v in arguments.items()}
    text = refused(read_only_server, tool, "read-only", **filled)
    assert f"refused: {tool} writes to the vault" in text


def test_a_read_only_server_reads_and_records_no_use(read_only_server):
    before = head(read_only_server.vault)
    found = read_only_server.call("search_memory", query="deploys").data
    assert found["count"] == 2
    assert read_only_server.call("recall", query="deploys tuesdays").data["count"] >= 1
    assert read_only_server.call("gc").data["dry_run"] is True
    assert read_only_server.call("read_graph").data["stats"]["total_memories"] >= 2
    mid = found["results"][0]["id"]
    assert read_only_server.call("memory_history", memory_id=mid[:8]).data["count"] == 1
    preview = read_only_server.call("split_memory", memory_id=mid, preview=True,
                                    parts=["Deploys happen.", "On Tuesdays, they do."])
    assert preview.error is False
    assert head(read_only_server.vault) == before and status(read_only_server.vault) == ""


def test_a_read_only_server_follows_other_processes(read_only_server):
    with Vault.open(read_only_server.vault) as v:
        new = v.add("Added beside a read-only server.").id
    opened = read_only_server.call("open_memories", memory_ids=new[:8])
    assert opened.error is False and opened.data["memories"][0]["id"] == new
