"""Ranked search: what a query finds, best first, with both parts of each score.

The formula (every input is in each :class:`Hit` and in ``memvault search --json``)::

    text      = bm25 * coverage        a memory holding ANY of the query's words is a candidate;
                                       coverage = the share of the words (and phrases) it holds
    relevance = text / max text over the hits, then lifted by the best hit of its episode
                (the hits written in the same sitting, :mod:`core.search.episodes`), by
                the hits written just before or after it (:mod:`core.search.neighbours`),
                by what the query asks: a day it names, a time (:mod:`.answer_type`)   (0, 1]
    life      = min(1, decay score)                         [0, 1]; vault.score(m), capped
    score     = relevance * (ALPHA + (1 - ALPHA) * life)    
``bm25`` is FTS5's ``bm25()`` over the OR of the terms, with the column weights of
:data:`core.search.index_reading.COLUMN_WEIGHTS`, sign flipped so that higher is better. Any word
finds, and the coverage factor keeps the memories that hold every word ahead of those holding one.

Relevance leads: decay only breaks near-ties. A memory the decay model is about to forget keeps 90%
of its relevance, so an old memory that answers the question is passed only by matches within 10% of
it, never buried under fresh ones that match less; between matches that close the one still in use
comes first. A product, so that a memory that does not match is never a hit however alive it is.
Scores above 1 (memories used often) count as fully alive.

Hybrid mode (wordllama installed, see :mod:`core.search.semantic`): the text score over its best and
the cosine over its best are summed, weighted (:func:`core.search.fusion.fused`), for the text hits
and the ``SEMANTIC_DEPTH`` memories most similar to the query, then normalised and lifted the same
way. A query with no words (only ``tag:``, ``status:``... filters) ranks by ``life`` alone (mode
``filter``). Statuses default to active.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..model.values import MemoryStatus, now_epoch
from .answer_type import lifted_as_asked
from .episodes import CONTEXT_DEPTH, in_context
from .first_build import Progress, building_json, building_note
from .fusion import COSINE_WEIGHT, fused
from .hits import ALPHA as ALPHA, Hit as Hit, combine as combine, life as life
from .index import SearchIndex, SyncReport
from .memory_index import HandingOver
from .neighbours import lifted_by_neighbours, neighbours_holding, worth_asking
from .read_rows import RowsWhileReading
from ..store.lazy import LazyRecords
from .pool import AllowedPool, KeptPool, allowed_ids, filters
from .query import Query, Term, fts_expression, parse
from .searched_terms import cut_note, searched
from .semantic import INSTALL_HINT, Embedder, cosines, hybrid_notes, load_embedder, nearest, semantic_available
from .snippet import snippet_for

if TYPE_CHECKING:  # (a search that only reads makes no model: core.model.plain_records)
    from ..model.records import Memory

#: How many of the most similar memories join the fusion without a word of the query (every text
#: hit is fused with its cosine). Few: a static word-vector model is precise only at the top.
SEMANTIC_DEPTH = 5
#: Above this many allowed memories, a search for the top few reads candidates best bm25 first
#: (:mod:`core.search.topk`) instead of scoring every match.
BOUNDED_FROM = 2000
#: Up to this many allowed memories, only they are scored (a look-up each) rather than every
#: memory the words match.
FEW = 500
MODES = ("auto", "bm25", "hybrid")
FORMULA = ("score = relevance * (alpha + (1 - alpha) * min(1, decay)); relevance = bm25 * "
           "coverage / best (bm25 mode) or fused / best, fused = (1 - w) * text / best text + "
           "w * cosine / best cosine, w = cosine_weight * 10th best text / best text (hybrid), "
           "lifted by its episode, its neighbours in time, the dates the query names and, "
           "a question asking when, a time said")


@dataclass
class SearchResult:
    query: Query
    hits: list[Hit]
    ranking: Ranking
    mode: str  # bm25, hybrid or filter
    notes: list[str] = field(default_factory=list)
    building: tuple[int, int, float | None] | None = None  # (:func:`.first_build.as_json`)

    @property
    def total(self) -> int:
        """Hits before limit and offset (counted when first asked for)."""
        return self.ranking.total

    def as_json(self) -> dict[str, Any]:
        return {"query": self.query.text, "mode": self.mode, "total": self.total,
                "formula": FORMULA, "alpha": ALPHA,
                "cosine_weight": COSINE_WEIGHT if self.mode == "hybrid" else None,
                "errors": list(self.query.errors), "notes": list(self.notes),
                "index_building": building_json(self.building), "hits": [h.as_json() for h in self.hits]}


@dataclass
class Ranking:
    """What :func:`rank` found: the hits, best first, and the mode; ``total`` (how many hits
    there are in all) is counted when first asked for, since a bounded ranking does not read
    every match."""

    hits: list[Hit]
    mode: str
    count: Callable[[], int]

    @cached_property
    def total(self) -> int:
        return self.count()


def rank(index: SearchIndex, memories: Mapping[str, Memory], query: Query,
         allowed: Iterable[str], decay_of: Callable[[Memory], float], *,
         embedder: Embedder | None = None, top: int | None = None, synced: bool = False) -> Ranking:
    """The hits among the ids ``allowed`` (already filtered), best first, and the mode. With
    ``top``, only the ``top`` best are worked out and returned (their order and scores are
    exactly those of the full ranking: a hit's score is at most its relevance, so the rest can
    be left once the relevance falls below the top's last score; over many memories the
    candidates come from SQLite best bm25 first, :mod:`core.search.topk`). The index is brought
    level with ``memories`` first (``synced``: the caller has just done it); one found damaged,
    built again (:meth:`SearchIndex.answer`). Hits carry no snippet (:func:`with_snippet`)."""
    if not synced:
        index.sync(memories)
    depth = None if top is None else max(top, CONTEXT_DEPTH)  # (the episodes' hits, then the top)
    if not isinstance(allowed, (set, frozenset, AllowedPool)):
        allowed = set(allowed)  # (asked again for the neighbours)
    found = index.answer(memories, lambda: _in_time(index, memories, query, allowed, decay_of, _rank(
        index, memories, query, allowed, decay_of, embedder, depth), top))
    found.hits = found.hits[:top]
    count = found.count
    found.count = lambda: index.answer(memories, count)
    return found


def _in_time(index: SearchIndex, memories: Mapping[str, Memory], query: Query,
             allowed: Container[str], decay_of: Callable[[Memory], float], found: Ranking,
             top: int | None = None) -> Ranking:
    """``found``'s hits lifted by their episodes (:mod:`.episodes`), then by their neighbours in
    time (:mod:`.neighbours`: the memories written just before and after them), then by the days
    the query names and the time it asks for (:mod:`.answer_type`), best first (as
    :func:`_ordered`; a :class:`Hit` made only for the ``top`` returned)."""
    if found.mode == "filter":
        return found
    was = {h.memory.id: h for h in found.hits}
    lifted = dict(zip(was, in_context([h.relevance for h in found.hits],
                                      [h.memory.created_at for h in found.hits])))
    ids = sorted(was, key=lambda i: (-combine(lifted[i], was[i].decay), -lifted[i], i))
    excluded, rel = _excluded(index, query), [lifted[i] for i in ids]
    near = neighbours_holding(index.reading, [(i, was[i].memory.created_at) for i in ids],
                              [fts_expression([t]) or "" for t in searched(query.ranked_terms)],
                              lambda i: i in allowed and i not in excluded and i in memories,
                              {i for i in ids if was[i].bm25 is not None}, worth=lambda known:
                              worth_asking(ids, rel, known, lambda i, r, new: combine(r, decay_of(
                                  memories[i]) if new else was[i].decay), top))
    relevance, beside = lifted_by_neighbours(ids, rel, near.__getitem__)
    relevance = lifted_as_asked(relevance, ids[:CONTEXT_DEPTH], query.text,
                                lambda i: was[i].memory)  # (the head: as a top few reads)
    decay = {i: decay_of(memories[i]) if i in beside else was[i].decay for i in relevance}
    ordered = sorted(relevance, key=lambda i: (-combine(relevance[i], decay[i]), -relevance[i], i))
    found.hits = [  # (a neighbour below the head: a hit of its own lift alone)
        Hit(memories[i], combine(r, decay[i]), r, decay[i]) if i in beside else
        replace(was[i], relevance=r, score=combine(r, decay[i]))
        for i, r in ((i, relevance[i]) for i in ordered[:top])]
    return found


def _rank(index: SearchIndex, memories: Mapping[str, Memory], query: Query,
          allowed: Iterable[str], decay_of: Callable[[Memory], float],
          embedder: Embedder | None, top: int | None) -> Ranking:
    """:func:`rank` on an index level with ``memories``."""
    terms = searched(query.ranked_terms)
    excluded = _excluded(index, query)
    if isinstance(allowed, AllowedPool) and top is not None and embedder is None and terms \
            and len(allowed) > BOUNDED_FROM:
        return _bounded(index, memories, terms, allowed, excluded, decay_of, top)
    pool_set = allowed if isinstance(allowed, (set, frozenset)) else set(allowed)
    if not terms:  # ranked by life alone; Hit objects only for the top
        scored = [(-combine(1.0, d), i, d) for i in pool_set if i not in excluded
                  for d in (decay_of(memories[i]),)]
        count = len(scored)
        kept = heapq.nsmallest(top, scored) if top is not None else sorted(scored)
        return Ranking([Hit(memories[i], -negated, 1.0, d) for negated, i, d in kept], "filter",
                       lambda: count)
    if top is not None and embedder is None and len(pool_set) > BOUNDED_FROM:
        return _bounded(index, memories, terms, pool_set, excluded, decay_of, top)
    if excluded:
        pool_set = pool_set - excluded
    few = list(pool_set) if len(pool_set) <= FEW else None
    found = index.reading.match(any_of(terms)) if few is None else index.reading.match_among(any_of(terms), few)
    bm25 = {i: s for i, s in found.items() if i in pool_set}
    lazy_top = top if embedder is None else None  # the top kept as hits come (None: all)
    text_score = _text_scores(index, terms, bm25)
    text_order = sorted(text_score, key=lambda i: (-text_score[i], i))
    text_rank = dict(zip(text_order, range(1, len(text_order) + 1)))
    cos, cos_rank = dict[str, float](), dict[str, int]()
    if embedder is not None and query.asks_something:  # (only stopwords: nothing to be near)
        cos = cosines(index, embedder, memories, sorted(pool_set), " ".join(t.value for t in terms))
        near = nearest(cos, SEMANTIC_DEPTH)
        cos_rank = {i: n for n, i in enumerate(near, 1)}
        raw, mode = fused(text_score, cos, cos_rank), "hybrid"
    else:
        raw, mode = text_score, "bm25"
    total = len(set(bm25) | set(cos_rank))
    best = max(raw.values(), default=1.0) or 1.0
    hits: list[Hit] = []
    best_scores: list[float] = []  # the ``top`` best scores so far, a min-heap: [0] is the floor
    for i in text_order if raw is text_score else sorted(raw, key=lambda i: (-raw[i], i)):
        relevance = raw[i] / best
        if lazy_top is not None and len(best_scores) >= lazy_top and relevance < best_scores[0]:
            break
        d = decay_of(memories[i])
        hit = Hit(memories[i], combine(relevance, d), relevance, d, bm25.get(i), text_rank.get(i),
                  cos.get(i), cos_rank.get(i))
        hits.append(hit)
        if lazy_top is not None:
            if len(best_scores) < lazy_top:
                heapq.heappush(best_scores, hit.score)
            elif hit.score > best_scores[0]:
                heapq.heapreplace(best_scores, hit.score)
    return Ranking(_ordered(hits)[:top], mode, lambda: total)


def _bounded(index: SearchIndex, memories: Mapping[str, Memory], terms: list[Term],
             pool: Container[str], excluded: set[str], decay_of: Callable[[Memory], float],
             top: int) -> Ranking:
    """rank's ``top`` hits of a text query over many memories (:func:`core.search.topk.top_hits`)."""
    def allowed(i: str) -> bool:
        return i in pool and i not in excluded

    decays: dict[str, float] = {}

    def score_of(i: str, relevance: float) -> float:
        d = decays.get(i)
        if d is None:
            d = decays[i] = decay_of(memories[i])
        return combine(relevance, d)

    from .topk import top_hits  # (on first use: a small vault's search never reads bounded)
    settled = top_hits(index, terms, allowed, top, score_of)
    hits = []
    for h in settled.hits:
        relevance = h.text / settled.best
        hits.append(Hit(memories[h.memory_id], score_of(h.memory_id, relevance), relevance,
                        decays[h.memory_id], h.bm25, h.text_rank))
    expression = any_of(terms)
    return Ranking(_ordered(hits), "bm25",
                   lambda: sum(1 for i in index.reading.ids_matching(expression) if allowed(i)))


