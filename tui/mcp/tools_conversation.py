"""CortexGraph's conversation tools on memvault's own rules (:mod:`tui.mcp.conversation`):
``analyze_message`` (is this worth saving, with what tags, entities, strength and gist; is it
already kept; does it hold a secret the vault would refuse), ``analyze_for_recall`` (should the
assistant search first, and for what) and ``auto_recall_process_message`` (find the memories a
message is about and record their use, so what the conversation keeps coming back to does not
fade). Deterministic and offline. The vault is asked through the ranked search, never memory by
memory, so a call costs the same in a vault of 100 memories or 100,000.

auto_recall follows CortexGraph's settings: ``CORTEXGRAPH_AUTO_RECALL_ENABLED`` (true),
``_MODE`` (silent: memories are reinforced, not shown), ``_RELEVANCE_THRESHOLD`` (0.3, of the best
match's relevance), ``_MAX_RESULTS`` (3) and ``_MIN_INTERVAL`` (300 seconds between two recalls)."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from core import Vault, VaultError
from core.ops.duplicates import likely_duplicates
from core.textutil import make_gist

from . import hints, shapes
from .access import ToolRefusal, VaultAccess
from .conversation import (
    SAVE_FROM,
    is_question,
    recall_signals,
    save_signals,
    suggested_strength,
    topics,
)

Message = Annotated[str, Field(max_length=50_000)]
SEARCHED = 20  # the ranked matches a likely duplicate is looked for among
SAME_MEMORY = 0.85  # a likely duplicate this similar: already kept, do not save it again
RECALLED = ("active", "promoted")


@dataclass(frozen=True)
class AutoRecallSettings:
    enabled: bool = True
    mode: str = "silent"
    threshold: float = 0.3
    max_results: int = 3
    min_interval: float = 300.0

    @classmethod
    def from_env(cls) -> AutoRecallSettings:
        env, prefix = os.environ, "CORTEXGRAPH_AUTO_RECALL_"
        try:
            enabled = env.get(prefix + "ENABLED", "true").strip().lower() in ("true", "1", "yes")
            mode = env.get(prefix + "MODE", "silent").strip() or "silent"
            threshold = float(env.get(prefix + "RELEVANCE_THRESHOLD", "0.3"))
            results = int(env.get(prefix + "MAX_RESULTS", "3"))
            interval = float(env.get(prefix + "MIN_INTERVAL", "300"))
        except ValueError as exc:
            raise VaultError(f"refused: a {prefix}* setting is not a number: {exc}") from None
        if mode not in ("silent", "subtle", "interactive") or not 0 <= threshold <= 1 \
                or not 1 <= results <= 10 or interval < 0:
            raise VaultError(f"refused: {prefix}* settings out of range (mode silent, subtle or "
                             "interactive; threshold 0-1; max results 1-10; interval >= 0)")
        return cls(enabled, mode, threshold, results, interval)


def _query_of(message: str, limit: int = 20) -> str:
    """The message as a plain query of its topics (none of the query language's operators)."""
    return " ".join(topics(message)[:limit])


def _vault_tags_in(vault: Vault, message: str) -> list[str]:
    words = set(topics(message))
    return [tag for tag in vault.store.tags() if tag.lower() in words]


def _secret_kinds(message: str) -> list[str]:
    from core.secrets.scanner import scan_text

    return sorted({hit.kind for hit in scan_text(message)})


def register(server: MCPServer, access: VaultAccess) -> None:
    last_recall = [0.0]
    recall_lock = threading.Lock()

    @server.tool(**hints.reads("Is this worth saving?"))
    def analyze_message(message: Message) -> dict[str, Any]:
        """Whether a user's message looks worth saving (memvault's rules: an explicit request,
        a preference or decision, names and numbers raise it; a question, hedging or a few words
        lower it), with suggested tags (the vault's own), entities, strength and a gist; not
        when the vault already holds it (possible_duplicates) or it holds a secret."""
        found = save_signals(message)

        def analyze(vault: Vault) -> dict[str, Any]:
            nearby = access.finder.find(vault, _query_of(message), statuses=RECALLED,
                                        limit=SEARCHED)
            twins = likely_duplicates(nearby, message, entities=found.entities)
            secrets = _secret_kinds(message)
            kept = [m for m, s in twins if s >= SAME_MEMORY]
            confidence = found.confidence
            should = confidence >= SAVE_FROM and not secrets and not kept
            reasoning = found.reasoning()
            if secrets:
                reasoning += f" | Holds what looks like a secret ({', '.join(secrets)}): not saved"
            if kept:
                reasoning += f" | Already kept as {kept[0].id[:8]}"
            return {
                "should_save": should, "confidence": confidence,
                "suggested_entities": found.entities,
                "suggested_tags": _vault_tags_in(vault, message),
                "suggested_strength": suggested_strength(confidence),
                "reasoning": reasoning,
                "phrase_signals": {"save_request": "save_request" in found.scores,
                                   "preference": "preference" in found.scores,
                                   "importance_marker": "importance" in found.scores,
                                   "question": "question" in found.scores,
                                   "uncertainty_marker": "hedge" in found.scores,
                                   "matched_phrases": found.phrases},
                "suggested_gist": make_gist(message, (), found.entities),
                "possible_duplicates": [{"id": m.id, "similarity": round(s, 4),
                                         "content_preview": shapes.preview(m)}
                                        for m, s in twins],
                "secrets": secrets,
            }

        return access.read(analyze)

    @server.tool(**hints.reads("Should I search memory first?"))
    def analyze_for_recall(message: Message) -> dict[str, Any]:
        """Whether a user's message calls for a search of the vault before answering (an
        explicit "do you remember", "what did I say about"..., or several named things), with
        the query to run, the vault's tags it mentions and how many memories that query finds."""
        intent = recall_signals(message)

        def analyze(vault: Vault) -> dict[str, Any]:
            found = access.finder.find(vault, intent.query, statuses=RECALLED, limit=10) \
                if intent.query else []
            return {
                "should_search": intent.should_search, "confidence": intent.confidence,
                "suggested_query": intent.query,
                "suggested_tags": _vault_tags_in(vault, message),
                "suggested_entities": intent.entities,
                "reasoning": intent.reasoning,
                "phrase_signals": {"save_request": "save_request" in save_signals(message).scores,
                                   "recall_request": bool(intent.phrases),
                                   "importance_marker": False,
                                   "matched_phrases": intent.phrases},
                "matches": len(found),
            }

        return access.read(analyze)

    @server.tool(**hints.writes("Recall and reinforce what a message is about"))
    def auto_recall_process_message(message: Message) -> dict[str, Any]:
        """Find the memories a message is about (its names and words, ranked search) and
        record their use (last used now, use count + 1: what the conversation keeps coming back
        to does not fade). Silent: returns which were reinforced, not their content."""
        try:
            settings = AutoRecallSettings.from_env()
        except VaultError as exc:
            raise ToolRefusal(str(exc)) from None
        answer: dict[str, Any] = {"success": True, "enabled": settings.enabled,
                                  "topics_found": [], "memories_found": 0,
                                  "memories_reinforced": [], "mode": settings.mode}
        if not settings.enabled:
            return {**answer, "message": "Auto-recall is disabled in configuration "
                                         "(CORTEXGRAPH_AUTO_RECALL_ENABLED)"}
        text = message.strip()
        if not text:
            raise ToolRefusal("refused: message cannot be empty")
        with recall_lock:
            wait = last_recall[0] + settings.min_interval - time.monotonic()
            if last_recall[0] and wait > 0:
                return {**answer, "message": f"Cooling down: the next auto-recall in {wait:.0f} s "
                                             "(CORTEXGRAPH_AUTO_RECALL_MIN_INTERVAL)"}
            last_recall[0] = time.monotonic()
        about = topics(text)
        if len(text) < 10 or len(about) < 2 or (is_question(text) and text.count("?") >=
                                                 max(1, text.count(".") + 1)):
            return {**answer, "message": "No topics detected - message too short or simple"}

        def recall(vault: Vault) -> dict[str, Any]:
            hits = [h for h in access.finder.hits(vault, " ".join(about[:20]), RECALLED,
                                                   settings.max_results)
                    if h.relevance >= settings.threshold]
            used = access.record_use(vault, [h.memory for h in hits])
            if not hits:
                said = f"Detected {len(about)} topic(s), but no related memories found"
            elif not used:
                said = (f"Auto-recall: Found {len(hits)} related memories; none reinforced "
                        "(this server is read-only)")
            else:
                said = (f"Auto-recall: Found {len(hits)} related memories, reinforced "
                        f"{len(used)} to prevent decay")
            return {**answer, "topics_found": about, "memories_found": len(hits),
                    "memories_reinforced": [h.memory.id for h in hits if h.memory.id in used],
                    "message": said}

        return access.read(recall)
