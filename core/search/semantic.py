"""Optional semantic search: memories and the query as vectors, ranked by cosine similarity.

The embedder is `wordllama <https://pypi.org/project/wordllama/>`_ when it is installed
(``pip install 'memvault[semantic]'``). Its weights and tokenizer ship inside its wheel; they are
loaded from there with downloads disabled (``disable_download=True``, ``HF_HUB_OFFLINE=1``), so
nothing is ever fetched. Any object with a ``name`` and an ``embed(texts)`` returning unit
vectors will do (the tests pass a small fake one). Vectors are cached in the search index,
keyed by the memory's fingerprint: a memory is embedded again only when its text changed.
"""

from __future__ import annotations

import importlib.util
import math
import os
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .index import SearchIndex
from .query import Query

if TYPE_CHECKING:
    from ..model.records import Memory

WORDLLAMA_CONFIG = "l2_supercat"
WORDLLAMA_DIM = 256
INSTALL_HINT = "semantic search needs wordllama: pip install 'memvault[semantic]'"
#: The cosine from which a memory is near a query (:func:`nearest`). wordllama's vectors give
#: unrelated texts -0.2 to 0.2 (a question in another script, a stray token, a memory about
#: something else: the nearest of a small vault), related ones 0.3 to 0.5 ("beverage" and
#: "I drink coffee every morning" 0.37, "food allergy" and "allergic to shellfish" 0.45), a
#: shared word more. Below it the "nearest" memories are only the least far of a vault that
#: holds nothing near, and are not offered.
NEAR_COSINE = 0.25
#: The characters of a memory's content that are embedded: wordllama pads every text of a batch
#: to the longest one's tokens, so a note of 16 MiB would ask for gigabytes (its model was
#: trained on 1,024 tokens, some 4,000 characters).
EMBED_CHARS = 4096


