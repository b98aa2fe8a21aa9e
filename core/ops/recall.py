"""Gist-first recall: the best-matching memories as a context block that fits a token budget.

Matching and order: core's ranked search (:mod:`core.search`: bm25 over content, gist, tags and
entities in the derived index, any word finds and memories with every word come first, combined
with the decay score; the query language of ``memvault search``). Active and promoted memories
are recalled, archived and superseded ones are not. Each memory is one line,
:func:`core.gist.format_memory_for_context` (its gist, or its content when it has none; with
``full`` always the content). Token counts are :func:`core.model.tokens.estimate_tokens` estimates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..gist import format_memory_for_context
from ..model.records import Memory, MemoryStatus
from ..model.tokens import estimate_tokens
from ..vault import Vault

RECALLED_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.PROMOTED)


@dataclass
class RecallLine:
    memory: Memory
    text: str  # the context line
    tokens: int
    full_tokens: int  # what the line would cost with the full content
    relevance: float


@dataclass
class Recall:
    query: str
    lines: list[RecallLine] = field(default_factory=list)
    matched: int = 0  # memories that matched, before the budget
    budget: int | None = None

    @property
    def tokens(self) -> int:
        return sum(line.tokens for line in self.lines) + max(0, len(self.lines) - 1)

    @property
    def full_tokens(self) -> int:
        return sum(line.full_tokens for line in self.lines) + max(0, len(self.lines) - 1)

    @property
    def saved(self) -> int:
        """Tokens saved against giving the same memories' full content."""
        return self.full_tokens - self.tokens

    @property
    def block(self) -> str:
        return "\n".join(line.text for line in self.lines)


def _context_line(memory: Memory, full: bool) -> str:
    line: str = format_memory_for_context(
        memory.model_copy(update={"gist": None}) if full else memory)
    return line


def recall(vault: Vault, query: str, budget: int | None = None, full: bool = False,
           limit: int = 50, now: int | None = None, mode: str = "bm25") -> Recall:
    """Memories matching ``query``, best first, as many as fit ``budget`` tokens (a memory that
    does not fit is skipped for a smaller one that does). ``mode``: the search's (``bm25``, or
    ``auto``/``hybrid`` with ``memvault[semantic]``)."""
    if budget is not None and budget < 1:
        raise ValueError(f"the budget must be at least 1 token, got {budget}")
    result = Recall(query, budget=budget)
    if not query.strip():
        return result
    from ..search import search  # (the index and SQLite only when recalling)

    found = search(vault, query, mode=mode, statuses=RECALLED_STATUSES, limit=None, now=now,
                   snippets=False)
    result.matched = len(found.hits)
    used = 0
    for hit in found.hits:
        memory = hit.memory
        if len(result.lines) >= limit:
            break
        text = _context_line(memory, full)
        tokens = estimate_tokens(text)
        cost = tokens + (1 if result.lines else 0)  # the newline between lines
        if budget is not None and used + cost > budget:
            continue
        used += cost
        full_tokens = tokens if full or not memory.gist else estimate_tokens(
            _context_line(memory, True))
        result.lines.append(RecallLine(memory, text, tokens, full_tokens, hit.relevance))
    return result
