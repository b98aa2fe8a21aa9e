"""The memory tool as a user runs it: the SDK's own ``tool_runner`` (sync and async) with Claude's
answers played by a transport in the test (no network, no API key): the runner sends the tool to
the API as ``memory_20250818``, runs Claude's commands on the vault and sends back the answers,
a refusal as a tool result with ``is_error``."""

from __future__ import annotations

import json

import anthropic
import httpx2
from memory_tool_support import answer_async

from core.ops.inbox import inbox
from tui.memory_tool import AsyncVaultMemoryTool, VaultMemoryTool

_MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "usage": {"input_tokens": 1, "output_tokens": 1}, "stop_sequence": None}


def _claude(turns: list[list[dict]], seen: list[dict]):
    """A transport answering each request with the next turn: tool uses, then a last text."""
    def handle(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        uses = turns[len(seen) - 1] if len(seen) <= len(turns) else []
        content = [{"type": "tool_use", "id": f"toolu_{len(seen)}_{n}", "name": "memory",
                    "input": use} for n, use in enumerate(uses)] or [{"type": "text", "text": "ok"}]
        stop = "tool_use" if uses else "end_turn"
        return httpx2.Response(200, json={**_MESSAGE, "content": content, "stop_reason": stop})
    return handle


TURNS = [
    [{"command": "view", "path": "/memories"}],
    [{"command": "create", "path": "/memories/prefs.md", "file_text": "Likes black coffee\n"},
     {"command": "str_replace", "path": "/memories/prefs.md", "old_str": "tea", "new_str": "x"}],
]


def _results(request: dict) -> list[dict]:
    return [block for block in request["messages"][-1]["content"] if block["type"] == "tool_result"]


def test_the_sdks_tool_runner_runs_claudes_commands_on_the_vault(vault):
    seen: list[dict] = []
    client = anthropic.Anthropic(api_key="offline", http_client=httpx2.Client(
        transport=httpx2.MockTransport(_claude(TURNS, seen))))
    runner = client.beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=1024, tools=[VaultMemoryTool(vault)],
        messages=[{"role": "user", "content": "Remember that I like black coffee"}])
    final = runner.until_done()
    assert final.content[0].text == "ok"
    assert seen[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    (listing,) = _results(seen[1])
    assert listing["content"].endswith("0B\t/memories")
    created, refused = _results(seen[2])
    assert created["content"] == "File created successfully at: /memories/prefs.md"
    assert refused["is_error"] is True
    assert refused["content"] == ("No replacement was performed, old_str `tea` did not "
                                             "appear verbatim in /memories/prefs.md.")
    (entry,) = inbox(vault)
    assert entry.clients == ["anthropic/memory-tool"] and entry.operation == "added"


async def test_the_async_tool_runs_the_same_commands(vault):
    tool = AsyncVaultMemoryTool(vault)
    assert await answer_async(tool, "create", path="/memories/a.md", file_text="one\n") == \
        "File created successfully at: /memories/a.md"
    assert await answer_async(tool, "insert", path="/memories/a.md", insert_line=1,
                              insert_text="two") == "The file /memories/a.md has been edited."
    assert await answer_async(tool, "rename", old_path="/memories/a.md", new_path="/memories/b.md") \
        == "Successfully renamed /memories/a.md to /memories/b.md"
    assert (await answer_async(tool, "view", path="/memories/b.md")).endswith("1\tone\n     2\ttwo\n     3\t")
    assert await answer_async(tool, "insert", path="/memories/b.md", insert_line=5, insert_text="x") \
        == "ToolError: Invalid `insert_line` parameter: 5. It should be within the range [0, 2]."
    assert await answer_async(tool, "delete", path="/memories/b.md") == "Successfully deleted /memories/b.md"
    assert [m.status.value for m in vault.memories.values()] == ["archived"]


async def test_the_async_sdk_runner_drives_the_async_tool(vault):
    seen: list[dict] = []
    client = anthropic.AsyncAnthropic(api_key="offline", http_client=httpx2.AsyncClient(
        transport=httpx2.MockTransport(_claude(TURNS[1:], seen))))
    runner = client.beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=1024, tools=[AsyncVaultMemoryTool(vault)],
        messages=[{"role": "user", "content": "Remember that I like black coffee"}])
    await runner.until_done()
    created, refused = _results(seen[1])
    assert created["content"] == "File created successfully at: /memories/prefs.md"
    assert refused["is_error"] is True
    assert [m.content for m in vault.memories.values()] == ["Likes black coffee\n"]
