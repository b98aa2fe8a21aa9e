"""The server's prompts: each one leads the assistant through the tools for one job, step by step,
with what it needs to start (the memory to split, the inbox as it is) read from the vault:

* ``review_inbox``: go through what the assistant wrote that the person has not reviewed, with
  the person, and set right what they want changed;
* ``split_memory`` (``memory_id``): one memory holding several ideas into one memory an idea;
* ``consolidate_memories`` (``memory_ids``, optional): near-duplicates into one memory;
* ``recall_for_task`` (``task``): what the vault knows that bears on a task, before starting it.

A prompt only reads (and records no use); the steps it gives preview before they write.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from pydantic import Field

from core import Vault
from core.textutil import neutralise_line

from .access import ToolRefusal, VaultAccess
from .resources import INBOX_URI, inbox_document, memory_document, memory_uri

INBOX_SHOWN = 50  # entries written into the prompt; the rest are in the inbox resource
_SEPARATORS = re.compile(r"[\s,]+")

#: The prompts' arguments, as the client is told of them.
MemoryToSplit = Annotated[str, Field(description="the memory to split: its id or a unique prefix")]
MemoriesToMerge = Annotated[str, Field(
    description="two or more memory ids (or prefixes), separated by spaces or commas; none: find "
                "the candidates first")]
TaskToDo = Annotated[str, Field(description="the task about to be done, in a sentence")]


def _read(access: VaultAccess, job: Callable[[Vault], Any]) -> Any:
    """``job``'s answer; a refusal (an unknown id...) is the prompt's error, in the same words."""
    try:
        return access.read(job)
    except ToolRefusal as exc:
        raise MCPError(code=INVALID_PARAMS, message=str(exc)) from None
    except MCPError:
        raise
    except Exception as exc:  # noqa: BLE001 - a ResourceNotFoundError from memory_document
        raise MCPError(code=INVALID_PARAMS, message=str(exc)) from None


def _ids(text: str) -> list[str]:
    return [key for key in _SEPARATORS.split(text.strip()) if key]


def _inbox_lines(document: dict[str, Any]) -> list[str]:
    lines = []
    for entry in document["entries"][:INBOX_SHOWN]:
        summary = neutralise_line(entry["summary"])
        lines.append(f"- {entry['memory_id'][:8]} {entry['operation']}: "
                     f"{neutralise_line(entry['preview'])}" + (f" ({summary})" if summary else ""))
    if document["count"] > INBOX_SHOWN:
        lines.append(f"- ... and {document['count'] - INBOX_SHOWN} more: read {INBOX_URI}")
    return lines


def _steps(opening: str, steps: list[str]) -> list[UserMessage]:
    """A prompt's one message: ``opening``, then the steps numbered from 1, a line each."""
    return [UserMessage(opening + "\n".join(f"{n}. {step}" for n, step in enumerate(steps, 1)))]


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.prompt(title="Review the inbox",
                   description="Go through what you (the assistant) wrote that the person has "
                               "not reviewed yet, with them, and set right what they want changed.")
    def review_inbox() -> list[UserMessage]:
        document = _read(access, inbox_document)
        if not document["count"]:
            return [UserMessage("The memvault inbox is empty: everything the assistant wrote has "
                                "been reviewed. Tell me so; there is nothing to do.")]
        listed = "\n".join(_inbox_lines(document))
        return _steps(
            f"Let's review what you saved in my memory vault that I have not looked at yet "
            f"({document['count']} memories; the full entries, with before/after of each field, "
            f"are in the resource {INBOX_URI}):\n\n{listed}\n\n"
            "For each entry, in order:\n", [
                "Show me what changed in one or two lines (open_memories for the memory as it "
                "is now, memory_history for what happened to it).",
                "Ask me whether it is right. Do not change anything before I answer.",
                "If I want it changed: a wrong or outdated memory goes with archive_memory (or "
                "delete_memory if I say so; restore_memory brings it back); a memory that mixes "
                "ideas goes through split_memory; a better version is a new save_memory and the "
                "old one archived; undo_last takes back your last change.",
                "When we are through, tell me to mark them reviewed myself: `memvault inbox "
                "accept --all` (or `memvault inbox reject ID` for one to take back), or the inbox "
                "in the memvault app. The review is mine: you cannot accept for me."])

    @server.prompt(title="Split a memory",
                   description="Split a memory that holds several ideas into one memory an idea, "
                               "previewed with the person before anything is written.")
    def split_memory(memory_id: MemoryToSplit) -> list[UserMessage]:
        memory = _read(access, lambda vault: memory_document(vault, memory_id))
        return _steps(
            f"This memory ({memory['id']}, resource {memory_uri(memory['id'])}) may hold more "
            f"than one idea:\n\n---\n{memory['content']}\n---\n\n", [
                "Decide the parts: one self-contained idea each, in the memory's own words, "
                "nothing left out and nothing added. If it is one idea, say so and stop.",
                f"Call split_memory with memory_id=\"{memory['id']}\", parts=[...] and "
                "preview=true, and show me the parts it would write.",
                "Only when I agree, call it again with preview=false (the original is archived "
                "and each part keeps a split_from relation to it; delete_original=true only if I "
                "ask). Each part may carry a short gist of its own if it is long.",
                "Tell me the new ids; undo_last takes the split back."])

    @server.prompt(title="Consolidate memories",
                   description="Merge near-duplicate memories into one, previewed with the person "
                               "first. Without memory_ids, find the candidates first.")
    def consolidate_memories(memory_ids: MemoriesToMerge = "") -> list[UserMessage]:
        keys = _ids(memory_ids)
        if len(keys) == 1:
            raise MCPError(code=INVALID_PARAMS,
                           message="refused: consolidating takes two memories or more "
                                   "(memory_ids separated by spaces or commas)")
        if keys:
            found = _read(access, lambda vault: [memory_document(vault, k) for k in keys])
            listed = "\n".join(f"- {m['id']}: {neutralise_line(m['content'][:200])}"
                               for m in found)
            opening = f"These memories may say the same thing:\n\n{listed}\n\n"
            first = ("Read them in full with open_memories and check that they really are "
                     "about one thing; if not, say which differ and stop.")
            ids = ", ".join(f"\"{m['id']}\"" for m in found)
        else:
            opening = "Find memories in my vault that say the same thing:\n\n"
            first = ("Call cluster_memories with find_duplicates=true and pick the groups "
                     "that are about one thing (read them with open_memories); list them for "
                     "me and ask which to merge.")
            ids = "..."
        return _steps(opening, [
            first,
            f"Call consolidate_memories with memory_ids=[{ids}] and mode=\"preview\", and "
            "show me the merged memory it would write (content, tags, entities).",
            "Only when I agree, call it with mode=\"apply\" (the sources are deleted, kept in "
            "history, each linked by consolidated_from; archive_sources=true keeps them archived "
            "instead if I prefer).",
            "Tell me the new id; undo_last takes the merge back."])

    @server.prompt(title="Recall for a task",
                   description="Gather what the vault knows that bears on a task before starting "
                               "it, and keep what the task teaches.")
    def recall_for_task(task: TaskToDo) -> list[UserMessage]:
        text = task.strip()
        if not text:
            raise MCPError(code=INVALID_PARAMS, message="refused: an empty task")
        return _steps(
            f"Before you start on this task, gather what my memory vault knows about it.\n\n"
            f"Task: {text}\n\n", [
                "Call recall with a query made of the task's key words (token_budget about "
                "1500): it returns the best matches as one context block, gists first.",
                "If something important may be missing, search_memory with narrower queries "
                "(\"phrases\", tag:x, entity:y) and open_memories for the memories you need in "
                "full.",
                "Do the task using what you found; where a memory and what you see now "
                "disagree, say so and trust what you see.",
                "Afterwards call observe_memory_usage with the ids of the memories you "
                "actually used, and save_memory what the task taught that will matter again "
                "(one idea a memory, with a short gist for a long one), telling me what you "
                "saved."])
