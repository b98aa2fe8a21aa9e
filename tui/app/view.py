"""What the app shows, as an immutable snapshot of the vault: :class:`VaultView`.

The service builds a view in a worker thread (scores, bands, search text; its relations are
read on first use: :mod:`tui.app.view_relations`) and
hands it to the UI, which only reads it: the UI thread never touches the live ``Vault`` (whose
cache a writer may be changing at that very moment). After an operation the service derives the
next view from the previous one, recomputing only the memories that changed.

Also here: the little pieces of ``rich.text.Text`` every pane uses (score bar, leaf label), so
the tree, the detail and the provenance graph draw a memory the same way (a score's decay band
and its colour: :mod:`tui.app.bands`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from rich.text import Text

from core import (
    PROVENANCE_RELATION_TYPES,
    DecayConfig,
    Memory,
    MemoryStatus,
    Relation,
)
from core import decay
from core.model.records import is_pinned
from core.search.query import Term
from core.search.word_spans import match_spans
from core.store.prefixes import resolve_prefix
from core.textutil import has_controls, neutralise_controls, neutralise_line
from core.vault import first_words
from core.vault.preview import Glance, MemorySummary

from .bands import BAND_STYLE, Band, band_keys, band_of, bands
from .view_relations import ViewRelations

# Fixed colours (not the terminal's ANSI palette, whose "yellow" is orange in some themes).
MATCH_STYLE = "bold reverse"  # what the filter's words match in a row
PIN_MARK, PIN_STYLE = "pinned", "bold #e07bd0"  # a pinned memory: gc never takes it
STATUS_STYLE = {
    MemoryStatus.ACTIVE: "#7ccc4c",
    MemoryStatus.PROMOTED: "#4fb8e0",
    MemoryStatus.ARCHIVED: "#c9a64b",
    MemoryStatus.SUPERSEDED: "#b48ce0",
}


# -- rows and the view ------------------------------------------------------------------------
class Row:
    """One memory with what the app needs about it precomputed. Read-only by convention (a view
    is a snapshot: a change makes a new row); a plain class with slots rather than a frozen
    dataclass, as 100k of them are made for a big vault's first paint.

    :attr:`brief` is what the tree, the grouping, the sorts and a row's label read (status, tags,
    scores' fields, times, the start of the text): the memory itself, or, for a row made from
    the derived index's summary (:func:`tui.app.view_rows.view_from_index`), that summary,
    the memory then parsed the first time :attr:`memory` is read (the detail, the filter)."""

    __slots__ = ("brief", "score", "band", "_relations", "_hay", "_memory", "_unparsed")

    def __init__(self, memory: Memory | MemorySummary, score: float, band: str,
                 relations: int | ViewRelations, unparsed: Callable[[str], Memory] | None = None) -> None:
        self.brief = memory
        self.score = score
        self.band = band  # Band.key
        #: how many relations touch it, or the view's relations that count them on first read
        self._relations = relations
        self._hay: str | None = None
        #: (a row from a summary) the memory, parsed on first read by ``unparsed(id)``
        self._unparsed = unparsed
        self._memory = None if unparsed is not None else memory

    def __repr__(self) -> str:
        return f"Row({self.brief.id!r}, score={self.score:.3f}, band={self.band!r})"

    @property
    def id(self) -> str:
        return self.brief.id

    @property
    def memory(self) -> Memory:
        """The memory as the app may show it (:func:`shown`), parsed the first time it is read
        when the row was made from the index's summary."""
        memory = self._memory
        if memory is None:
            assert self._unparsed is not None
            memory = self._memory = shown(self._unparsed(self.brief.id))
        # (a first look's rows, ``VaultView.preview``, hold summaries: nothing parses them)
        return memory  # type: ignore[return-value]

    @property
    def relations(self) -> int:
        """How many relations touch it (counted the first time it is read: ``has:relations``)."""
        found = self._relations
        if not isinstance(found, int):
            found = self._relations = len(found.by_memory().get(self.brief.id, ()))
        return found

    @property
    def unparsed(self) -> Callable[[str], Memory] | None:
        """(A row made from a summary) what parses its memory on first read."""
        return self._unparsed

    def scored(self, score: float, band: str) -> Row:
        """This row with another score and band (the scores again at a later now)."""
        row = Row(self.brief, score, band, self._relations, self._unparsed)
        row._memory, row._hay = self._memory, self._hay
        return row

    @property
    def hay(self) -> str:
        """Lowercased search text: id, content, gist, tags, entities (made when the filter
        first reads it: at 100k memories, a copy of every text the first paint does not need)."""
        if self._hay is None:
            self._hay = _hay(self.memory)
        return self._hay


