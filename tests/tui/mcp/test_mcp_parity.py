"""The 17 tools CortexGraph 1.2.1's server registers, with its parameter names (read from its
source: ``cortexgraph.context.mcp.list_tools()``), and the answers of the seven memvault maps
onto its own rules: search_unified, analyze_message, analyze_for_recall,
auto_recall_process_message, backfill_embeddings and the performance tools."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest
from mcp_support import McpServer, server_env

CORTEXGRAPH_TOOLS = {
    "analyze_for_recall": {"message"},
    "analyze_message": {"message"},
    "auto_recall_process_message": {"message"},
    "backfill_embeddings": {"model", "dry_run", "force", "limit"},
    "cluster_memories": {"find_duplicates", "duplicate_threshold", "max_cluster_size",
                         "threshold", "strategy"},
    "consolidate_memories": {"cohesion_threshold", "mode", "auto_detect", "cluster_id"},
    "create_relation": {"metadata", "relation_type", "to_memory_id", "strength",
                        "from_memory_id"},
    "gc": {"archive_instead", "dry_run", "limit"},
    "get_performance_metrics": set(),
    "open_memories": {"page", "include_relations", "page_size", "include_scores", "memory_ids"},
    "promote_memory": {"memory_id", "force", "dry_run", "auto_detect", "target"},
    "read_graph": {"page", "status", "page_size", "limit", "include_scores"},
    "reset_performance_metrics": set(),
    "save_memory": {"entities", "tags", "context", "source", "meta", "content", "strength"},
    "search_memory": {"top_k", "page", "status", "tags", "use_embeddings", "query", "page_size",
                      "min_score", "include_review_candidates", "window_days", "preview_length"},
    "search_unified": {"page", "status", "tags", "ltm_weight", "query", "page_size",
                       "stm_weight", "min_score", "limit", "window_days", "preview_length"},
    "touch_memory": {"memory_id", "boost_strength"},
}


@pytest.fixture(scope="module")
def mcp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpServer]:
    """A server of this module's own: these tools record uses, which the session's server
    would commit before the next test's single commit; auto-recall without its cooldown."""
    base = tmp_path_factory.mktemp("mcp-parity")
    env = server_env(base / "home", MEMVAULT_MCP_USE_INTERVAL="3600",
                     CORTEXGRAPH_AUTO_RECALL_MIN_INTERVAL="0")
    with McpServer(base / "vault", env) as server:
        yield server


def _save(server: McpServer, content: str, **fields) -> str:
    answer = server.call("save_memory", content=content, **fields)
    assert answer.error is False, answer.text
    return answer.data["memory_id"]


def test_every_cortexgraph_tool_with_its_parameter_names(mcp_server: McpServer):
    tools = {t.name: t for t in mcp_server.tools()}
    assert len(CORTEXGRAPH_TOOLS) == 17
    for name, params in CORTEXGRAPH_TOOLS.items():
        assert name in tools, name
        assert params <= set(tools[name].input_schema.get("properties", {})), name
    assert "observe_memory_usage" in tools


def test_search_unified_ranks_active_and_promoted_with_their_weights(mcp_server: McpServer):
    short = _save(mcp_server, "Parity kiwis: the orchard picks kiwis in May.")
    kept = _save(mcp_server, "Parity kiwis: kiwis keep for weeks in the cold room.")
    assert mcp_server.call("promote_memory", memory_id=kept, force=True).error is False
    answer = mcp_server.call("search_unified", query="parity kiwis", limit=5)
    assert answer.error is False, answer.text
    results = {r["memory_id"]: r for r in answer.data["results"]}
    assert answer.data["success"] is True and answer.data["count"] == len(results) >= 2
    assert set(results[short]) == {"content", "title", "source", "score", "path", "memory_id",
                                   "tags", "created_at", "last_used"}
    assert results[short]["source"] == "stm" and results[short]["path"] is None
    assert results[kept]["source"] == "ltm"
    assert results[kept]["path"].endswith(f"{kept}.json")
    only_ltm = mcp_server.call("search_unified", query="parity kiwis", stm_weight=0.0)
    assert only_ltm.data["results"][0]["memory_id"] == kept
    refused = mcp_server.call("search_unified", query="kiwis", ltm_weight=3.0)
    assert refused.error is True