def _text_scores(index: SearchIndex, terms: list[Term], bm25: dict[str, float]
                 ) -> dict[str, float]:
    """bm25 * coverage of each hit: the share of the query's terms it holds."""
    if len(terms) == 1:
        return bm25
    hits = list(bm25)
    found = [index.reading.ids_matching_among(fts_expression([t]) or "", hits) for t in terms]
    return {i: s * sum(i in ids for ids in found) / len(terms) for i, s in bm25.items()}


def any_of(terms: list[Term]) -> str:
    """The FTS5 expression matching a memory holding any of ``terms`` (bm25 rewards more)."""
    return " OR ".join(p for p in (fts_expression([t]) for t in terms) if p)


def with_snippet(hit: Hit, query: Query) -> Hit:
    return replace(hit, snippet=snippet_for(hit.memory, searched(query.text_terms)))


def _ordered(hits: list[Hit]) -> list[Hit]:
    return sorted(hits, key=lambda h: (-h.score, -h.relevance, h.memory.id))


def _excluded(index: SearchIndex, query: Query) -> set[str]:
    """Ids matching a negated word, phrase or prefix."""
    out: set[str] = set()
    for term in searched([t for t in query.terms if t.is_text and t.negated]):
        expression = fts_expression([term])
        if expression:
            out |= set(index.reading.match(expression))
    return out


