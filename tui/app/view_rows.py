"""A big vault's view without parsing every memory: rows made from the derived index's
summaries, each memory parsed the first time its row's memory is read.

The rows of the memories the vault's cache still holds as their files' bytes (an open from the
index parses none) take the index's summaries of them: status, tags, the fields of the score,
times, the start of the text, what the tree, the grouping, the sorts and a row's label read;
the detail and the filter read :attr:`~tui.app.view.Row.memory`, parsed then. Parsing every
memory, and looking for control characters in each, before the tree could show the open vault
took seconds at 100k memories.

A summary is used only when it is of the very bytes the cache holds: the summaries are used
only when they are of the commit the cache is at (HEAD as the vault was opened); a memory the
cache holds as bytes is, by the open's own rule, unchanged between the commit its bytes came
from and that one, so its summary there is of those bytes. Otherwise (no index, an index of an
older schema or half-written, another commit) the view is built as before, from every memory
parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from core import DecayConfig, Memory, Relation, Vault, decay
from core.store.lazy import LazyRecords
from core.vault.preview import MemorySummary, read_preview

from .bands import band_keys
from .view import Row, VaultView, shown_all

#: Views of vaults whose cache holds fewer memories as bytes than this are built from every
#: memory parsed (below, reading the summaries saves little).
SUMMARIES_FROM = 2_000


def index_summaries(vault: Vault) -> dict[str, MemorySummary] | None:
    """The derived index's summaries of the vault's memories, by id, when they are of the commit
    its cache is at (:attr:`Vault.head`; waiting once for the index the open writes in a thread
    when they are not yet); None when there is nothing to gain (fewer than
    :data:`SUMMARIES_FROM` memories held unparsed, as after a clone) or no such summaries (no
    index, another schema, unreadable, another commit)."""
    memories = vault.memories
    if not isinstance(memories, LazyRecords) or memories.raw < SUMMARIES_FROM:
        return None
    for attempt in range(2):
        found = read_preview(vault.root)
        if found is not None and found.commit == vault.head:
            return {m.id: m for m in found.memories}
        if attempt == 0:
            vault.wait_for_open_index()
    return None


def due_summaries(vault: Vault) -> list[MemorySummary] | None:
    """The index's summaries of every memory of a vault whose memories still wait for the
    index's copies (an open with ``copies_later``: :mod:`core.vault.later_copies`, whose rows
    are for HEAD, nothing read from disk), when they are of that very commit, one per id, and
    at least :data:`SUMMARIES_FROM`; None otherwise (nothing waits then, or the caller reads
    the memories). Nothing of the vault's cache is used here: its copies are read later."""
    memories = vault.memories
    if not isinstance(memories, LazyRecords) or not memories.due:
        return None
    found = read_preview(vault.root, at_least=SUMMARIES_FROM)
    if found is None or found.commit != vault.head \
            or len({m.id for m in found.memories}) != len(found.memories):
        return None
    return found.memories


def view_from_summaries(root: Path, memories: LazyRecords[Memory],
                        summaries: list[MemorySummary], relations: Mapping[str, Relation],
                        config: DecayConfig, now: int, head: str | None = None,
                        problems: Iterable[str] = (), previous: VaultView | None = None
                        ) -> VaultView:
    """:meth:`VaultView.build` from :func:`due_summaries`: a row for each summary, its memory
    read from the vault's cache the first time the row's memory is read (which waits for the
    copies then; the cache stands for these very records: their version is kept)."""
    unparsed = Unparsed(memories, {})
    view = VaultView.build(root, (), relations, config, now, head=head, problems=problems,
                           previous=previous)
    _add_rows(view, summaries, config, now, lambda _: unparsed)
    return view


