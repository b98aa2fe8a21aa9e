"""Building the demo vault: the history replayed week by week through core (see :mod:`tui.demo`)."""

from __future__ import annotations

import contextlib
import os
import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from core import Memory, MemoryMetadata, MemoryStatus, Vault, VaultError
from core.model.records import now_epoch
from core.ops.consolidate import execute_consolidation
from core.ops.split import execute_split
from core.textutil import make_gist
from core.vault import Plan, first_words

from .assistant import write_as_assistants
from .content import (
    CLUSTERS,
    COMPOSITES,
    DAY,
    HISTORY_DAYS,
    PROFILES,
    RELATIONS,
    TOPICS,
    WAITING_COMPOSITE,
    WAITING_DUPLICATES,
    Entry,
)


@dataclass
class DemoReport:
    path: Path
    memories: int
    archived: int
    promoted: int
    splits: int
    consolidations: int


@contextlib.contextmanager
def _dated(ts: int) -> Iterator[None]:
    """Commits made inside carry the date ``ts`` (git reads these from the environment)."""
    keys = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")
    saved = {k: os.environ.get(k) for k in keys}
    for k in keys:
        os.environ[k] = f"{int(ts)} +0000"
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@dataclass
class _Plan:
    memory: Memory  # as created
    uses: list[int]  # epoch seconds of each use, ascending
    profile: str
    strength: float


def _content(entry: Entry) -> str:
    """A memory's text: its fact, followed by the sentence written for it when it has one."""
    return entry if isinstance(entry, str) else " ".join(entry)


def _new_id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _plan(rng: random.Random, now: int) -> list[_Plan]:
    plans: list[_Plan] = []
    facts = [(tags, ents, entry) for tags, ents, entries in TOPICS for entry in entries]
    rng.shuffle(facts)
    weights = [p[1] for p in PROFILES]
    for tags, ents, entry in facts:
        name, _share, (lo, hi), (ulo, uhi) = rng.choices(PROFILES, weights)[0]
        last_used = now - int(rng.uniform(lo, hi) * DAY)
        span = rng.uniform(0, 110) * DAY if name != "stale" else rng.uniform(0, 20) * DAY
        created = max(now - HISTORY_DAYS * DAY, int(last_used - span))
        last_used = max(last_used, created)
        uses_n = rng.randint(ulo, uhi)
        uses = sorted(rng.randint(created, last_used) for _ in range(max(0, uses_n - 1)))
        if uses_n:
            uses.append(last_used)
        content = _content(entry)
        entities = [e for e in ents if e.lower() in content.lower()]
        strength = (round(rng.uniform(1.1, 1.8), 1) if uses_n and rng.random() < 0.3
                    else 1.0)  # reinforced: only what was used
        memory = Memory(
            id=_new_id(rng), content=content, gist=make_gist(content, tags, entities),
            meta=MemoryMetadata(tags=list(tags), source=rng.choice(
                ["chat", "claude-code", "chat", "mcp:save_memory", "import:notes"])),
            created_at=created, last_used=created, use_count=0, strength=1.0,
            entities=entities,
        )
        plans.append(_Plan(memory, uses, name, strength))
    return plans