class Embedder(Protocol):
    name: str  # which model: the key of the cached vectors

    def embed(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        """One unit-length vector per text."""
        ...


def semantic_available() -> bool:
    """wordllama is installed (looked up without importing it)."""
    return importlib.util.find_spec("wordllama") is not None


class WordLlamaEmbedder:
    """wordllama's ``l2_supercat`` model (256 dimensions), loaded from the files in its wheel."""

    def __init__(self) -> None:
        for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
            os.environ.setdefault(key, "1")
        import wordllama
        from wordllama import WordLlama

        # Its own files: the weights in wordllama/weights/ and the tokenizer in
        # wordllama/tokenizers/, found there when the package folder is the cache folder.
        here = Path(wordllama.__file__).parent
        self.model: Any = WordLlama.load(config=WORDLLAMA_CONFIG, dim=WORDLLAMA_DIM,
                                         cache_dir=here, disable_download=True)
        self.name = f"wordllama/{WORDLLAMA_CONFIG}/{WORDLLAMA_DIM}"

    def embed(self, texts: Sequence[str]) -> Any:
        return self.model.embed(list(texts), norm=True)


def load_embedder() -> Embedder | None:
    """The wordllama embedder, or None when wordllama is not installed."""
    if not semantic_available():
        return None
    return WordLlamaEmbedder()


def embedding_text(memory: Memory) -> str:
    """What is embedded of ``memory``: its content's first :data:`EMBED_CHARS` characters, its
    tags and entities (at most twice that in all)."""
    text = " ".join([memory.content[:EMBED_CHARS], *memory.meta.tags, *memory.entities])
    return text[:2 * EMBED_CHARS]


def hybrid_notes(query: Query, handed: str | None, embedder: Embedder | None) -> list[str]:
    """The notes of a search of ``query``: ``handed``, when it answered from the memories in
    memory while the index's first build runs (None: from the index), and those of a hybrid
    one (``embedder``) that ranked by the words alone. While the index is built, since the
    vectors are cached there (made in memory, every memory would be embedded at each search:
    some 70 s at 100k memories); for a query of only :data:`.query.STOPWORDS`, since it asks
    nothing a meaning could answer (:attr:`.query.Query.asks_something`)."""
    notes = [handed] if handed else []
    if embedder is not None and handed:
        notes.append("the memories near in meaning are offered once the index is built (their "
                     "vectors are kept there): this search ranked by the words alone")
    if embedder is not None and query.has_text and not query.asks_something:
        notes.append("only common words (the, what, on...) to look for: the memories holding "
                     "them, none offered for being near in meaning")
    return notes


def nearest(cos: Mapping[str, float], depth: int) -> list[str]:
    """The ``depth`` ids of ``cos`` most similar to the query, best first, of those at least
    :data:`NEAR_COSINE` (none when the vault holds nothing near it)."""
    near = [i for i, c in cos.items() if c >= NEAR_COSINE]
    return sorted(near, key=lambda i: (-cos[i], i))[:depth]


def _pack(vector: Sequence[float]) -> bytes:
    return array("f", [float(x) for x in vector]).tobytes()


def cosines(index: SearchIndex, embedder: Embedder, memories: Mapping[str, Memory],
            ids: Sequence[str], query: str, top: int | None = None) -> dict[str, float]:
    """id -> cosine similarity to ``query`` of the memories in ``ids`` (with ``top``: of the
    ``top`` most similar only). Vectors missing from the cache (new or changed memories) are
    made and cached first; the stacked vectors are kept while the index and ``ids`` stay."""
    if not ids:
        return {}
    ids = list(ids)
    key = (embedder.name, tuple(ids), index.generation)
    memo = index.memo.get("matrix")
    if isinstance(memo, tuple) and memo[0] == key:
        rows = memo[1]
    else:
        wanted = {i: index.fingerprint_of(memories[i]) for i in ids}
        cached = index.embeddings.vectors(embedder.name, wanted)
        missing = [i for i in ids if i not in cached]
        if missing:
            made = embedder.embed([embedding_text(memories[i]) for i in missing])
            items = [(i, wanted[i], _pack(v)) for i, v in zip(missing, made)]
            index.embeddings.put_vectors(embedder.name, items)
            cached.update({i: v for i, _, v in items})
        rows = _stack([cached[i] for i in ids])
        index.memo["matrix"] = ((embedder.name, tuple(ids), index.generation), rows)
    q = [float(x) for x in embedder.embed([query])[0]]
    if isinstance(rows, list):  # no numpy around (a fake embedder in the tests): plain Python
        scores = {i: _dot(q, row) for i, row in zip(ids, rows)}
        best = sorted(scores, key=lambda i: (-scores[i], i))[:top]
        return {i: scores[i] for i in best}
    import numpy as np

    values = rows @ np.asarray(q, dtype=np.float32)
    if top is not None and top < len(ids):
        picked = np.argpartition(-values, top)[:top]
    else:
        picked = np.arange(len(ids))
    return {ids[n]: float(values[n]) for n in picked.tolist()}


def _stack(vectors: list[bytes]) -> Any:
    """The vectors as one float32 matrix (numpy), or as lists of floats without numpy."""
    try:
        import numpy as np
    except ImportError:
        return [array("f", v) for v in vectors]
    return np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(len(vectors), -1)


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    total = math.fsum(x * y for x, y in zip(a, b))
    return total


@dataclass
class BackfillReport:
    total: int  # memories in the vault
    targets: int  # those the backfill makes (or would make) vectors for
    processed: int  # vectors made and cached
    missing_after: int  # memories still without a cached vector


EMBED_BATCH = 256


def backfill(index: SearchIndex, embedder: Embedder, memories: Mapping[str, Memory], *,
             limit: int | None = None, force: bool = False,
             dry_run: bool = False) -> BackfillReport:
    """Make and cache the vectors of the memories that have none for their current text (with
    ``force``, of every memory again), at most ``limit``, in batches; ``dry_run`` only counts.
    What a search would otherwise make the first time it needs them."""
    index.sync(memories)
    wanted = {i: index.fingerprint_of(m) for i, m in memories.items()}
    cached = index.embeddings.vectors(embedder.name, wanted)
    missing = [i for i in wanted if i not in cached]
    targets = list(wanted) if force else missing
    if limit is not None:
        targets = targets[:limit]
    if dry_run or not targets:
        return BackfillReport(len(wanted), len(targets), 0, len(missing))
    done = 0
    for start in range(0, len(targets), EMBED_BATCH):
        batch = targets[start:start + EMBED_BATCH]
        made = embedder.embed([embedding_text(memories[i]) for i in batch])
        index.embeddings.put_vectors(embedder.name, [(i, wanted[i], _pack(v)) for i, v in zip(batch, made)])
        done += len(batch)
    left = len([i for i in missing if i not in set(targets)])
    return BackfillReport(len(wanted), len(targets), done, left)
