"""``completion/complete``: what a client offers while a person types an argument.

* a memory id (the ``memvault://memory/{memory_id}`` template, the ``split_memory`` prompt's
  ``memory_id``): the ids starting with what is typed (a prefix, any case), newest first;
* ``consolidate_memories``' ``memory_ids`` (ids separated by spaces or commas): the last one
  being typed, the ones before it kept and not offered again;
* a tag (the ``memvault://tag/{tag}`` template): the vault's tags starting with what is typed,
  the most used first;
* ``recall_for_task``'s ``task``: its last word completed with the vault's tags.

At most 100 values (the spec's cap), with ``total`` and ``hasMore``. A prompt, template or
argument the server does not have is ``-32602``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.types import Completion, PromptReference, ResourceTemplateReference

from core import Vault

from .access import ToolRefusal, VaultAccess
from .boundary import invalid
from .resources import MEMORY_TEMPLATE, TAG_TEMPLATE

MAX_VALUES = 100
_LAST_WORD = re.compile(r"[^\s,]*$")


def matching_ids(vault: Vault, typed: str) -> list[str]:
    """Ids starting with ``typed`` (any case), newest first."""
    start = typed.strip().lower()
    found = [m for m in vault.memories.values() if m.id.lower().startswith(start)]
    found.sort(key=lambda m: (-m.created_at, m.id))
    return [m.id for m in found]


def matching_tags(vault: Vault, typed: str) -> list[str]:
    """The vault's tags starting with ``typed`` (any case), the most used first."""
    start = typed.strip().lower()
    counts = Counter(t for m in vault.memories.values() for t in m.meta.tags
                     if t.lower().startswith(start))
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def _last_word(value: str, find: Callable[[Vault, str], list[str]], *,
               once: bool = False) -> Callable[[Vault], list[str]]:
    """Complete ``value``'s last word (after a space or comma), the words before it kept
    (``once``: a value among them is not offered again)."""
    word = _LAST_WORD.search(value)
    head, typed = (value[:word.start()], word.group()) if word else (value, "")
    before = {k for k in re.split(r"[\s,]+", head) if k} if once else set()

    def job(vault: Vault) -> list[str]:
        return [head + found for found in find(vault, typed) if found not in before]

    return job


class Completions:
    """The server's completion handler (``MCPServer.completion()``)."""

    def __init__(self, access: VaultAccess):
        self.access = access

    async def __call__(self, ref: Any, argument: Any, context: Any) -> Completion:
        name, value = argument.name, argument.value or ""
        job = self._job(ref, name, value)
        try:
            values: list[str] = await anyio.to_thread.run_sync(self.access.read, job)
        except ToolRefusal:  # no vault yet: nothing to offer
            values = []
        return Completion(values=values[:MAX_VALUES], total=len(values),
                          has_more=len(values) > MAX_VALUES)

    def _job(self, ref: Any, name: str, value: str) -> Callable[[Vault], list[str]]:
        if isinstance(ref, ResourceTemplateReference):
            if ref.uri == MEMORY_TEMPLATE and name == "memory_id":
                return lambda vault: matching_ids(vault, value)
            if ref.uri == TAG_TEMPLATE and name == "tag":
                return lambda vault: matching_tags(vault, value)
            if ref.uri not in (MEMORY_TEMPLATE, TAG_TEMPLATE):
                raise invalid(f"completion/complete: no resource template {ref.uri!r}")
        elif isinstance(ref, PromptReference):
            if ref.name == "split_memory" and name == "memory_id":
                return lambda vault: matching_ids(vault, value)
            if ref.name == "consolidate_memories" and name == "memory_ids":
                return _last_word(value, matching_ids, once=True)
            if ref.name == "recall_for_task" and name == "task":
                return _last_word(value, matching_tags)
            if ref.name not in ("split_memory", "consolidate_memories", "recall_for_task",
                                "review_inbox"):
                raise invalid(f"completion/complete: no prompt {ref.name!r}")
        raise invalid(f"completion/complete: no argument {name!r} to complete there")