def view_from_index(root: Path, memories: LazyRecords[Memory],
                    summaries: Mapping[str, MemorySummary], relations: Mapping[str, Relation],
                    config: DecayConfig, now: int, head: str | None = None,
                    problems: Iterable[str] = (), previous: VaultView | None = None) -> VaultView:
    """:meth:`VaultView.build`, where each memory ``memories`` still holds as its file's bytes
    gets its row from its entry in ``summaries`` (:func:`index_summaries`) and is parsed when
    its row's memory is first read; the others (read from disk at the open, or without a
    summary) are taken as :meth:`~VaultView.build` takes them."""
    briefs: list[Memory | MemorySummary] = []
    raw: dict[str, bytes] = {}
    parsed: list[Memory] = []
    held = memories.held
    for memory_id in memories:
        value = held(memory_id)
        summary = summaries.get(memory_id) if type(value) is bytes else None
        if summary is not None:
            raw[memory_id] = value  # type: ignore[assignment]
            briefs.append(summary)
        else:
            memory = memories[memory_id]
            parsed.append(memory)
            briefs.append(memory)
    safe = iter(shown_all(parsed))  # (control characters shown as escapes; summaries are safe)
    briefs = [b if b.id in raw else next(safe) for b in briefs]
    unparsed = Unparsed(memories, raw)
    view = VaultView.build(root, (), relations, config, now, head=head, problems=problems,
                           previous=previous)
    _add_rows(view, briefs, config, now, lambda memory_id: unparsed if memory_id in raw else None)
    return view


def _add_rows(view: VaultView, briefs: Sequence[Memory | MemorySummary], config: DecayConfig,
              now: int, unparsed_of: Callable[[str], Unparsed | None]) -> None:
    """A row in ``view`` for each of ``briefs``, scored as the decay model scores a memory,
    banded by the view's table; ``unparsed_of``: where a row's memory is read from."""
    f = decay.decay_function(config)
    beta = config.decay_beta
    scores = [(m.use_count + 1) ** beta * f(max(0.0, float(now - m.last_used))) * m.strength
              for m in briefs]
    relations_of = view.relations
    view.rows.update(
        (m.id, Row(m, s, key, relations_of, unparsed_of(m.id)))
        for m, s, key in zip(briefs, scores, band_keys(scores, view.band_table)))


def view_again(previous: VaultView | None, vault: Vault, now: int, head: str | None,
               problems: list[str]) -> VaultView | None:
    """The ``previous`` view with the memories set or deleted in the vault's cache since it was
    made read again (:meth:`VaultView.changed`) and every score at ``now``, when it was made from
    the index's summaries of this very cache (a commit another process made, caught up; the
    scores at a later now): building it anew would parse every memory. None otherwise."""
    unparsed = next((row.unparsed for row in (previous.rows.values() if previous else ())
                     if row.unparsed is not None), None)
    if previous is None or not isinstance(unparsed, Unparsed) \
            or unparsed.memories is not vault.memories:
        return None
    changed = unparsed.memories.changed_since(unparsed.version)
    if changed is None:
        return None
    view = previous.changed(vault.memories, vault.relations, changed, head, problems=problems)
    if now == view.now:
        return view
    f = decay.decay_function(view.config)
    beta = view.config.decay_beta
    rows = list(view.rows.values())
    scores = [(r.brief.use_count + 1) ** beta * f(max(0.0, float(now - r.brief.last_used)))
              * r.brief.strength for r in rows]
    view.now = now
    view.rows = {r.id: r.scored(s, key)
                 for r, s, key in zip(rows, scores, band_keys(scores, view.band_table))}
    return view


class Unparsed:
    """The memories of a view's rows made from summaries (:func:`view_from_index`): ``raw``
    (id -> the file's bytes the vault's cache held as the view was made), parsed on first read.
    A memory no record was set or deleted for since is the cache's own (parsed there once, for
    the vault and the view alike); one changed since is parsed from the view's bytes, so a view
    stays the snapshot it was. A view made while the cache waited for the index's copies
    (:func:`view_from_summaries`: ``raw`` empty) takes the bytes the cache was filled with."""

    def __init__(self, memories: LazyRecords[Memory], raw: dict[str, bytes]) -> None:
        self.memories = memories
        self.version = memories.version
        self.raw = raw

    def __call__(self, memory_id: str) -> Memory:
        changed = self.memories.changed_since(self.version)
        if changed is not None and memory_id not in changed:
            found = self.memories.get(memory_id)
            if found is not None:
                return found
        # (a view made before the cache's copies were read holds no bytes: the cache's as it
        # was filled, the very records the view was made from, its version kept)
        raw = self.raw or self.memories.as_filled() or {}
        held = raw.get(memory_id)
        if held is None:  # (not among the copies: read from disk as they were read)
            found = self.memories.get(memory_id)
            if found is None:
                raise KeyError(memory_id)
            return found
        return held if isinstance(held, Memory) else Memory.model_validate_json(held)
