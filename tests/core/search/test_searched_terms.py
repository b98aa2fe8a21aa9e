"""What a search looks for, whatever is typed (core.search.searched_terms): a query of 10,000
words sends FTS5 at most its first 64 distinct terms; a query of stopwords, of punctuation
alone, with control characters or in another script answers; a memory at the size limit is
found with its snippet."""

from __future__ import annotations

import random
import re

from core import Memory
from core.search import Searcher
from core.search import rank as ranking
from core.search.index import SearchIndex
from core.search.query import parse
from core.search.searched_terms import MOST_TERMS, searched
from core.store.files import MAX_FILE_BYTES

NOW = 1_800_000_000


def _save(vault, memory_id: str, content: str) -> None:
    vault.save(Memory(id=memory_id, content=content, created_at=NOW - 10, last_used=NOW - 10))


def _small(vault) -> None:
    _save(vault, "fixtures", "Prefers pytest fixtures over setUp methods")
    _save(vault, "deploy", "Never deploy on Fridays: the on-call rota is thin")
    _save(vault, "coffee", "Где я записал рецепт кофе: в тетради на кухне")
    _save(vault, "tea", "茶 和 咖啡 都 在 柜子 里")


def test_a_ten_thousand_word_query_sends_fts5_its_first_distinct_terms(vault):
    _small(vault)
    rng = random.Random(4)
    words = ["pytest", "deploy", "fridays"] + [f"w{rng.randrange(100_000)}" for _ in range(9_997)]
    text = " ".join(rng.sample(words, len(words)) + ["pytest"] * 50)
    with Searcher(vault, mode="bm25") as searcher:
        searcher.search("warm", now=NOW)
        sent: list[str] = []
        searcher.index.conn.set_trace_callback(sent.append)
        result = searcher.search(text, now=NOW)
        searcher.index.conn.set_trace_callback(None)
    looked_for = searched(parse(text).text_terms)
    assert len(looked_for) == MOST_TERMS and len({t.value for t in looked_for}) == MOST_TERMS
    phrases = [len(re.findall(r'"[^"]*"', s)) for s in sent if "MATCH" in s]
    assert phrases and max(phrases) <= MOST_TERMS
    assert any("first 64 different ones" in note for note in result.notes)
    wanted = {t.value for t in looked_for}
    found = {h.memory.id for h in result.hits}
    assert found == {i for i, w in (("fixtures", "pytest"), ("deploy", "deploy"),
                                    ("deploy", "fridays")) if w in wanted}


def test_a_short_query_keeps_its_repeated_words():
    terms = parse("the cat and the hat").text_terms
    assert searched(terms) == terms


def test_stopwords_or_punctuation_alone_answer(vault):
    _small(vault)
    with Searcher(vault, mode="bm25") as searcher:
        stopwords = searcher.search("the on over", now=NOW)
        punctuation = searcher.search('?! ... ,,, --- "" (*) :', now=NOW)
    assert {h.memory.id for h in stopwords.hits} == {"fixtures", "deploy"}
    assert punctuation.mode == "filter" and len(punctuation.hits) == 4
    assert any("no letters or digits" in note for note in punctuation.notes)


def test_control_characters_are_not_words(vault):
    _small(vault)
    with Searcher(vault, mode="bm25") as searcher:
        plain = searcher.search("pytest fixtures", now=NOW)
        hostile = searcher.search("pytest\x00 \x1b[31mfixtures\x07 \x1b]0;x\x07", now=NOW)
    assert [h.memory.id for h in hostile.hits] == [h.memory.id for h in plain.hits] == ["fixtures"]
    assert not any(re.search(r"[\x00-\x1f]", note) for note in hostile.notes)


def test_a_question_in_another_script_answers(vault):
    _small(vault)
    with Searcher(vault, mode="bm25") as searcher:
        cyrillic = searcher.search("Где рецепт кофе?", now=NOW)
        chinese = searcher.search("咖啡 在 哪里?", now=NOW)
    assert [h.memory.id for h in cyrillic.hits] == ["coffee"]
    assert [h.memory.id for h in chinese.hits] == ["tea"]
    spans = chinese.hits[0].snippet.spans
    assert [chinese.hits[0].snippet.text[a:b] for a, b in spans] == ["咖啡", "在"]


def test_a_memory_at_the_size_limit_is_found_with_its_snippet():
    """16 MiB of text (a file at the limit), the word in it 250,000 times: found, and its
    snippet is a window around a match."""
    unit = "the morning coffee ran late and the build was green again "
    content = (unit * (MAX_FILE_BYTES // len(unit)))[:MAX_FILE_BYTES - 4096]
    memories = {"huge": Memory(id="huge", content=content, created_at=1, last_used=1),
                "small": Memory(id="small", content="a coffee with milk", created_at=1,
                                last_used=1)}
    index = SearchIndex(None)
    try:
        query = parse("coffee")
        found = ranking.rank(index, memories, query, set(memories), lambda m: 1.0, top=10)
        hits = [ranking.with_snippet(h, query) for h in found.hits]
    finally:
        index.close()
    assert {h.memory.id for h in hits} == {"huge", "small"}
    snippet = next(h.snippet for h in hits if h.memory.id == "huge")
    assert snippet.spans and len(snippet.text) <= 160
    assert {snippet.text[a:b] for a, b in snippet.spans} == {"coffee"}