def build_demo(path: Path | str, *, now: int | None = None, seed: int = 7) -> DemoReport:
    """Build the demo vault at ``path`` (a new or empty folder). ``now`` fixes the clock the
    ages are measured from (default: the current time)."""
    root = Path(path).expanduser()
    if root.exists() and any(root.iterdir()):
        raise VaultError(f"refused: {root} is not empty (the demo needs a new folder)")
    now = now_epoch() if now is None else int(now)
    rng = random.Random(seed)
    start = now - HISTORY_DAYS * DAY
    with _dated(start - DAY):
        vault = Vault.open(root)
    plans = _plan(rng, now)

    # Composite memories and near-duplicate clusters: created early, used now and then.
    composite_ids: list[tuple[str, list[tuple[str, list[str]]]]] = []
    for content, tags, parts in COMPOSITES:
        created = start + rng.randint(10, 60) * DAY
        m = Memory(id=_new_id(rng), content=content, gist=make_gist(content, tags),
                   meta=MemoryMetadata(tags=tags, source="chat"), created_at=created,
                   last_used=created)
        plans.append(_Plan(m, sorted(rng.randint(created, created + 40 * DAY) for _ in range(3)),
                           "composite", 1.0))
        composite_ids.append((m.id, parts))
    cluster_ids: list[tuple[list[str], str]] = []
    for texts, tags, fate in CLUSTERS:
        ids = []
        for text in texts:
            created = start + rng.randint(20, 120) * DAY
            m = Memory(id=_new_id(rng), content=text, meta=MemoryMetadata(tags=tags,
                       source="chat"), created_at=created, last_used=created)
            plans.append(_Plan(m, [created + rng.randint(1, 10) * DAY], "cluster", 1.0))
            ids.append(m.id)
        cluster_ids.append((ids, fate))

    # The life of the vault as timed events, replayed in order: each week's new memories (one
    # commit) and uses (one commit); splits, merges, promotions, archives, an edit, relations
    # and a deletion at their own dates.
    by_id = {p.memory.id: p for p in plans}
    events: list[tuple[int, int, Callable[[], object]]] = []

    def at(when: int, action: Callable[[], object]) -> None:
        events.append((int(when), len(events), action))

    week = 7 * DAY
    t = start
    while t < now:
        end = min(t + week, now)
        new = sorted((p.memory for p in plans if t <= p.memory.created_at < end),
                     key=lambda m: m.created_at)
        if new:
            at(max(m.created_at for m in new), partial(vault.save_many, new))
        hits = {p.memory.id: [u for u in p.uses if t <= u < end] for p in plans}
        hits = {k: v for k, v in hits.items() if v}
        if hits:
            at(max(max(v) for v in hits.values()), partial(_use, vault, hits))
        t = end
    boosted = [(p.memory.id, p.strength) for p in plans if p.strength != 1.0]
    at(now - 20 * DAY, lambda: _boost(vault, boosted))
    counts = {"splits": 0, "consolidations": 0}
    for index, (memory_id, parts) in enumerate(composite_ids):
        when = now - (40 - 9 * index) * DAY
        at(when, partial(_split, vault, memory_id, parts, when, index, counts))
    for index, (ids, fate) in enumerate(cluster_ids):
        when = now - (30 - 8 * index) * DAY
        at(when, partial(_merge, vault, ids, fate, when, counts))
    at(now - 8 * DAY, lambda: _promote(vault, now - 8 * DAY))
    archive_rng = random.Random(seed + 1)
    at(now - 12 * DAY, lambda: _archive(vault, by_id, archive_rng, 5))
    at(now - 5 * DAY, lambda: _archive(vault, by_id, archive_rng, 4))
    at(now - 4 * DAY, lambda: _edit(vault))
    at(now - 2 * DAY, lambda: _relate(vault))
    at(now - DAY, lambda: _delete_one(vault))
    at(now - DAY // 2, lambda: _save_waiting(vault, now - DAY // 2, random.Random(seed + 3)))
    at(now - DAY // 4, lambda: write_as_assistants(vault, now - DAY // 4,
                                                   random.Random(seed + 4)))
    with vault.journal.batch():  # the commits through one git fast-import (core.git.batch)
        for when, _order, action in sorted(events):
            with _dated(when):
                action()

    status = {s: 0 for s in MemoryStatus}
    for m in vault.memories.values():
        status[m.status] += 1
    report = DemoReport(root.resolve(), len(vault.memories), status[MemoryStatus.ARCHIVED],
                        status[MemoryStatus.PROMOTED], counts["splits"],
                        counts["consolidations"])
    vault.close()
    return report


def _save_waiting(vault: Vault, when: int, rng: random.Random) -> None:
    """The memories left for the wizards (after everything else, so the rest of the demo is
    the same as without them)."""
    content, tags, entities = WAITING_COMPOSITE
    waiting = [Memory(id=_new_id(rng), content=content, gist=make_gist(content, tags, entities),
                      meta=MemoryMetadata(tags=tags, source="chat"), created_at=when - 3600,
                      last_used=when - 3600, entities=entities)]
    for texts, tags, entities in WAITING_DUPLICATES:
        for index, text in enumerate(texts):
            at = when - 600 * (index + 1)
            waiting.append(Memory(id=_new_id(rng), content=text,
                                  meta=MemoryMetadata(tags=tags, source="chat"), created_at=at,
                                  last_used=at, use_count=index, entities=entities))
    vault.save_many(waiting)


