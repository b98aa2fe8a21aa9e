"""Splitting: decompose a composite memory into atomic ones, with ``split_from`` provenance.

Each part inherits strength, use_count, last_used, created_at, source and context from the
original (a split is no use: each part was recalled every time the original was, and ranks where
it ranked), its own tags and entities (those given, else the ones its own words name:
:func:`label_parts`) and its own gist. A
``split_from`` relation points from each part to the original (metadata ``split_index``,
``total_splits``); the original is archived (default) or deleted. All of it is ONE commit.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..errors import VaultError
from ..gist.asides import leans_on_previous
from ..model.records import (
    Memory,
    MemoryMetadata,
    MemoryStatus,
    Relation,
    now_epoch,
)
from ..textutil import content_tokens, given_gist, guess_entities, make_gist
from ..vault import Plan, Vault
from ..vault.reports import relations_going_with
from ..wording import terms
from .split_clauses import two_facts
from .split_subject import headed_sections, lead_in, with_subject

OriginalFate = Literal["archive", "delete"]

SPLIT_MIN_CHARS = 500
SPLIT_MIN_TAGS = 5
SPLIT_MIN_ENTITIES = 6
SPLIT_MIN_CROSS_DOMAIN = 3


@dataclass
class SplitResult:
    original: Memory
    parts: list[Memory]
    relations: list[Relation]
    original_fate: OriginalFate
    commit: str | None


@dataclass
class SplitCandidate:
    memory: Memory
    reasons: list[str]
    weight: float  # for ranking: more and stronger reasons first


@dataclass
class SuggestedPart:
    content: str
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)


def _normalise(text: str) -> str:
    """What two texts that say the same thing have in common: their words, lower case, in order
    (spacing, case, punctuation and Unicode compatibility forms aside)."""
    return " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))


def plan_split(
    vault: Vault,
    memory_id: str,
    parts: Sequence[str],
    tags: Sequence[Sequence[str] | None] | None = None,
    entities: Sequence[Sequence[str] | None] | None = None,
    original: OriginalFate = "archive",
    now: int | None = None,
    gists: Sequence[str | None] | None = None,
) -> Plan:
    """The plan of a split, validated; nothing is written. Raises VaultError on bad input. It
    is also the preview: :func:`apply_split` commits exactly it, with the ids it shows.
    ``gists``: a gist written for each part (None: memvault makes one), checked as any gist
    (:func:`core.textutil.given_gist`)."""
    if original not in ("archive", "delete"):
        raise VaultError(f"refused: original must be 'archive' or 'delete', not {original!r}")
    source = vault.get(memory_id)
    if source.status != MemoryStatus.ACTIVE:
        raise VaultError(f"refused: {source.id[:8]} is {source.status.value}; only an active "
                         "memory can be split")
    texts = [p.strip() if isinstance(p, str) else "" for p in parts]
    if len(texts) < 2:
        raise VaultError("refused: a split needs at least 2 parts")
    for i, text in enumerate(texts, 1):
        if not text:
            raise VaultError(f"refused: part {i} is empty")
    whole = _normalise(source.content)
    if all(_normalise(t) == whole for t in texts):
        raise VaultError("refused: every part only repeats the original")
    for i, text in enumerate(texts, 1):
        if _normalise(text) == whole:
            raise VaultError(f"refused: part {i} only repeats the original")
    seen: dict[str, int] = {}
    for i, text in enumerate(texts, 1):
        first = seen.setdefault(_normalise(text), i)
        if first != i:
            raise VaultError(f"refused: two parts are the same (parts {first} and {i}, "
                             "spacing, case and punctuation aside)")
    for name, given in (("tags", tags), ("entities", entities), ("gists", gists)):
        if given is not None and len(given) != len(texts):
            raise VaultError(f"refused: {len(given)} {name} lists for {len(texts)} parts")

    at = now_epoch() if now is None else now
    total = len(texts)
    derived = label_parts(source, texts)  # a part's labels not given: chosen for its own words
    new_memories, relations = [], []
    for index, text in enumerate(texts):
        given_tags = tags[index] if tags is not None else None
        given_entities = entities[index] if entities is not None else None
        part_tags = list(given_tags) if given_tags is not None else derived[index].tags
        part_entities = (list(given_entities) if given_entities is not None
                         else derived[index].entities)
        written = gists[index] if gists is not None else None
        try:
            gist = (given_gist(written, text) if written is not None
                    else make_gist(text, part_tags, part_entities))
        except VaultError as exc:
            raise VaultError(f"{exc} (part {index + 1})") from None
        memory = Memory(
            id=str(uuid.uuid4()), content=text, gist=gist,
            meta=MemoryMetadata(tags=part_tags, source=source.meta.source,
                                context=source.meta.context),
            created_at=source.created_at, last_used=source.last_used, use_count=source.use_count,
            strength=source.strength, entities=part_entities,
        )
        new_memories.append(memory)
        relations.append(Relation(
            id=str(uuid.uuid4()), from_memory_id=memory.id, to_memory_id=source.id,
            relation_type="split_from", strength=1.0, created_at=at,
            metadata={"split_index": index, "total_splits": total},
        ))
    ids = ", ".join(m.id[:8] for m in new_memories)
    message = f"split: decompose {source.id[:8]} into {total} atomic memories ({ids})"
    change = Plan(message, put_memories=new_memories, put_relations=relations, base=vault.head)
    if original == "archive":
        change.put_memories.append(source.model_copy(update={"status": MemoryStatus.ARCHIVED}))
    else:
        # The one rule (core.model.relation_rule), as delete: the lineage relations it takes
        # part in stay, its other relations go with it.
        change.drop_memories.append(source.id)
        change.drop_relations.extend(relations_going_with(vault.store, [source.id]).removed_ids())
    return change


def execute_split(
    vault: Vault,
    memory_id: str,
    parts: Sequence[str],
    tags: Sequence[Sequence[str] | None] | None = None,
    entities: Sequence[Sequence[str] | None] | None = None,
    original: OriginalFate = "archive",
) -> SplitResult:
    """Split a memory into ``parts`` as ONE commit. See the module docstring."""
    sources: list[Memory] = []

    def build(v: Vault) -> Plan:  # runs under the lock, on the up-to-date vault
        sources.append(v.get(memory_id))
        return plan_split(v, sources[-1].id, parts, tags, entities, original)

    change = vault.apply(build)
    n = len(change.put_relations)
    return SplitResult(sources[-1], change.put_memories[:n], change.put_relations, original,
                       change.commit)


def apply_split(vault: Vault, plan: Plan) -> SplitResult:
    """Commit a split planned (and shown) beforehand by :func:`plan_split`, as it is: refused
    with StalePlanError, nothing written, if the original changed since."""
    n = len(plan.put_relations)
    original = plan.put_relations[0].to_memory_id
    source = vault.get(original)
    vault.apply(plan)
    fate: OriginalFate = "delete" if original in plan.drop_memories else "archive"
    return SplitResult(source, plan.put_memories[:n], plan.put_relations, fate, plan.commit)


# -- finding candidates and drafting parts -----------------------------------------------------
_PARAGRAPH = re.compile(r"\n\s*\n")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+", re.MULTILINE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


def _ideas(text: str) -> list[str]:
    """Paragraphs, else list items, else sentences grouped by topic shift, a sentence holding
    two facts cut into them first (:mod:`.split_clauses`); a sentence that leans on the one
    before (an aside: *Said with obvious enthusiasm while ...*, *It ...*,
    :mod:`core.gist.asides`) stays with it."""
    paragraphs = [p.strip() for p in _PARAGRAPH.split(text) if p.strip()]
    if len(paragraphs) >= 2:
        return paragraphs
    if len(_LIST_ITEM.findall(text)) >= 2:
        items, head = [], []
        for line in text.splitlines():
            if _LIST_ITEM.match(line):
                items.append(_LIST_ITEM.sub("", line, count=1).strip())
            elif items and line.strip():
                items[-1] += " " + line.strip()
            elif line.strip():
                head.append(line.strip())
        items = [i for i in items if i]
        if head and items:
            items[0] = " ".join(head) + " " + items[0]
        if len(items) >= 2:
            return items
    sentences = [fact for s in _SENTENCE.split(text.strip()) if s.strip()
                 for fact in two_facts(s.strip())]
    if len(sentences) < 2:
        return [text.strip()]
    groups = [[sentences[0]]]
    for prev, sentence in zip(sentences, sentences[1:]):
        if leans_on_previous(sentence):  # an aside stays with the sentence it qualifies
            groups[-1].append(sentence)
            continue
        a, b = content_tokens(prev), content_tokens(sentence)
        overlap = len(a & b) / len(a | b) if a and b else 0.0
        if overlap >= 0.2:
            groups[-1].append(sentence)
        else:
            groups.append([sentence])
    return [" ".join(g) for g in groups]


def text_names(text: str, entity: str) -> bool:
    """Whether ``text`` names ``entity`` as a whole word or phrase, case aside (*Ana* is not
    named by *manager*)."""
    entity = entity.strip()
    if not entity:
        return False
    return re.search(r"(?<!\w)" + re.escape(entity) + r"(?!\w)", text, re.IGNORECASE) is not None


def draft_pieces(text: str) -> list[str]:
    """The texts of a split draft of ``text``: its ideas (:func:`_ideas`) under each heading,
    no heading a part of its own, each part that does not name its heading's subject (or the
    note's lead-in) given it (:mod:`.split_subject`); the text whole when that is one idea."""
    sections = headed_sections(text)
    if all(subject is None for subject, _body in sections):
        pieces = _ideas(text)
        subject = lead_in(pieces[0]) if len(pieces) > 1 else None
        return [pieces[0]] + [with_subject(p, subject) for p in pieces[1:]] if subject else pieces
    pieces = [with_subject(idea, subject) for subject, body in sections for idea in _ideas(body)]
    return pieces if len(pieces) > 1 else [text.strip()]