def test_analyze_message_says_what_is_worth_saving(mcp_server: McpServer):
    _save(mcp_server, "Deploys go out on Tuesdays after the standup, never on Fridays.",
          tags=["ops"])
    keep = mcp_server.call("analyze_message",
                           message="Remember that I prefer Postgres over MySQL for new services "
                                   "at Acme; this is important.")
    assert keep.error is False, keep.text
    data = keep.data
    assert {"should_save", "confidence", "suggested_entities", "suggested_tags",
            "suggested_strength", "reasoning", "phrase_signals"} <= set(data)
    assert data["should_save"] is True and data["confidence"] >= 0.9
    assert data["suggested_strength"] == 2.0 and "Postgres" in data["suggested_entities"]
    question = mcp_server.call("analyze_message", message="How do I list files in Python?").data
    assert question["should_save"] is False and question["phrase_signals"]["question"] is True
    tagged = mcp_server.call("analyze_message", message="Remember: ops deploys need a review.")
    assert "ops" in tagged.data["suggested_tags"]
    again = mcp_server.call("analyze_message", message="Remember: deploys go out on Tuesdays "
                                                       "after the standup, never on Fridays.")
    assert again.data["should_save"] is False and again.data["possible_duplicates"]
    secret = mcp_server.call("analyze_message", message="Remember my GitHub token "
                                                        "ghp_0123456789abcdefghijABCDEFGHIJ012345")
    assert secret.data["should_save"] is False and secret.data["secrets"]


def test_analyze_for_recall_suggests_a_search(mcp_server: McpServer):
    asked = mcp_server.call("analyze_for_recall",
                            message="What did I say about the kiwi orchard?")
    assert asked.error is False, asked.text
    data = asked.data
    assert {"should_search", "confidence", "suggested_query", "suggested_tags",
            "suggested_entities", "reasoning", "phrase_signals"} <= set(data)
    assert data["should_search"] is True and data["confidence"] == 0.9
    assert "kiwi" in data["suggested_query"] and data["phrase_signals"]["recall_request"]
    idle = mcp_server.call("analyze_for_recall", message="thanks").data
    assert idle["should_search"] is False


def test_auto_recall_reinforces_what_the_message_is_about(mcp_server: McpServer):
    mid = _save(mcp_server, "The greenhouse thermostat holds 21 degrees for the seedlings.")
    before = mcp_server.call("open_memories", memory_ids=mid).data["memories"][0]["use_count"]
    answer = mcp_server.call("auto_recall_process_message",
                             message="The seedlings in the greenhouse look pale; is the "
                                     "thermostat set right.")
    assert answer.error is False, answer.text
    data = answer.data
    assert set(data) == {"success", "enabled", "topics_found", "memories_found",
                         "memories_reinforced", "mode", "message"}
    assert mid in data["memories_reinforced"] and data["mode"] == "silent"
    assert "greenhouse" in data["topics_found"]
    after = mcp_server.call("open_memories", memory_ids=mid).data["memories"][0]["use_count"]
    assert after >= before + 2  # the recall's use, then this open's own
    empty = mcp_server.call("auto_recall_process_message", message="   ")
    assert empty.error is True


def test_backfill_embeddings_without_wordllama_says_so(mcp_server: McpServer):
    answer = mcp_server.call("backfill_embeddings", dry_run=True)
    assert answer.error is False, answer.text
    if importlib.util.find_spec("wordllama") is None:
        assert answer.data["success"] is False and "wordllama" in answer.data["error"]
        assert "memvault[semantic]" in answer.data["hint"]
    else:
        assert answer.data["success"] is True and answer.data["dry_run"] is True


def test_performance_metrics_are_this_servers(mcp_server: McpServer):
    assert mcp_server.call("reset_performance_metrics").data == {
        "success": True, "message": "Performance metrics have been reset"}
    for _ in range(3):
        mcp_server.call("search_memory", query="anything")
    figures = mcp_server.call("get_performance_metrics").data
    search = figures["search_memory"]
    assert search["count"] == 3 and figures["search_memory_count"] == 3
    assert 0 < search["min_ms"] <= search["avg_ms"] <= search["max_ms"]
    assert {"total_ms", "p50_ms", "p95_ms"} <= set(search)
    assert mcp_server.call("reset_performance_metrics").error is False
    assert "search_memory" not in mcp_server.call("get_performance_metrics").data


def test_a_paraphrase_saved_names_its_duplicate_and_prefers_reads_as_a_preference(
        mcp_server: McpServer):
    """Issue 41: the paraphrase of a saved memory is named by ``save_memory``, and a text that
    says "prefers" is a preference for ``analyze_message``."""
    first = _save(mcp_server, "The user prefers dark mode in every editor and terminal")
    again = mcp_server.call("save_memory",
                            content="User prefers dark mode in all editors and terminals")
    assert again.error is False, again.text
    assert [d["id"] for d in again.data["possible_duplicates"]] == [first]
    other = mcp_server.call("save_memory", content="Prefers light mode in the terminal")
    assert first not in [d["id"] for d in other.data.get("possible_duplicates", [])]
    read = mcp_server.call("analyze_message",
                           message="The user prefers dark mode in every editor and terminal")
    assert read.data["phrase_signals"]["preference"] is True
