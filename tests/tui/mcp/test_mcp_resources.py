"""The server's resources (a memory by id, the inbox, the stats) and prompts, read with the
package's own stdio client from a spawned server."""

from __future__ import annotations

import json

import pytest
from mcp.shared.exceptions import MCPError


def _read(server, uri: str) -> dict:
    result = server.run(lambda s: s.read_resource(uri))
    (content,) = result.contents
    assert content.mime_type == "application/json"
    return json.loads(content.text)


def _prompt(server, name: str, **arguments: str) -> str:
    result = server.run(lambda s: s.get_prompt(name, arguments))
    return "\n".join(m.content.text for m in result.messages)


def test_resources_and_the_template_are_listed(mcp_server):
    listed = mcp_server.run(lambda s: s.list_resources()).resources
    assert {str(r.uri) for r in listed[:2]} == {"memvault://inbox", "memvault://stats"}
    assert all(str(r.uri).startswith("memvault://memory/") for r in listed[2:])
    templates = mcp_server.run(lambda s: s.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["memvault://memory/{memory_id}",
                                                   "memvault://tag/{tag}"]
    caps = mcp_server.init.capabilities.resources
    assert caps.subscribe is True and caps.list_changed is True


def test_a_memory_resource_has_its_gist_score_and_relations(mcp_server):
    long = ("The deploy runbook: build the image, push it to the registry, bump the chart, "
            "watch the canary for ten minutes, then promote it to all regions. " * 4)
    first = mcp_server.call("save_memory", content=long, tags=["ops"]).data["memory_id"]
    second = mcp_server.call("save_memory", content="Canaries run for ten minutes.").data
    second_id = second["memory_id"]
    assert not mcp_server.call("create_relation", from_memory_id=first, to_memory_id=second_id,
                               relation_type="related").error
    shown = _read(mcp_server, f"memvault://memory/{first[:8]}")  # a prefix finds it
    assert shown["uri"] == f"memvault://memory/{first}" and shown["id"] == first
    assert shown["content"] == long and shown["tags"] == ["ops"]
    assert isinstance(shown["gist"], str) and 0 < len(shown["gist"]) < len(long)
    assert 0 < shown["score"] and shown["status"] == "active"
    assert shown["relations"]["outgoing"] == [{"to": second_id, "type": "related",
                                               "strength": pytest.approx(1.0)}]
    other = _read(mcp_server, f"memvault://memory/{second_id}")
    assert other["relations"]["incoming"][0]["from"] == first


@pytest.mark.parametrize("key", ["nope-nope-nope", "..%2F..%2Fetc", "zz"])
def test_an_unknown_memory_is_a_clear_error(mcp_server, key):
    with pytest.raises(MCPError) as caught:
        _read(mcp_server, f"memvault://memory/{key}")
    message = caught.value.error.message
    assert ("no memory" in message or "not a valid" in message or "failed security" in message
            or "Unknown resource" in message), message  # says what is wrong
    assert "Traceback" not in message


def test_stats_and_inbox_resources(mcp_server):
    saved = mcp_server.call("save_memory", content="Inbox entries come from the assistant.")
    mid = saved.data["memory_id"]
    stats = _read(mcp_server, "memvault://stats")
    graph = mcp_server.call("read_graph", status="all").data
    assert stats["memories"] == graph["stats"]["total_memories"] >= 1
    inbox = _read(mcp_server, "memvault://inbox")
    assert inbox["count"] == len(inbox["entries"]) >= 1
    entry = next(e for e in inbox["entries"] if e["memory_id"] == mid)
    assert entry["operation"] == "added" and entry["clients"] == ["mcp/pytest-client"]


def test_a_read_only_server_serves_resources(read_only_server):
    from core import Vault

    with Vault.open(read_only_server.vault, readonly=True) as v:  # (other tests add beside it)
        count = len(v.memories)
    stats = _read(read_only_server, "memvault://stats")
    assert stats["memories"] == count >= 2
    assert _read(read_only_server, "memvault://inbox")["count"] == 0


def test_prompts_are_listed_with_their_arguments(mcp_server):
    prompts = {p.name: p for p in mcp_server.run(lambda s: s.list_prompts()).prompts}
    assert set(prompts) == {"review_inbox", "split_memory", "consolidate_memories",
                            "recall_for_task"}
    assert [(a.name, a.required) for a in prompts["split_memory"].arguments] == [
        ("memory_id", True)]
    assert [(a.name, a.required) for a in prompts["recall_for_task"].arguments] == [
        ("task", True)]
    assert [(a.name, bool(a.required)) for a in prompts["consolidate_memories"].arguments] == [
        ("memory_ids", False)]
    assert all(p.title and p.description for p in prompts.values())
    assert all(a.description for p in prompts.values() for a in p.arguments)


def test_the_split_prompt_shows_the_memory_and_leads_through_the_tool(mcp_server):
    content = "Standups are at nine. The office closes on Fridays at four."
    mid = mcp_server.call("save_memory", content=content).data["memory_id"]
    text = _prompt(mcp_server, "split_memory", memory_id=mid[:8])
    assert content in text and mid in text
    assert "split_memory" in text and "preview=true" in text and "preview=false" in text
    with pytest.raises(MCPError) as caught:
        _prompt(mcp_server, "split_memory", memory_id="nothing-like-it")
    assert "nothing-like-it" in caught.value.error.message


def test_the_consolidate_prompt(mcp_server):
    a = mcp_server.call("save_memory", content="Backups run nightly at two.").data["memory_id"]
    b = mcp_server.call("save_memory", content="Nightly backups start at 2am.").data["memory_id"]
    text = _prompt(mcp_server, "consolidate_memories", memory_ids=f"{a[:8]}, {b[:8]}")
    assert a in text and b in text and 'mode="preview"' in text and 'mode="apply"' in text
    assert "cluster_memories" in _prompt(mcp_server, "consolidate_memories")
    with pytest.raises(MCPError) as caught:
        _prompt(mcp_server, "consolidate_memories", memory_ids=a)
    assert "two memories or more" in caught.value.error.message


def test_the_recall_and_inbox_prompts(mcp_server, read_only_server):
    text = _prompt(mcp_server, "recall_for_task", task="Plan the Friday deploy")
    assert "Plan the Friday deploy" in text
    for tool in ("recall", "search_memory", "open_memories", "observe_memory_usage",
                 "save_memory"):
        assert tool in text
    with pytest.raises(MCPError):
        _prompt(mcp_server, "recall_for_task", task="   ")
    saved = mcp_server.call("save_memory", content="Reviewed through the prompt.").data
    review = _prompt(mcp_server, "review_inbox")
    assert saved["memory_id"][:8] in review and "memvault inbox accept" in review
    assert "memvault://inbox" in review
    assert "inbox is empty" in _prompt(read_only_server, "review_inbox")
