"""Generation: the steps of :mod:`core.gist` in order, and the two public entry points.

5. **Extractive pass (sentences).** Each unit is valued by the *facts* it carries: named
entities (capitalised words not at sentence start, acronyms, and the caller's ``entities``),
numbers, identifiers/paths/flags/URLs, inline code (weighs more than the same identifier
inside a code block), negations, the memory's ``tags`` it mentions, words shared with other
units (topic centrality) and with the topic sentence (:mod:`.units`). The first unit (the topic sentence) and a personal fact (:mod:`.personal`)
are never dropped (unless every unit is one). Units
are dropped greedily, cheapest value per token first, where a fact still present in another
kept unit is nearly free to lose (so restatements go first). Keys are re-evaluated lazily
(a heap; values only grow as units go), so this is O(n log n). A drop that would take the
gist past the band's upper edge is skipped; dropping stops once the lower edge is reached.
The lower edge is measured against the content re-flowed the way the gist is assembled
(re-joining hard-wrapped lines saves newline tokens but compresses nothing), the upper edge
against the content itself. Kept units stay whole and in their original order.

6. **Cuts inside kept sentences** (:mod:`.clauses`, :mod:`.clause_cutter`). Candidates from
both are valued (a clause cutter kind's :data:`~.clause_cutter.KIND_COST`, 0.05 a word, 0.5 a
name; a clause or aside by the facts it carries) and taken cheapest value per saved token
first until the band's lower edge; none that drops a number or a negation
(:func:`~.clause_words.drops_number_or_negation`), crosses a sentence (a list item may hold
several), leaves a dangling *, such as ...*, or takes a name the rest of the gist no longer
says. If the band is still out of reach, one more cut may overshoot its upper edge by at most
:data:`OVERSHOOT`, the smallest that reaches the band.

7. **Last resort.** If the band is still out of reach (two or three sentences of similar
size), one more whole unit may go if that overshoots the band's upper edge by at most
:data:`OVERSHOOT` (3 points for ``light``, 10 otherwise); else the result stays short of
the band and the guard decides.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from typing import Any

from ..model.tokens import estimate_tokens
from . import clause_cutter, token_reducer_step
from .clause_cutter import KIND_COST, Cut, apply_cuts, cut_candidates
from .clause_grammar import leaves_dangling
from .clause_words import CONNECTORS, drops_number_or_negation, names_in, words
from .clauses import ASIDE_CUT, clause_candidates
from .facts import unit_facts
from .guards import is_corrupted, too_long
from .levels import BANDS, MIN_WORDS, OVERSHOOT, check_level, read_part, word_count
from .masking import mask, unmask
from .phrases import PHRASE_TRIGGER, apply_phrase_edits, find_phrase_edits, tokens_with_spans
from .units import Unit, assemble, bind_intros, build_units, dedupe, score_units, sep_cost


_SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-Z\"“(*]")


def format_memory_for_context(memory: Any) -> str:
    """One memory as a line of LLM context: ``[{id[:8]}] {gist or content} (tags: a, b)``."""
    text = memory.gist or memory.content
    tags = getattr(getattr(memory, "meta", None), "tags", None) or []
    return f"[{memory.id[:8]}] {text} (tags: {', '.join(tags)})"


def build_gist(
    content: str,
    level: str,
    tags: Sequence[str],
    entities: Sequence[str],
    phrase_edits: bool,
    stats: dict[str, Any] | None,
) -> str | None:
    lo, hi = BANDS[level]
    total = estimate_tokens(content)
    if total <= 0:
        return None
    units = dedupe(bind_intros(build_units(content)))
    if not units:
        return None
    score_units(units, tags, entities)

    # ---- protect + phrase passes -------------------------------------------------------------
    table: list[str] = []
    masked_ok: list[bool] = []
    for u in units:
        if u.kind == "code":
            masked_ok.append(False)
            continue
        m = mask(u.text, table)
        if m is None:
            masked_ok.append(False)
        else:
            u.masked = m
            masked_ok.append(True)
    texts = [u.text for u in units]
    if phrase_edits:
        compress = token_reducer_step.load_compress_text() if token_reducer_step.ENABLED else None
        tr_budget = token_reducer_step.TR_MAX_UNITS
        for i, u in enumerate(units):
            if not masked_ok[i]:
                continue
            toks = tokens_with_spans(u.masked)
            if len(toks) < 4:
                continue
            edits: list[tuple[int, int, str | None]] = []
            if (
                compress is not None
                and tr_budget > 0
                and len(u.masked) <= token_reducer_step.TR_MAX_CHARS
                and (not token_reducer_step.TR_PREFILTER or PHRASE_TRIGGER.search(u.masked) is not None)
            ):
                tr_budget -= 1
                tr = token_reducer_step.token_reducer_edits(compress, u.masked, level, toks)
                if stats is not None:
                    stats["tr_calls"] = stats.get("tr_calls", 0) + 1
                    if tr is None:
                        stats["tr_rejected"] = stats.get("tr_rejected", 0) + 1
                    elif tr:
                        stats["tr_accepted"] = stats.get("tr_accepted", 0) + 1
                if tr:
                    edits = tr
            if edits:
                edited = apply_phrase_edits(u.masked, toks, edits)
                if stats is not None and edited != u.masked:
                    stats["tr_saved"] = stats.get("tr_saved", 0) + (
                        estimate_tokens(unmask(u.masked, table))
                        - estimate_tokens(unmask(edited, table))
                    )
                u.masked = edited
                toks = tokens_with_spans(u.masked)
            own = find_phrase_edits(toks)
            if own:
                u.masked = apply_phrase_edits(u.masked, toks, own)
            texts[i] = unmask(u.masked, table)
    basis_tokens = 0
    for u, t in zip(units, texts):
        u.tokens = estimate_tokens(t)
        basis_tokens += u.tokens if t == u.text else estimate_tokens(u.text)

    keep = [True] * len(units)
    current = sum(u.tokens for u in units) + sep_cost(units, keep)
    # The band's lower edge is reached against the content re-flowed the way the gist is
    # assembled (same units, nothing dropped, no edits): re-joining hard-wrapped lines saves
    # newline tokens but compresses nothing, so it must not count toward the level's minimum.
    # The upper edge (how much may be lost) is checked against the content itself.
    basis = max(basis_tokens + sep_cost(units, keep), 1)

    def reduction(cur: int) -> float:
        return 1.0 - cur / basis

    def too_far(cur: int) -> bool:
        return 1.0 - cur / total > hi

    # ---- sentence-level extractive pass ------------------------------------------------------
    counts: dict[str, int] = {}
    for u in units:
        for f in u.facts:
            counts[f] = counts.get(f, 0) + 1

    def loss(u: Unit) -> float:
        value = u.base
        for f, w in u.facts.items():
            value += w if counts.get(f, 0) <= 1 else 0.1 * w
        return value

    def sep(a: int, b: int) -> int:
        if a < 0 or b >= len(units):
            return 0
        return 0 if units[a].kind == "sent" and units[b].kind == "sent" else 1

    kept_count = len(units)
    if reduction(current) < lo and kept_count > 1:
        prev_k = list(range(-1, len(units) - 1))  # doubly linked list of kept units
        next_k = list(range(1, len(units) + 1))
        heap = [(loss(u) / max(u.tokens, 1), -u.order) for u in units if not u.kept_whole]
        heapq.heapify(heap)
        while heap and reduction(current) < lo and kept_count > 1:
            key, neg = heapq.heappop(heap)
            u = units[-neg]
            fresh = loss(u) / max(u.tokens, 1)
            if fresh > key + 1e-12 and heap and fresh > heap[0][0]:
                heapq.heappush(heap, (fresh, neg))
                continue
            o = u.order
            p, q = prev_k[o], next_k[o]
            new = current - u.tokens - sep(p, o) - sep(o, q) + (sep(p, q) if p >= 0 else 0)
            if too_far(new):
                continue
            keep[o] = False
            if p >= 0:
                next_k[p] = q
            if q < len(units):
                prev_k[q] = p
            current = new
            kept_count -= 1
            for f in u.facts:
                counts[f] -= 1

    # ---- clause-level pass: asides, clauses, and the clause cutter inside sentences -----------
    if reduction(current) < lo and phrase_edits:
        cands: list[tuple[int, Cut]] = []
        for u in units:
            if not keep[u.order] or u.kind == "code" or not masked_ok[u.order]:
                continue
            for aside in ASIDE_CUT.finditer(u.masked):
                cands.append((u.order, Cut(aside.start(), aside.end(), "", "aside")))
            for s, e in clause_candidates(u.masked):
                if not leaves_dangling(u.masked, e):
                    cands.append((u.order, Cut(s, e, "", "clause")))
            if level != "light" and clause_cutter.ENABLED:
                cands.extend((u.order, c) for c in cut_candidates(u.masked, entities))
        scored: list[tuple[float, int, int, Cut, int]] = []
        for n, (order, cut) in enumerate(cands):
            span = unmask(units[order].masked[cut.start : cut.end], table)
            saved = estimate_tokens(span) - estimate_tokens(cut.replacement)
            if saved <= 0 or drops_number_or_negation(span) or _SENTENCE_BREAK.search(span):
                continue  # (a list item may hold several sentences: a cut stays inside one)
            value = 0.05 * len(re.findall(r"[^\W\d_]{3,}", span))
            if cut.kind in KIND_COST:
                value += KIND_COST[cut.kind] + 0.5 * len(cut.names)  # no other fact (clause_cutter)
            else:
                facts = unit_facts(span.strip(" ,;:—–-()"), False)
                if level == "light" and facts:
                    continue  # light is near-verbatim: it only drops fact-free asides and clauses
                value += 0.3 + (0.5 if cut.kind == "clause" else 0.0)  # a clause costs more
                for f, w in facts.items():
                    value += w if counts.get(f, 0) <= 1 else 0.1 * w
            scored.append((value / saved, order, n, cut, saved))
        scored.sort(key=lambda x: x[:3])
        said: dict[str, int] = {}  # how often the kept text says each name
        for u in units:
            if keep[u.order] and u.kind != "code":
                for name in names_in(texts[u.order]):
                    said[name] = said.get(name, 0) + 1
        cuts: dict[int, list[Cut]] = {}
        saved_by: dict[int, int] = {}  # id of a chosen cut -> tokens it saves
        for _, order, _n, cut, saved in scored:
            if reduction(current) >= lo:
                break
            chosen = cuts.setdefault(order, [])
            if any(not (cut.end <= c.start or cut.start >= c.end) for c in chosen):
                continue
            if too_far(current - saved):
                continue
            lost = {name: cut.names.count(name) for name in cut.names}
            if any(said.get(name, 0) - k < 1 for name, k in lost.items()):
                continue  # a name the gist would no longer say
            for name, k in lost.items():
                said[name] -= k
            chosen.append(cut)
            saved_by[id(cut)] = saved
            current -= saved
        if reduction(current) < lo:
            # last resort inside sentences (as step 7 for units): one more cut that reaches the
            # band, overshooting its upper edge by at most OVERSHOOT, the smallest such; it may
            # take in cuts already chosen inside it (a clause instead of its own tail)
            best_cut: tuple[float, int, int, Cut, int, list[Cut]] | None = None
            for key, order, n, cut, saved in scored:
                chosen = cuts.get(order, [])
                opener = words(units[order].masked[cut.start : cut.end])[:1]
                inside = [c for c in chosen if cut.start <= c.start and c.end <= cut.end
                          and opener and opener[0].lower() in CONNECTORS]
                if any(not (cut.end <= c.start or cut.start >= c.end) for c in chosen if c not in inside):
                    continue
                gain = saved - sum(saved_by[id(c)] for c in inside)
                if reduction(current - gain) < lo or 1.0 - (current - gain) / total > hi + OVERSHOOT[level]:
                    continue
                back = [x for c in inside for x in c.names]  # names the inner cuts had taken
                if any(said.get(x, 0) + back.count(x) - cut.names.count(x) < 1 for x in cut.names):
                    continue
                if best_cut is None or (gain, key) < (best_cut[4], best_cut[0]):
                    best_cut = (key, order, n, cut, gain, inside)
            if best_cut is not None:
                kept_cuts = [c for c in cuts.get(best_cut[1], []) if c not in best_cut[5]]
                cuts[best_cut[1]] = kept_cuts + [best_cut[3]]
                current -= best_cut[4]
        for order, chosen in cuts.items():
            if chosen:
                texts[order] = unmask(apply_cuts(units[order].masked, chosen), table)
        current = sum(estimate_tokens(t) for t, k in zip(texts, keep) if k) + sep_cost(units, keep)

    # ---- last resort: one unit more, overshooting the band a little ---------------------------
    # Two or three sentences of similar size often leave no way into a 20-point band: dropping
    # one more unit, up to OVERSHOOT beyond the band's upper edge, beats having no gist at all.
    if reduction(current) < lo and kept_count > 1:
        best: tuple[float, float, int] | None = None
        for u in units:
            if not keep[u.order] or u.kept_whole:
                continue
            new = current - estimate_tokens(texts[u.order])
            if reduction(new) < lo or 1.0 - new / total > hi + OVERSHOOT[level]:
                continue
            cand = (1.0 - new / total, loss(u), u.order)
            if best is None or cand < best:
                best = cand
        if best is not None:
            keep[best[2]] = False
            current = sum(estimate_tokens(t) for t, k in zip(texts, keep) if k)

    gist = assemble(units, keep, texts).strip()
    if not gist:
        return None
    if too_long(estimate_tokens(gist), total, level):
        return None
    return gist


def generate_gist(
    content: str,
    level: str = "moderate",
    tags: Sequence[str] = (),
    entities: Sequence[str] = (),
    *,
    _stats: dict[str, Any] | None = None,
) -> str | None:
    """A gist of ``content`` at ``level`` (see the module docstring), or None; of a huge note,
    a gist of its start (:func:`~.levels.read_part`).

    None means "no gist": the content is short (under :data:`MIN_WORDS` words), or no version
    short enough was found. Raises ValueError for an unknown level, and nothing else.
    """
    check_level(level)
    try:
        if not isinstance(content, str) or not content.strip():
            return None
        content = read_part(content)  # a huge note: its start (linear, bounded)
        if word_count(content) < MIN_WORDS:
            return None
        tags = (tags,) if isinstance(tags, str) else tuple(tags or ())
        entities = (entities,) if isinstance(entities, str) else tuple(entities or ())
        gist = build_gist(content, level, tags, entities, True, _stats)
        if gist is not None and is_corrupted(gist, content):
            gist = build_gist(content, level, tags, entities, False, None)
            if gist is not None and is_corrupted(gist, content):
                return None
        return gist
    except Exception:  # noqa: BLE001 - a gist never blocks a save
        return None
