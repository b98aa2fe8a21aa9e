"""The server's resources, JSON each:

* ``memvault://memory/{memory_id}`` (a template; a full id or a unique prefix): the memory as
  ``open_memories`` shows it (content, gist, tags, entities, status...) with its decay score and
  its relations both ways. Reading it records no use: a client showing a memory to a person is
  not the assistant using it (``open_memories`` and ``observe_memory_usage`` are).
* ``memvault://tag/{tag}`` (a template): the memories carrying that tag, newest first (at most
  :data:`TAGGED_SHOWN`, with the count), each as its id, status and the start of its text.
* ``memvault://inbox``: what the assistant wrote that the person has not reviewed yet, as
  ``memvault inbox --json`` lists it (newest first), with the commit it was computed at.
* ``memvault://stats``: the vault's figures, as ``memvault stats --json``.

Subscriptions and change notifications for them: :mod:`tui.mcp.notifications`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from core import Vault
from core.errors import InvalidIdError, UnknownIdError
from core.model.records import now_epoch

from . import shapes
from .access import ToolRefusal, VaultAccess

SCHEME = "memvault"
MEMORY_TEMPLATE = f"{SCHEME}://memory/{{memory_id}}"
MEMORY_PREFIX = f"{SCHEME}://memory/"
TAG_TEMPLATE = f"{SCHEME}://tag/{{tag}}"
TAGGED_SHOWN = 200
INBOX_URI = f"{SCHEME}://inbox"
STATS_URI = f"{SCHEME}://stats"
JSON = "application/json"


def memory_uri(memory_id: str) -> str:
    return MEMORY_PREFIX + memory_id


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


def _read(access: VaultAccess, job: Callable[[Vault], Any]) -> str:
    """``job``'s answer as JSON; a refusal is a resource error with the same words."""
    try:
        return _json(access.read(job))
    except ToolRefusal as exc:
        raise ResourceError(str(exc)) from None


def memory_document(vault: Vault, key: str) -> dict[str, Any]:
    """The memory ``key`` names, with its score and relations (ResourceNotFoundError when no
    living memory has that id or prefix)."""
    try:
        mid = vault.resolve(key.strip())
    except (UnknownIdError, InvalidIdError) as exc:
        raise ResourceNotFoundError(str(exc)) from None
    data = shapes.opened_memory(vault, vault.memories[mid], now_epoch(),
                                include_relations=True, include_scores=True)
    return {"uri": memory_uri(mid), **data}


def tag_document(vault: Vault, tag: str) -> dict[str, Any]:
    """The memories carrying ``tag`` (ResourceNotFoundError when none does)."""
    found = sorted((m for m in vault.memories.values() if tag in m.meta.tags),
                   key=lambda m: (-m.created_at, m.id))
    if not found:
        raise ResourceNotFoundError(f"no memory is tagged {tag!r}")
    return {"tag": tag, "count": len(found),
            "memories": [{"id": m.id, "uri": memory_uri(m.id), "status": getattr(m.status, "value", m.status),
                          "text": m.text[:100]}
                         for m in found[:TAGGED_SHOWN]]}


def inbox_document(vault: Vault) -> dict[str, Any]:
    from core.ops.inbox import review  # (imported when first read: not on the start-up path)

    view = review(vault)
    return {"head": view.head, "mark": view.mark, "count": len(view.entries),
            "entries": [e.as_dict() for e in view.entries]}


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.resource(MEMORY_TEMPLATE, name="memory", title="A memory", mime_type=JSON,
                     description="One memory by id (or unique prefix): content, gist, tags, "
                                 "status, its decay score and its relations both ways.")
    def memory(memory_id: str) -> str:
        return _read(access, lambda vault: memory_document(vault, memory_id))

    @server.resource(TAG_TEMPLATE, name="tag", title="Memories with a tag", mime_type=JSON,
                     description="The memories carrying a tag, newest first: id, status and the "
                                 "start of each one's gist or content.")
    def tagged(tag: str) -> str:
        return _read(access, lambda vault: tag_document(vault, tag))

    @server.resource(INBOX_URI, name="inbox", title="Review inbox", mime_type=JSON,
                     description="What the assistant wrote that the person has not reviewed "
                                 "yet, one entry a memory, newest first (memvault inbox).")
    def inbox() -> str:
        return _read(access, inbox_document)

    @server.resource(STATS_URI, name="stats", title="Vault statistics", mime_type=JSON,
                     description="The vault's figures: memories by status, relations, tags, "
                                 "scores and the memories below the forget threshold.")
    def stats() -> str:
        return _read(access, lambda vault: vault.stats())
