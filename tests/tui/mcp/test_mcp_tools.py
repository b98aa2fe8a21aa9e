"""Every tool of ``memvault mcp`` over a real stdio connection (the mcp package's own client):
what it answers, what it writes to the files, and the commit it makes (one, naming the tool, with
``Memvault-Via: mcp/<client>``) or does not make."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_support import CLIENT_NAME, McpServer, commits_since, head

from core import Memory, Vault
from core.model.records import now_epoch

VIA = f"Memvault-Via: mcp/{CLIENT_NAME}"
READ_TOOLS = {"search_memory", "open_memories", "read_graph", "recall", "memory_history",
              "cluster_memories", "search_unified", "analyze_message", "analyze_for_recall",
              "get_performance_metrics"}
WRITE_TOOLS = {"save_memory", "touch_memory", "create_relation", "observe_memory_usage",
               "archive_memory", "delete_memory", "restore_memory", "undo_last", "gc",
               "promote_memory", "consolidate_memories", "split_memory",
               "auto_recall_process_message", "backfill_embeddings", "reset_performance_metrics"}


def file_of(server: McpServer, memory_id: str) -> dict:
    return json.loads((server.vault / "memories" / f"{memory_id}.json").read_text())


def save(server: McpServer, content: str, **fields) -> str:
    answer = server.call("save_memory", content=content, **fields)
    assert answer.error is False, answer.text
    return answer.data["memory_id"]


def one_commit(server: McpServer, before: str, subject_start: str, tool: str) -> str:
    """The single commit since ``before``: its subject starts as given, and its trailers name
    the client and the tool."""
    messages = commits_since(server.vault, before)
    assert len(messages) == 1, messages
    assert messages[0].startswith(subject_start), messages[0]
    assert messages[0].splitlines()[-2:] == [VIA, f"Memvault-Tool: {tool}"], messages[0]
    return messages[0]


def test_every_tool_is_listed_with_its_annotations(mcp_server):
    tools = {t.name: t for t in mcp_server.tools()}
    assert set(tools) == READ_TOOLS | WRITE_TOOLS
    for name in READ_TOOLS:
        assert tools[name].annotations.read_only_hint is True, name
    for name in WRITE_TOOLS:
        assert tools[name].annotations.read_only_hint is False, name
    for name in ("delete_memory", "gc", "consolidate_memories"):
        assert tools[name].annotations.destructive_hint is True, name
    assert tools["save_memory"].annotations.destructive_hint is False
    params = tools["search_memory"].input_schema["properties"]
    assert {"query", "tags", "status", "top_k", "window_days", "min_score", "page", "page_size",
            "preview_length"} <= set(params)
    assert params["top_k"]["default"] == 10
    assert mcp_server.init.server_info.name == "memvault"


def test_save_memory_writes_one_file_in_one_commit_naming_tool_and_client(mcp_server):
    before = head(mcp_server.vault)
    answer = mcp_server.call("save_memory", content="The user deploys with blue-green switches.",
                             tags=["ops", "deploy", "ops"], entities=["Kubernetes"],
                             source="chat", context="release planning",
                             meta={"project": "atlas"}, strength=1.5)
    assert answer.error is False
    data = answer.data
    assert data["success"] is True and data["calculated_strength"] == 1.5
    assert data["message"] == f"Memory saved with ID: {data['memory_id']}"
    on_disk = file_of(mcp_server, data["memory_id"])
    assert on_disk["content"] == "The user deploys with blue-green switches."
    assert on_disk["meta"]["tags"] == ["ops", "deploy"]
    assert on_disk["meta"]["extra"] == {"project": "atlas"}
    assert on_disk["entities"] == ["Kubernetes"] and on_disk["strength"] == 1.5
    one_commit(mcp_server, before, f"save_memory: {data['memory_id'][:8]} The user deploys",
               "save_memory")


def test_reads_answer_in_cortexgraph_shapes_without_a_commit(mcp_server):
    mid = save(mcp_server, "Staging runs on the nightly image; rebuild it after a base bump.",
               tags=["staging"])
    other = save(mcp_server, "Staging secrets live in the vault path kv/staging.",
                 tags=["staging"])
    relation = mcp_server.call("create_relation", from_memory_id=mid, to_memory_id=other,
                               relation_type="related").data["relation_id"]
    before = head(mcp_server.vault)

    found = mcp_server.call("search_memory", query="staging", tags=["staging"], top_k=5,
                            preview_length=20).data
    assert found["success"] is True and found["count"] == 2
    assert {r["id"] for r in found["results"]} == {mid, other}
    first = found["results"][0]
    assert set(first) >= {"id", "content", "tags", "score", "similarity", "use_count",
                          "last_used", "age_days", "review_priority"}
    assert len(first["content"]) <= 23 and first["content"].endswith("...")
    # The server is shared by the session: other tests save "staging" too, so
    # the paged search keeps to this test's tag.
    paged = mcp_server.call("search_memory", query="staging", tags=["staging"], page=2,
                            page_size=1).data
    assert paged["count"] == 1 and paged["pagination"]["total_count"] == 2
    assert paged["pagination"]["has_previous"] is True

    opened = mcp_server.call("open_memories", memory_ids=[mid[:8], other]).data
    assert [m["id"] for m in opened["memories"]] == [mid, other]
    assert opened["memories"][0]["relations"]["outgoing"] == [
        {"to": other, "type": "related", "strength": 1.0}]
    assert opened["memories"][1]["relations"]["incoming"][0]["from"] == mid
    assert "score" in opened["memories"][0] and opened["not_found"] == []
    bare = mcp_server.call("open_memories", memory_ids=mid, include_relations=False,
                           include_scores=False).data["memories"][0]
    assert "relations" not in bare and "score" not in bare

    graph = mcp_server.call("read_graph", status="all").data
    assert {mid, other} <= {m["id"] for m in graph["memories"]}
    assert relation in {r["id"] for r in graph["relations"]}
    assert graph["stats"]["status_filter"] == "all"
    assert len(mcp_server.call("read_graph", limit=1).data["memories"]) == 1

    recalled = mcp_server.call("recall", query="staging nightly image", token_budget=200).data
    assert recalled["memories"][0]["id"] == mid
    assert mid[:8] in recalled["context"] and recalled["tokens"] <= 200

    history = mcp_server.call("memory_history", memory_id=mid[:8]).data
    assert history["exists"] is True
    assert [h["action"] for h in history["history"]] == ["created"]
    assert history["history"][0]["via"] == f"mcp/{CLIENT_NAME}"
    assert history["history"][0]["subject"].startswith("save_memory: ")

    assert commits_since(mcp_server.vault, before) == []


def test_touch_memory_reinforces_in_one_commit(mcp_server):
    mid = save(mcp_server, "Prefers short commit subjects under 60 characters.")
    before = head(mcp_server.vault)
    data = mcp_server.call("touch_memory", memory_id=mid[:8], boost_strength=True).data
    assert data["success"] is True and data["memory_id"] == mid
    assert data["use_count"] == 1 and data["strength"] == 1.1
    assert file_of(mcp_server, mid)["use_count"] == 1
    one_commit(mcp_server, before, f"touch: {mid[:8]}", "touch_memory")


def test_create_relation_once_then_says_it_exists(mcp_server):
    a = save(mcp_server, "The API uses JWT access tokens.")
    b = save(mcp_server, "Access tokens expire after 15 minutes.")
    before = head(mcp_server.vault)
    made = mcp_server.call("create_relation", from_memory_id=a[:8], to_memory_id=b,
                           relation_type="supports", strength=0.5, metadata={"why": "same API"})
    data = made.data
    assert data["success"] is True and (data["from"], data["to"]) == (a, b)
    path = mcp_server.vault / "relations" / f"{data['relation_id']}.json"
    stored = json.loads(path.read_text())
    assert stored["relation_type"] == "supports" and stored["metadata"] == {"why": "same API"}
    one_commit(mcp_server, before, f"create_relation: {a[:8]} -supports-> {b[:8]}",
               "create_relation")
    after = head(mcp_server.vault)
    again = mcp_server.call("create_relation", from_memory_id=a, to_memory_id=b,
                            relation_type="supports").data
    assert again["success"] is False
    assert again["existing_relation_id"] == data["relation_id"]
    assert head(mcp_server.vault) == after


def test_observe_memory_usage_is_one_use_record_commit(mcp_server):
    a = save(mcp_server, "Lint with ruff before pushing.", tags=["python", "lint"])
    b = save(mcp_server, "CI caches the ruff binary.", tags=["ci"])
    before = head(mcp_server.vault)
    data = mcp_server.call("observe_memory_usage", memory_ids=[a, b[:8]],
                           context_tags=["python", "lint"]).data
    assert data["reinforced"] is True and data["count"] == 2
    assert [r["cross_domain"] for r in data["results"]] == [False, True]
    assert file_of(mcp_server, a)["review_count"] == 1
    assert file_of(mcp_server, b)["strength"] == pytest.approx(1.05)
    message = one_commit(mcp_server, before, "touch: 2 used", "observe_memory_usage")
    assert "observe_memory_usage" in message.splitlines()[0]


def test_archive_delete_history_restore_and_undo(mcp_server):
    mid = save(mcp_server, "Backups run at 02:00 UTC from the replica.")
    keep = save(mcp_server, "The replica lags under 5 s.")
    mcp_server.call("create_relation", from_memory_id=mid, to_memory_id=keep,
                    relation_type="related")

    before = head(mcp_server.vault)
    data = mcp_server.call("archive_memory", memory_id=mid[:8]).data
    assert data["status"] == "archived" and file_of(mcp_server, mid)["status"] == "archived"
    one_commit(mcp_server, before, f"archive: {mid[:8]}", "archive_memory")

    before = head(mcp_server.vault)
    data = mcp_server.call("delete_memory", memory_id=mid).data
    assert data["success"] is True and len(data["relations_removed"]) == 1
    assert not (mcp_server.vault / "memories" / f"{mid}.json").exists()
    one_commit(mcp_server, before, f"delete: {mid[:8]}", "delete_memory")

    history = mcp_server.call("memory_history", memory_id=mid[:8]).data
    assert history["exists"] is False
    assert [h["action"] for h in history["history"]] == ["deleted", "changed", "created"]

    before = head(mcp_server.vault)
    data = mcp_server.call("restore_memory", memory_id=mid[:8]).data
    assert data["memory_id"] == mid and len(data["relations_restored"]) == 1
    assert file_of(mcp_server, mid)["status"] == "archived"
    one_commit(mcp_server, before, f"restore: {mid[:8]}", "restore_memory")

    before = head(mcp_server.vault)
    data = mcp_server.call("undo_last").data
    assert data["success"] is True and data["subject"].startswith(f"restore: {mid[:8]}")
    assert not (mcp_server.vault / "memories" / f"{mid}.json").exists()
    one_commit(mcp_server, before, f"undo: restore: {mid[:8]}", "undo_last")

    created = history["history"][-1]["commit"]
    before = head(mcp_server.vault)
    data = mcp_server.call("restore_memory", memory_id=mid, commit=created).data
    assert data["from_commit"] == created
    assert file_of(mcp_server, mid)["status"] == "active"
    one_commit(mcp_server, before, f"restore: {mid[:8]}", "restore_memory")


def _faded(vault: Path, content: str, years: int) -> str:
    """A memory last used years ago, committed by another process (the test's own)."""
    long_ago = now_epoch() - years * 365 * 86400
    with Vault.open(vault) as v:
        return v.save(Memory(id=f"faded-{abs(hash(content)) % 10**8:08d}", content=content,
                             created_at=long_ago, last_used=long_ago)).id


def test_gc_dry_run_lists_and_apply_prunes_in_one_commit(mcp_server):
    faded = [_faded(mcp_server.vault, f"An old note number {i} nobody used.", 2 + i)
             for i in range(3)]
    before = head(mcp_server.vault)
    preview = mcp_server.call("gc").data
    assert preview["dry_run"] is True and preview["removed_count"] == 3
    assert set(preview["memory_ids"]) == set(faded)
    assert commits_since(mcp_server.vault, before) == []

    data = mcp_server.call("gc", dry_run=False, archive_instead=True, limit=2).data
    assert data["archived_count"] == 2 and data["total_affected"] == 2
    assert [file_of(mcp_server, i)["status"] for i in faded] == ["active", "archived", "archived"]
    one_commit(mcp_server, before, "gc: archive 2 memories below", "gc")

    before = head(mcp_server.vault)
    data = mcp_server.call("gc", dry_run=False).data
    assert data["removed_count"] == 1
    one_commit(mcp_server, before, "gc: prune 1 memory below", "gc")


def test_promote_memory_refuses_below_the_criteria_and_forces(mcp_server):
    days_ago = now_epoch() - 4 * 86400
    with Vault.open(mcp_server.vault) as v:
        mid = v.save(Memory(id="standup-0930", content="The team standup is at 09:30 CET.",
                            created_at=days_ago, last_used=days_ago)).id
        score = v.score(v.get(mid))
        assert v.config.forget_threshold < score < v.config.promote_threshold
    before = head(mcp_server.vault)
    refused = mcp_server.call("promote_memory", memory_id=mid)
    assert refused.error is True and "does not meet the promotion criteria" in refused.text
    preview = mcp_server.call("promote_memory", memory_id=mid, dry_run=True, force=True).data
    assert preview["candidates_found"] == 1 and preview["promoted_count"] == 0
    assert commits_since(mcp_server.vault, before) == []

    data = mcp_server.call("promote_memory", memory_id=mid[:8], force=True).data
    assert data["promoted_ids"] == [mid]
    assert file_of(mcp_server, mid)["status"] == "promoted"
    one_commit(mcp_server, before, f"promote_memory: {mid[:8]}", "promote_memory")
    again = mcp_server.call("promote_memory", memory_id=mid)
    assert again.error is True and "already promoted" in again.text


def test_cluster_then_consolidate_by_cluster_id(mcp_server):
    text = "Quarterly zeppelin maintenance requires helium top-up and envelope inspection"
    a = save(mcp_server, text + ".", tags=["zeppelin"])
    saved = mcp_server.call("save_memory", content=text + " checks.", tags=["zeppelin"]).data
    b = saved["memory_id"]
    # the save says what it likely duplicates, and how to merge (it merges nothing itself)
    likely = saved["possible_duplicates"]
    assert [d["id"] for d in likely] == [a] and 0.83 < likely[0]["similarity"] < 1
    assert "consolidate_memories" in saved["message"] and a in saved["message"]
    assert file_of(mcp_server, a)["status"] == file_of(mcp_server, b)["status"] == "active"
    duplicates = mcp_server.call("cluster_memories", find_duplicates=True).data["duplicates"]
    assert {a, b} in [{d["id1"], d["id2"]} for d in duplicates]
    clusters = mcp_server.call("cluster_memories", threshold=0.8).data["clusters"]
    cluster = next(c for c in clusters if set(c["memory_ids"]) == {a, b})
    before = head(mcp_server.vault)

    preview = mcp_server.call("consolidate_memories", cluster_id=cluster["id"]).data
    assert preview["mode"] == "preview" and preview["num_memories"] == 2
    assert "zeppelin" in preview["merged_memory"]["content"]
    assert commits_since(mcp_server.vault, before) == []

    data = mcp_server.call("consolidate_memories", memory_ids=[a[:8], b],
                           mode="apply").data
    merged = data["new_memory_id"]
    assert sorted(data["consolidated_ids"]) == sorted([a, b])
    assert file_of(mcp_server, merged)["meta"]["tags"] == ["zeppelin"]
    assert not (mcp_server.vault / "memories" / f"{a}.json").exists()
    one_commit(mcp_server, before, "consolidate_memories: merge 2", "consolidate_memories")


def test_split_memory_previews_then_splits_in_one_commit(mcp_server):
    mid = save(mcp_server, "Use uv for environments. Pin numpy below 2 for the GIS stack.",
               tags=["python"])
    parts = ["Use uv for environments.", "Pin numpy below 2 for the GIS stack."]
    before = head(mcp_server.vault)
    preview = mcp_server.call("split_memory", memory_id=mid[:8], parts=parts, preview=True).data
    assert preview["preview"] is True and [p["content"] for p in preview["parts"]] == parts
    assert commits_since(mcp_server.vault, before) == []

    data = mcp_server.call("split_memory", memory_id=mid, parts=parts).data
    assert len(data["new_memory_ids"]) == 2 and data["original"] == "archive"
    assert file_of(mcp_server, mid)["status"] == "archived"
    assert [file_of(mcp_server, i)["meta"]["tags"] for i in data["new_memory_ids"]] == [
        ["python"], ["python"]]
    one_commit(mcp_server, before, f"split_memory: decompose {mid[:8]} into 2", "split_memory")


def test_split_memory_names_the_memories_a_part_likely_repeats(mcp_server):
    known = save(mcp_server, "The greenhouse vents open at 24 degrees in spring.",
                 tags=["garden"])
    mid = save(mcp_server, "Seed potatoes chit on the windowsill in February. The greenhouse "
               "vents open at 24 degrees in spring, always.", tags=["garden"])
    parts = ["Seed potatoes chit on the windowsill in February.",
             "The greenhouse vents open at 24 degrees in spring, always."]
    for preview in (True, False):
        data = mcp_server.call("split_memory", memory_id=mid, parts=parts, preview=preview).data
        first, second = (p["likely_duplicates"] for p in data["parts"])
        assert first == [] and [d["id"] for d in second] == [known], data
        assert 0 < second[0]["similarity"] <= 1


def test_the_server_sees_what_other_processes_commit(mcp_server):
    with Vault.open(mcp_server.vault) as v:
        outside = v.add("Written by the CLI while the server runs.").id
    opened = mcp_server.call("open_memories", memory_ids=outside[:8])
    assert opened.error is False and opened.data["memories"][0]["id"] == outside


def test_search_memory_is_ranked(mcp_server):
    """Core's ranked search: any word finds, the memory holding every word comes first, and
    the query language works (a phrase, an excluded word)."""
    both = save(mcp_server, "The quarterly invoice for the hosting bill goes to Marta in March.")
    one = save(mcp_server, "Hosting moved to a bigger machine last spring.")
    save(mcp_server, "Nothing to do with the other two notes at all.")
    found = mcp_server.call("search_memory", query="hosting invoice", top_k=5).data
    ids = [r["id"] for r in found["results"]]
    assert ids[:2] == [both, one]
    phrase = mcp_server.call("search_memory", query='"bigger machine"').data
    assert [r["id"] for r in phrase["results"]] == [one]
    without = mcp_server.call("search_memory", query="hosting -invoice").data
    assert [r["id"] for r in without["results"]] == [one]