def shown(m: Memory) -> Memory:
    """The memory as the app may show it: control characters in its text fields (an ESC that
    would clear the screen or retitle the terminal) as visible escapes. The stored memory is
    untouched; a copy is made only when there is something to neutralise."""
    meta = m.meta
    if not (has_controls("\n".join((m.content, m.gist or "", meta.context or "")))
            or has_controls(" ".join((meta.source or "", *meta.tags, *m.entities)),
                            single_line=True)):
        return m  # two searches instead of one per field: the common case, at 100k memories
    meta = m.meta.model_copy(update={
        "tags": [neutralise_line(t) for t in m.meta.tags],
        "source": neutralise_line(m.meta.source) if m.meta.source else m.meta.source,
        "context": neutralise_controls(m.meta.context) if m.meta.context else m.meta.context})
    return m.model_copy(update={
        "content": neutralise_controls(m.content),
        "gist": neutralise_controls(m.gist) if m.gist else m.gist,
        "entities": [neutralise_line(e) for e in m.entities], "meta": meta})


def shown_all(memories: Iterable[Memory], batch: int = 256) -> Iterator[Memory]:
    """:func:`shown` of each memory. A batch of memories is searched for control characters in
    one go (two regex searches over the batch's text joined), and memory by memory only when
    the batch holds one: the common case costs a fraction of a search per memory."""
    items = iter(memories)
    while chunk := list(islice(items, batch)):
        multi = "\n".join(t for m in chunk for t in (m.content, m.gist or "", m.meta.context or ""))
        single = " ".join(t for m in chunk for t in (m.meta.source or "", *m.meta.tags,
                                                      *m.entities))
        if has_controls(multi) or has_controls(single, single_line=True):
            yield from map(shown, chunk)
        else:
            yield from chunk


def _hay(m: Memory) -> str:
    return " ".join([m.id, m.content, m.gist or "", *m.meta.tags, *m.entities]).lower()