class Searcher:
    """Search over a vault's memories (``vault.memories``, kept current by the vault) with the
    index kept beside its git directory. Keep one for many queries: the index stays open and
    the embedder loaded."""

    def __init__(self, vault: Any, *, index: SearchIndex | None = None, mode: str = "auto",
                 embedder: Embedder | None = None, progress: Progress | None = None,
                 in_background: bool = False, read_rows: RowsWhileReading | None = None):
        """``progress(what, done, total)``: told as the index is first built (a search after a
        clone, :mod:`core.search.first_build`). ``in_background``: that build is left to a
        process of its own, the search answering from the memories (:mod:`core.search.
        background_build`), from the rows made as the vault was opened if any (``read_rows``)."""
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}: choose one of {', '.join(MODES)}")
        self.vault = vault
        self.index = index or SearchIndex.for_root(vault.root)
        self.notes: list[str] = []
        self._allowed_memo: tuple[tuple[Any, ...], int | None, set[str]] | None = None
        self.pools = KeptPool()  # (the last search's, its decisions kept for the next)
        if embedder is None and mode != "bm25":
            if semantic_available():
                embedder = load_embedder()
            elif mode == "hybrid":
                self.notes.append(INSTALL_HINT)
        self.embedder = embedder
        self.progress = progress
        self.handing_over = HandingOver(vault.root, read_rows, hand_over=in_background)

    def close(self) -> None:
        self.index.close()
        self.handing_over.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def search(self, text: str | Query, *, statuses: Iterable[MemoryStatus | str] | None = None,
               tags: Iterable[str] | None = None, limit: int | None = 10, offset: int = 0,
               now: int | None = None, snippets: bool = True) -> SearchResult:
        """The hits for ``text`` (the query language of :mod:`core.search.query`), best first.
        ``statuses``: default active, unless the query has ``status:`` terms; ``tags``: any of
        them (exact); ``limit``/``offset``: the page of hits returned; ``snippets``: False for
        callers that only want the ranked memories (recall, the MCP server)."""
        query = parse(text) if isinstance(text, str) else text
        vault = self.vault
        at = now_epoch() if now is None else now
        memories = vault.memories
        index, synced, handed = self._index_for(memories)
        allowed = self._allowed(memories, query, statuses, tags, at)
        end = None if limit is None else offset + limit
        found = rank(index, memories, query, allowed, lambda m: vault.score(m, at),
                     embedder=None if handed else self.embedder, top=end, synced=True)
        notes = list(self.notes) + hybrid_notes(query, handed, self.embedder)
        said = getattr(vault, "notices", None)  # (the index built again: Vault.notices)
        if isinstance(said, list):
            said.extend(self.index.take_notes() + (index.take_notes() if index is not self.index
                                                   else []))
        notes += cut_note(query.text_terms)
        if query.text_terms and not query.has_text:
            notes.append("the words have no letters or digits to look for: filters only")
        page = [with_snippet(h, query) if snippets else h for h in found.hits[offset:end]]
        return SearchResult(query, page, found, found.mode, notes, synced.building)

    def _index_for(self, memories: Mapping[str, Memory]) -> tuple[SearchIndex, SyncReport, str | None]:
        """The index to answer from, level with ``memories``: the file's, or one in memory of every
        memory (never the file's rows so far alone) while its first build runs elsewhere, past the
        wait (:meth:`.HandingOver.wait_for_build`), or in the background (said)."""
        answer = self.handing_over.index_for(self.index, memories)
        if answer is not None:
            return answer[0], SyncReport(building=answer[2]), answer[1]
        self.handing_over.wait_for_build(self.index)
        synced = self.index.sync(memories, progress=self.progress, near_dupes=False)
        building = building_note(*synced.building) if synced.building else None
        return (self.handing_over.made_for(memories) if building else self.index), synced, building

    def _allowed(self, memories: Mapping[str, Memory], query: Query,
                 statuses: Iterable[MemoryStatus | str] | None, tags: Iterable[str] | None,
                 now: int) -> set[str] | AllowedPool:
        """The ids the statuses, tags and filter terms allow. Without filter terms the answer depends only
        on the memories, so it is kept for the next query and, when the mapping logs its changes
        (:meth:`core.store.lazy.LazyRecords.changed_since`), brought up to date for the memories changed
        since (a search after a use record costs what changed, not the vault's size); otherwise worked out
        again when the index's generation moves."""
        if not all(t.is_text for t in query.terms):
            return allowed_ids(self.vault, memories, query, statuses, tags, now)
        if getattr(memories, "raw", 0) > BOUNDED_FROM:  # (memories still bytes: asked one by one)
            return self.pools.pool_for(memories, *filters(query, statuses, tags))
        versioned = getattr(memories, "version", None)
        key = (id(memories), None if statuses is None else
               frozenset(MemoryStatus(s) for s in statuses), frozenset(tags or ()),
               None if isinstance(versioned, int) else self.index.generation)
        memo = self._allowed_memo
        if memo is not None and memo[0] == key:
            if memo[1] == versioned:
                return memo[2]
            changed = memories.changed_since(memo[1]) \
                if isinstance(memories, LazyRecords) and memo[1] is not None else None
            if changed is not None:
                allowed = memo[2]
                for i in changed:
                    if i in memories and allowed_ids(self.vault, {i: memories[i]}, query, statuses,
                                                  tags, now):
                        allowed.add(i)
                    else:
                        allowed.discard(i)
                self._allowed_memo = (key, versioned, allowed)
                return allowed
        allowed = allowed_ids(self.vault, memories, query, statuses, tags, now)
        self._allowed_memo = (key, versioned, allowed)
        return allowed


def search(vault: Any, text: str | Query, *, mode: str = "auto", **kwargs: Any) -> SearchResult:
    """One search (see :meth:`Searcher.search`); the index is closed after it."""
    with Searcher(vault, mode=mode) as searcher:
        return searcher.search(text, **kwargs)
