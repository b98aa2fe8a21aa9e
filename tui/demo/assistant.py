"""The demo's last hours: writes an assistant made through its own door and nobody reviewed yet,
so the review inbox (``memvault inbox``, ``I`` in the app) has entries to show.

Each write is made as that door makes it: on ``vault.acting_for(via=..., tool=...)``, so its
commit carries the trailers ``Memvault-Via`` and ``Memvault-Tool`` (docs/inbox.md), with
the door's commit message. An MCP client (``mcp/claude-code``) saves a memory that supersedes an
old one and archives one that is out of date; Claude's memory tool (``anthropic/memory-tool``,
whose ``str_replace`` is the assistants' way to change a text) updates a third.
"""

from __future__ import annotations

import uuid
from random import Random

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.vault.reports import op_message

#: the MCP client's name, as the server labels it (``mcp/<clientInfo.name>``)
MCP_CLIENT = "mcp/claude-code"
#: Claude's memory tool (``tui.memory_tool.backend.DEFAULT_VIA``)
MEMORY_TOOL = "anthropic/memory-tool"

#: added with save_memory (content, tags, entities), superseding the memory holding the phrase
ADDED = ("The team's standup moves to 10:00 from next month, after Alice asked for a later "
         "start; the standup is still skipped on Fridays.", ["work", "team"], ["Alice"])
SUPERSEDED = "The team's standup is at 9:30"
#: changed with str_replace: (a phrase of the memory, old words, new words)
UPDATED = ("Is learning Rust with the official book", "the chapter on lifetimes",
           "the chapter on smart pointers")
#: archived with archive_memory: a phrase of the memory
ARCHIVED = "Dave is on parental leave"


def _find(vault: Vault, phrase: str) -> Memory:
    """The active memory whose content holds ``phrase`` (the demo's data lists it)."""
    found = [m for m in vault.memories.values()
             if phrase in m.content and m.status != MemoryStatus.ARCHIVED]
    if len(found) != 1:
        raise LookupError(f"the demo needs one active memory holding {phrase!r}, "
                          f"found {len(found)}")
    return found[0]


def write_as_assistants(vault: Vault, when: int, rng: Random) -> None:
    """The three unreviewed writes (an add and its relation, an update, an archive), each its
    own commit through the door that makes it; ``when`` is the add's time."""
    mcp_save = vault.acting_for(via=MCP_CLIENT, tool="save_memory")
    content, tags, entities = ADDED
    added = Memory(id=str(uuid.UUID(int=rng.getrandbits(128), version=4)), content=content,
                   created_at=when, last_used=when, entities=entities,
                   meta=MemoryMetadata(tags=tags, source="mcp:save_memory"))
    mcp_save.save(added, message=op_message("save_memory", [added]))
    old = _find(vault, SUPERSEDED)
    vault.acting_for(via=MCP_CLIENT, tool="create_relation").relate(added.id, old.id,
                                                                    "supersedes")
    phrase, before, after = UPDATED
    target = _find(vault, phrase)
    changed = target.model_copy(update={
        "content": target.content.replace(before, after),
        "gist": target.gist.replace(before, after) if target.gist else None})
    vault.acting_for(via=MEMORY_TOOL, tool="str_replace").save(
        changed, message=op_message("str_replace", [changed]))
    vault.acting_for(via=MCP_CLIENT, tool="archive_memory").archive(_find(vault, ARCHIVED).id)