@dataclass(repr=False)
class VaultView:
    root: Path
    now: int
    config: DecayConfig
    rows: dict[str, Row]
    relations: ViewRelations
    head: str | None = None
    problems: list[str] = field(default_factory=list)
    band_table: list[Band] = field(default_factory=list)
    #: A first look from the index's summaries (:meth:`preview`): the texts are cut short and
    #: there are no relations; the screen lets nothing act on it and shows no memory's detail.
    partial: bool = False
    #: Before even that, a glance (:meth:`glanced`): no rows, only the index's counts of the
    #: memories by status and tag, from which the tree draws its groups (and nothing else)
    glance: Glance | None = None

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def build(cls, root: Path, memories: Iterable[Memory], relations: Mapping[str, Relation],
              config: DecayConfig, now: int, head: str | None = None,
              problems: Iterable[str] = (), previous: VaultView | None = None) -> VaultView:
        """The view of ``memories`` and ``relations`` at ``now`` (``previous``: the view it
        follows, whose relations already read are taken as they are)."""
        view = cls(root, now, config, {},
                   ViewRelations(relations, previous.relations if previous else None), head=head,
                   problems=list(problems), band_table=bands(config))
        f = decay.decay_function(config)
        beta = config.decay_beta
        table = view.band_table
        shown_ones = list(shown_all(memories))
        scores = [(m.use_count + 1) ** beta * f(max(0.0, float(now - m.last_used))) * m.strength
                  for m in shown_ones]
        view.rows.update((m.id, Row(m, s, key, view.relations))
                         for m, s, key in zip(shown_ones, scores, band_keys(scores, table)))
        return view

    @classmethod
    def preview(cls, root: Path, summaries: Iterable[MemorySummary], config: DecayConfig,
                now: int) -> VaultView:
        """A :attr:`partial` view of the memories as the derived index summarises them
        (:func:`core.vault.preview.read_preview`), to paint the tree while the vault opens. Its
        rows hold the summaries themselves (they answer what the tree, the grouping and the
        filter read of a memory; their text and tags are already safe to show)."""
        view = cls(root, now, config, {}, ViewRelations({}), band_table=bands(config),
                   partial=True)
        f = decay.decay_function(config)
        beta = config.decay_beta
        table = view.band_table
        summaries = list(summaries)
        scores = [(m.use_count + 1) ** beta * f(max(0.0, float(now - m.last_used))) * m.strength
                  for m in summaries]
        view.rows.update((m.id, Row(m, s, key, 0))  # type: ignore[arg-type]
                         for m, s, key in zip(summaries, scores, band_keys(scores, table)))
        return view

    @classmethod
    def glanced(cls, root: Path, glance: Glance, config: DecayConfig, now: int) -> VaultView:
        """A :attr:`partial` view with no rows, only the :attr:`glance`'s counts
        (:func:`core.vault.preview.read_glance`): the tree's groups and their counts, painted
        before the summaries are read (:func:`tui.app.grouping.glance_groups`)."""
        return cls(root, now, config, {}, ViewRelations({}), band_table=bands(config), partial=True,
                   glance=glance)

    @property
    def total(self) -> int:
        """How many memories the vault has (a glance's count, or the rows)."""
        return self.glance.total if self.glance is not None else len(self.rows)

    def changed(self, memories: Mapping[str, Memory], relations: Mapping[str, Relation],
                ids: Iterable[str], head: str | None, now: int | None = None,
                problems: Iterable[str] | None = None) -> VaultView:
        """A new view where the memories ``ids`` are taken again from ``memories`` (dropped if
        gone) and relations are ``relations``; at a new ``now`` every score is recomputed."""
        if now is not None and now != self.now:
            return VaultView.build(self.root, memories.values(), relations, self.config, now,
                                   head, self.problems if problems is None else problems,
                                   previous=self)
        view = VaultView(self.root, self.now, self.config, dict(self.rows),
                         ViewRelations(relations, self.relations), head=head,
                         problems=list(self.problems if problems is None else problems),
                         band_table=self.band_table)
        touched = set(ids)
        # relation counts of the other ends change too; the rows kept count theirs now (the
        # same count, from the view they were made for: no row holds an older view's relations)
        before, after = self.by_memory, view.by_memory
        for rel_list in (before, after):
            for i in list(touched):
                for r in rel_list.get(i, ()):
                    touched.update((r.from_memory_id, r.to_memory_id))
        for row in view.rows.values():
            if not isinstance(row._relations, int):
                row._relations = len(before.get(row.brief.id, ()))
        for i in touched:
            m = memories.get(i)
            if m is None:
                view.rows.pop(i, None)
                continue
            m = shown(m)
            s = decay.score(m, self.config, self.now)
            view.rows[i] = Row(m, s, band_of(s, self.band_table).key, len(after.get(i, ())))
        return view

    # -- reading ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        """Short: Textual's ``@work`` names a worker by the repr of its arguments, and a view
        of 10k memories written out took 0.25 s of every filter keystroke."""
        partial = ", glance" if self.glance is not None else ", partial" if self.partial else ""
        return f"VaultView({str(self.root)!r}, {self.total} memories, now={self.now}{partial})"

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, memory_id: str) -> Row | None:
        return self.rows.get(memory_id)

    @property
    def by_memory(self) -> dict[str, list[Relation]]:
        """For each memory id, the relations that touch it, oldest first (the relations read
        the first time this is asked: :class:`~tui.app.view_relations.ViewRelations`)."""
        return self.relations.by_memory()

    def relations_of(self, memory_id: str) -> list[Relation]:
        return self.by_memory.get(memory_id, [])

    def resolve(self, key: str) -> str:
        """A living memory's id from an id or a unique prefix (>= 4 characters)."""
        return resolve_prefix(key.strip(), self.rows)

    def counts_by_status(self) -> dict[str, int]:
        counts = {s.value: 0 for s in MemoryStatus}
        for row in self.rows.values():
            counts[row.brief.status.value] += 1
        return counts

    def provenance(self) -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[tuple[str, str]]]]:
        """(parents, children): for each memory id its provenance ancestors one step up and its
        descendants one step down, as (id, "split" | "merge"), over living and gone ids."""
        parents: dict[str, list[tuple[str, str]]] = {}
        children: dict[str, list[tuple[str, str]]] = {}
        for r in sorted(self.relations.values(), key=lambda r: (r.created_at, r.id)):
            if r.relation_type not in PROVENANCE_RELATION_TYPES:
                continue
            kind = "split" if r.relation_type == "split_from" else "merge"
            parents.setdefault(r.from_memory_id, []).append((r.to_memory_id, kind))
            children.setdefault(r.to_memory_id, []).append((r.from_memory_id, kind))
        return parents, children


