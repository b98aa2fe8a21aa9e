"""The assistant writes its own gist: save_memory's gist, a split part's gist and a merged
memory's gist are kept as written when they are gists (shorter than the content, no control
character), refused with nothing written when not; without one, memvault makes one."""

from __future__ import annotations

import json

from mcp_support import McpServer, head

LONG = ("The release train leaves every second Tuesday: the branch is cut on Monday at noon, "
        "the changelog is frozen then, and a fix that misses the cut waits for the next train "
        "unless the on-call lead approves it as a hotfix with a rollback plan written down.")


def _file(server: McpServer, memory_id: str) -> dict:
    return json.loads((server.vault / "memories" / f"{memory_id}.json").read_text())


def test_save_memory_keeps_the_assistants_gist(mcp_server: McpServer):
    gist = "Release train: every 2nd Tuesday, cut Monday noon, hotfix needs lead approval."
    answer = mcp_server.call("save_memory", content=LONG, gist=f"  {gist}\n")
    assert answer.error is False, answer.text
    assert answer.data["gist"] == gist
    assert _file(mcp_server, answer.data["memory_id"])["gist"] == gist


def test_a_gist_that_is_no_gist_is_refused_and_nothing_is_written(mcp_server: McpServer):
    before = head(mcp_server.vault)
    for bad in (LONG + " And more.", "   ", "a gist with \x1b[31m colour"):
        answer = mcp_server.call("save_memory", content=LONG, gist=bad)
        assert answer.error is True, bad
        assert "gist" in answer.text
    assert head(mcp_server.vault) == before


def test_without_a_gist_memvault_makes_one(mcp_server: McpServer):
    answer = mcp_server.call("save_memory", content=LONG)
    assert answer.data["gist"] and len(answer.data["gist"]) < len(LONG)


def test_split_parts_and_a_merged_memory_take_a_gist(mcp_server: McpServer):
    whole = mcp_server.call("save_memory", content=LONG + "\n\nThe staging database is reset "
                            "every night at two, from the production snapshot of that "
                            "morning, with personal data masked.").data["memory_id"]
    parts = [{"content": LONG, "gist": "Release train every 2nd Tuesday."},
             "The staging database is reset nightly from a masked production snapshot."]
    preview = mcp_server.call("split_memory", memory_id=whole, parts=parts, preview=True)
    assert preview.error is False, preview.text
    assert preview.data["parts"][0]["gist"] == "Release train every 2nd Tuesday."
    bad = mcp_server.call("split_memory", memory_id=whole, preview=True,
                          parts=[{"content": "Short.", "gist": "Far longer than its part."},
                                 parts[1]])
    assert bad.error is True and "part 1" in bad.text
    a = mcp_server.call("save_memory", content="Kiwis ripen on the counter in three days "
                        "next to apples.").data["memory_id"]
    b = mcp_server.call("save_memory", content="Kiwis ripen faster beside apples, in about "
                        "three days on the counter.").data["memory_id"]
    merged = mcp_server.call("consolidate_memories", memory_ids=[a, b], gist="Kiwis ripen "
                             "by apples.")
    assert merged.error is False, merged.text
    assert merged.data["merged_memory"]["gist"] == "Kiwis ripen by apples."