def suggest_split(memory: Memory) -> list[SuggestedPart]:
    """A draft of parts with guessed tags and entities (:func:`draft_pieces`); a single part
    when nothing suggests a split (a person edits from here). A part gets the original's tags
    its words mention; one that mentions none gets the tags no part claimed (none when every
    tag is claimed: a part is not given another part's tags)."""
    return label_parts(memory, draft_pieces(memory.content))


def _mentions(piece: str, tag: str) -> bool:
    """Whether ``piece``'s words mention ``tag``: as a word, a word's start, or its terms
    (:func:`core.wording.terms`: *neighbours* is mentioned by *neighbour*, *bikes* by *bike*)."""
    words, low = content_tokens(piece), tag.lower()
    wanted = terms(tag)
    return (low in words or any(w.startswith(low) for w in words)
            or (bool(wanted) and wanted <= terms(piece)))


def label_parts(memory: Memory, pieces: Sequence[str]) -> list[SuggestedPart]:
    """Tags and entities for parts of ``memory`` with these texts (the rule of
    :func:`suggest_split`): a part gets the original's tags its words mention (:func:`_mentions`),
    and the entities its text names (whole words: no month or weekday); one that mentions no tag
    of its own gets the tags no part claimed, so each of the original's tags stays on some
    part, and none when every tag is claimed (it is not given the others' tags). A tag every
    part mentions (the note's subject, carried into each part) goes to each and claims nothing;
    a draft of one part keeps every tag."""
    drafts = []
    for piece in pieces:
        part_tags = [t for t in memory.meta.tags if _mentions(piece, t)]
        part_entities = [e for e in memory.entities if text_names(piece, e)]
        for guess in guess_entities(piece):
            if guess not in part_entities:
                part_entities.append(guess)
        drafts.append(SuggestedPart(piece, part_tags, part_entities))
    if len(drafts) == 1:
        drafts[0].tags = list(memory.meta.tags)
        return drafts
    common = {t for t in memory.meta.tags if all(t in d.tags for d in drafts)}
    claimed = {t for d in drafts for t in d.tags} - common
    unclaimed = [t for t in memory.meta.tags if t not in claimed and t not in common]
    for draft in drafts:
        own = [t for t in draft.tags if t not in common] or unclaimed
        draft.tags = [t for t in memory.meta.tags if t in own or t in common]
    return drafts


def split_reasons(memory: Memory) -> list[str]:
    reasons = []
    ideas = draft_pieces(memory.content)
    if len(memory.content) > SPLIT_MIN_CHARS and len(ideas) >= 2:
        reasons.append(f"{len(memory.content)} characters with {len(ideas)} distinct ideas")
    if len(set(memory.meta.tags)) >= SPLIT_MIN_TAGS:
        reasons.append(f"{len(set(memory.meta.tags))} tags")
    if len(set(memory.entities)) >= SPLIT_MIN_ENTITIES:
        reasons.append(f"{len(set(memory.entities))} entities")
    if memory.cross_domain_count >= SPLIT_MIN_CROSS_DOMAIN:
        reasons.append(f"used across {memory.cross_domain_count} domains")
    return reasons


def split_candidates(vault: Vault) -> list[SplitCandidate]:
    """Active memories that look composite, most reasons first."""
    found = []
    for memory in vault.memories.values():
        if memory.status != MemoryStatus.ACTIVE:
            continue
        reasons = split_reasons(memory)
        if reasons:
            weight = len(reasons) + len(memory.content) / 10_000
            found.append(SplitCandidate(memory, reasons, weight))
    return sorted(found, key=lambda c: (-c.weight, c.memory.id))