# -- drawing a memory -------------------------------------------------------------------------
_EIGHTHS = " ▏▎▍▌▋▊▉"
BAR_CELLS = 5


def score_bar(score: float, band: str, cells: int = BAR_CELLS) -> Text:
    """A bar of ``cells`` cells, full at a score of 1 (or more), in the band's colour."""
    eighths = round(max(0.0, min(score, 1.0)) * cells * 8)
    full, part = divmod(eighths, 8)
    filled = "█" * full + (_EIGHTHS[part] if part and full < cells else "")
    bar = Text(filled, style=BAND_STYLE.get(band, ""))
    bar.append("░" * (cells - len(filled)), style="grey35")
    return bar


def score_text(score: float, band: str) -> Text:
    return Text(f"{score:4.2f}" if score < 10 else f"{score:4.1f}", style=BAND_STYLE.get(band, ""))


def leaf_label(row: Row, words: int = 56, prefix: Text | None = None,
               terms: Sequence[Term] = (), status: bool = True, bar: bool = True) -> Text:
    """``0.42 ██▏░░ 1a2b3c4d The first words of the gist…`` (plus the status when not active,
    unless ``status`` is False: a row under its status's group; without the bar when ``bar``
    is False); what the filter's words ``terms`` match in those words is styled
    :data:`MATCH_STYLE`; ``words``: the cells the words (and the status) have, never more (a
    word longer than them all is cut, marked, as no line can hold it)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if prefix is not None:
        text.append_text(prefix)
        words -= prefix.cell_len
    text.append_text(score_text(row.score, row.band))
    text.append(" ")
    if bar:
        text.append_text(score_bar(row.score, row.band))
        text.append(" ")
    text.append(row.id[:8], style="bold")
    text.append(" ")
    m = row.brief
    status = status and m.status != MemoryStatus.ACTIVE
    if status:
        words -= len(m.status.value) + 1
    pinned = is_pinned(m)  # type: ignore[arg-type]  # (a summary answers meta.extra too)
    if pinned:
        words -= len(PIN_MARK) + 1
    words = max(1, words)
    shown_words = first_words(m.text, words)
    if len(shown_words) > words:  # one word longer than the room: cut inside it, marked
        shown_words = shown_words[:words - 1] + "…"
    at = len(text)
    text.append(shown_words)
    for start, end in match_spans(shown_words, terms) if terms else ():
        text.stylize(MATCH_STYLE, at + start, at + end)
    if status:
        text.append(f" {m.status.value}", style=STATUS_STYLE[m.status])
    if pinned:
        text.append(f" {PIN_MARK}", style=PIN_STYLE)
    return text


def gone_label(memory_id: str, prefix: Text | None = None) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    if prefix is not None:
        text.append_text(prefix)
    text.append("  ·  ", style="dim")
    text.append("░" * BAR_CELLS, style="grey30")
    text.append(" ")
    text.append(memory_id[:8], style="dim bold")
    text.append(" deleted (in history)", style="dim italic")
    return text