def _use(vault: Vault, hits: dict[str, list[int]]) -> None:
    used = []
    for memory_id, times in hits.items():
        live = vault.find(memory_id)
        if live is not None:
            used.append(live.model_copy(update={"use_count": live.use_count + len(times),
                                                "last_used": max(live.last_used, *times)}))
    if used:
        vault.save_many(used, message=f"touch: {len(used)} memories (this week's uses)"
                        if len(used) > 1 else None)


def _boost(vault: Vault, boosted: list[tuple[str, float]]) -> None:
    changed = [m.model_copy(update={"strength": s}) for i, s in boosted
               if (m := vault.find(i)) is not None]
    if changed:
        vault.save_many(changed, message=f"boost: {len(changed)} memories reinforced")


def _split(vault: Vault, memory_id: str, parts: list[tuple[str, list[str]]], when: int,
           index: int, counts: dict[str, int]) -> None:
    result = execute_split(vault, memory_id, [p for p, _ in parts], tags=[t for _, t in parts],
                           original="delete" if index == 2 else "archive")
    # core stamps the parts "used now"; in the demo's timeline that moment is ``when``.
    vault.save_many([m.model_copy(update={"last_used": when}) for m in result.parts],
                    message=f"update: {len(result.parts)} parts of {memory_id[:8]} "
                            "(last used at the split)")
    counts["splits"] += 1


def _merge(vault: Vault, ids: list[str], fate: str, when: int,
           counts: dict[str, int]) -> None:
    execute_consolidation(vault, ids, sources=fate)  # type: ignore[arg-type]
    counts["consolidations"] += 1
    if abs(vault.meta.get("last_consolidation_at", when) - when) > DAY:
        # core records the wall clock; the demo's timeline has its own
        vault.apply(lambda v: Plan("consolidate: record the merge's date (demo timeline)",
                                        meta={"last_consolidation_at": when}))


def _promote(vault: Vault, when: int) -> None:
    frequent = sorted((m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE),
                      key=lambda m: (-m.use_count, m.id))[:7]
    for m in frequent:
        slug = "-".join(w.strip(".,:;'") for w in m.content.lower().split()[:4])
        vault.save(m.model_copy(update={"status": MemoryStatus.PROMOTED, "promoted_at": when,
                                        "promoted_to": f"notes/memories/{slug}.md"}),
                   message=f"promote: {m.id[:8]} {first_words(m.text)}")


def _archive(vault: Vault, plans: dict[str, _Plan], rng: random.Random, n: int) -> None:
    stale = sorted((m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE
                    and m.id in plans and plans[m.id].profile in ("stale", "critical")),
                   key=lambda m: m.id)
    if stale:
        vault.archive(*[m.id for m in rng.sample(stale, k=min(n, len(stale)))])


def _edit(vault: Vault) -> None:
    for m in sorted(vault.memories.values(), key=lambda m: m.id):
        if "conference in October" in m.content and m.status == MemoryStatus.ACTIVE:
            content = m.content.replace("in October", "in early October").replace(
                "second day", "first day")
            vault.update(m.id, content=content, gist=make_gist(content, m.meta.tags, m.entities))
            return


def _relate(vault: Vault) -> None:
    """The relations the demo's data lists (:data:`RELATIONS`)."""
    for a, b, kind in _relations(sorted(vault.memories.values(), key=lambda m: m.id)):
        vault.relate(a, b, kind)


def _delete_one(vault: Vault) -> None:
    for m in sorted(vault.memories.values(), key=lambda m: m.id):
        if "coriander" in m.content:
            vault.delete(m.id)
            return


def _relations(memories: list[Memory]) -> list[tuple[str, str, str]]:
    """(from id, to id, type) for each of :data:`RELATIONS`: the one memory holding each phrase
    (an archived or promoted one too: a relation stays whatever the memory's status)."""
    def holding(phrase: str) -> str:
        found = [m.id for m in memories if phrase in m.content]
        if len(found) != 1:
            raise LookupError(f"the demo relates one memory holding {phrase!r}, "
                              f"found {len(found)}")
        return found[0]

    return [(holding(a), holding(b), kind) for a, b, kind in RELATIONS]
