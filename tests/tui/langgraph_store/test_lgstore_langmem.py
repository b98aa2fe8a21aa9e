"""LangMem's memory tools and LangGraph's ``create_react_agent`` on the vault's store, unchanged:
the tools' own code drives :class:`tui.langgraph_store.VaultStore`, and an agent (a fake chat
model from langchain_core: offline, no API call) saves and finds a memory through them. What it
wrote is a memory of the vault, committed with ``Memvault-Via: langgraph``."""

from __future__ import annotations

import json
import re
import warnings

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.prebuilt import create_react_agent
from vault_support import run_git

with warnings.catch_warnings():  # (trustcall, which langmem imports, uses a name 2.0 removes)
    warnings.filterwarnings("ignore", "Importing Send from langgraph.constants")
    from langmem import create_manage_memory_tool, create_search_memory_tool

from core import MemoryStatus, Vault

NAMESPACE = ("memories", "{langgraph_user_id}")
CONFIG = {"configurable": {"langgraph_user_id": "alice"}}
#: (create_react_agent says it moves to langchain.agents in LangGraph 2.0)
pytestmark = pytest.mark.filterwarnings("ignore:create_react_agent has been moved")


class ToolCallingFakeModel(GenericFakeChatModel):
    """langchain_core's fake chat model (its answers given in order), accepting tools: the
    agent binds them, the fake ignores them."""

    def bind_tools(self, tools, **kwargs):  # type: ignore[no-untyped-def]
        return self


def _created_id(answer: str) -> str:
    found = re.fullmatch(r"created memory ([0-9a-f-]{36})", answer)
    assert found, answer
    return found.group(1)


def test_langmems_tools_create_update_search_and_delete_on_the_vault(store, vault_path):
    manage = create_manage_memory_tool(namespace=("memories", "alice"), store=store)
    search = create_search_memory_tool(namespace=("memories", "alice"), store=store)
    key = _created_id(manage.invoke({"content": "Alice is allergic to shellfish"}))
    manage.invoke({"content": "We prefer golang for the backend", "action": "create"})
    manage.invoke({"content": "Alice is allergic to shellfish and peanuts", "action": "update",
                   "id": key})
    found = json.loads(search.invoke({"query": "what is alice allergic to"}))
    assert [(f["key"], f["value"]) for f in found][:1] == \
        [(key, {"content": "Alice is allergic to shellfish and peanuts"})]
    assert found[0]["namespace"] == ["memories", "alice"] and found[0]["score"] > 0
    assert manage.invoke({"action": "delete", "id": key}) == f"Deleted memory {key}"
    assert [f["key"] for f in json.loads(search.invoke({"query": "allergic"}))] == []
    with Vault.open(vault_path, readonly=True) as v:
        archived = [m for m in v.memories.values() if m.status == MemoryStatus.ARCHIVED]
    assert [m.content for m in archived] == ["Alice is allergic to shellfish and peanuts"]
    subjects = run_git(vault_path, "log", "--format=%s").splitlines()
    assert [s.split(":")[0] for s in subjects] == ["archive", "update", "add", "add", "init"]


async def test_langmems_async_tools_on_the_vault(store):
    manage = create_manage_memory_tool(namespace=("memories", "bob"), store=store)
    search = create_search_memory_tool(namespace=("memories", "bob"), store=store)
    key = _created_id(await manage.ainvoke({"content": "Bob runs the on-call rota"}))
    found = json.loads(await search.ainvoke({"query": "on-call"}))
    assert [f["key"] for f in found] == [key]


def test_a_react_agent_saves_and_finds_a_memory_through_the_store(store, vault_path):
    model = ToolCallingFakeModel(messages=iter([
        AIMessage("", tool_calls=[{"name": "manage_memory", "id": "call-1",
                                   "args": {"content": "Alice's dentist is on Tuesdays"}}]),
        AIMessage("", tool_calls=[{"name": "search_memory", "id": "call-2",
                                   "args": {"query": "dentist"}}]),
        AIMessage("Your dentist is on Tuesdays."),
    ]))
    agent = create_react_agent(
        model, tools=[create_manage_memory_tool(namespace=NAMESPACE),
                      create_search_memory_tool(namespace=NAMESPACE)], store=store)
    out = agent.invoke({"messages": [{"role": "user", "content": "When is my dentist?"}]},
                       CONFIG)
    tools = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    key = _created_id(tools[0].content)
    assert [f["value"] for f in json.loads(tools[1].content)] == \
        [{"content": "Alice's dentist is on Tuesdays"}]
    assert out["messages"][-1].content == "Your dentist is on Tuesdays."
    assert store.get(("memories", "alice"), key).value == \
        {"content": "Alice's dentist is on Tuesdays"}
    body = run_git(vault_path, "log", "-1", "--format=%B")
    assert body.startswith("add: ") and "Memvault-Via: langgraph" in body
