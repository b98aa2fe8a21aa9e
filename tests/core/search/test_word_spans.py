"""Where a query's words are in a text (core.search.word_spans): linear in the text, so a word
in a memory of megabytes is highlighted at once; an ASCII text is searched by a regular
expression a term and finds exactly what reading it a token at a time finds."""

from __future__ import annotations

import random

import pytest

from core.search import word_spans
from core.search.query import parse
from core.search.word_spans import match_spans

VOCABULARY = ["deploy", "deploys", "deployment", "ci", "is", "a", "cafe", "fix", "fixes", "fixed",
              "x_y", "on-call", "on", "call", "running", "runs", "12", "a1b", "coffee"]
QUERIES = ["deploy", "fix*", '"on call"', '"a a"', "ci is", "dep* running", '"deploy fix"', "12",
           "x_y", "'", "coffee a1b", "fixes deployment"]


def test_an_ascii_text_is_not_read_a_token_at_a_time(monkeypatch):
    """The issue's memory: 2.6 MB with a word in it 40,000 times. Folding each of its tokens
    in Python took seconds; only the query's words are folded now."""
    rng = random.Random(1)
    words = [rng.choice(["coffee", "tea", "the", "deploys", "coffeehouse"]) for _ in range(60_000)]
    text = " ".join(words)
    folded: list[str] = []
    fold = word_spans.fold
    monkeypatch.setattr(word_spans, "fold", lambda t: folded.append(t) or fold(t))
    spans = match_spans(text, parse("coffee deploy").text_terms)
    assert len(folded) <= 2
    assert len(spans) == sum(w in ("coffee", "coffeehouse", "deploys") for w in words)
    assert [text[s:e] for s, e in spans[:50]] == [w for w in words if w != "tea" and w != "the"][:50]


@pytest.mark.parametrize("seed", range(4))
def test_the_expressions_find_what_the_tokens_find(seed):
    rng = random.Random(seed)
    for _ in range(400):
        text = "".join(rng.choice(VOCABULARY) + rng.choice([" ", ", ", "_", "-", "\n", ".", "'"])
                       for _ in range(rng.randint(0, 25)))
        text = rng.choice([text, text.upper(), text.title()])
        terms = parse(" ".join(rng.sample(QUERIES, rng.randint(1, 3)))).text_terms
        assert match_spans(text, terms) == word_spans._token_spans(text, terms), (text, terms)


def test_a_text_in_another_script_or_with_diacritics_is_folded_token_by_token():
    assert match_spans("Un café à Lisbonne", parse("cafe").text_terms) == [(3, 7)]
    assert match_spans("Кофе и чай, кофейня", parse("кофе").text_terms) == [(0, 4), (12, 19)]
    assert match_spans("coffee, and more coffee", parse("кофе").text_terms) == []


def test_a_mostly_ascii_text_folds_only_its_tokens_beyond_ascii(monkeypatch):
    """Issue 41's 2.6 MB memory (Python's documentation: a few thousand characters beyond
    ASCII, "’", "é", "…") took the token-at-a-time path whole: most of a second for its
    snippet. Now only the tokens holding such a letter are folded one by one."""
    rng = random.Random(2)
    words = [rng.choice(["coffee", "tea", "the", "deploys", "café", "naïve", "it’s", "…"])
             for _ in range(60_000)]
    text = " ".join(words)
    folded: list[str] = []
    fold = word_spans.fold
    monkeypatch.setattr(word_spans, "fold", lambda t: folded.append(t) or fold(t))
    spans = match_spans(text, parse("coffee cafe").text_terms)
    assert len(folded) <= 4 + sum(w in ("café", "naïve") for w in words)  # (the terms twice)
    assert [text[s:e] for s, e in spans] == [w for w in words if w in ("coffee", "café")]


BEYOND = ["café", "CAFÉ", "naïve", "ß", "İstanbul", "\u212a", "ﬁx", "日本", "e\u0301", "’", "…",
          "😀", "déjà", "Кофе"]


@pytest.mark.parametrize("seed", range(4))
def test_words_in_a_mixed_text_are_found_as_the_tokens_find_them(seed):
    rng = random.Random(seed)
    queries = QUERIES + ["cafe", "caf*", "ss", "k", "fix", "deja", "кофе", "ist*", "e"]
    for _ in range(400):
        text = "".join(rng.choice(VOCABULARY + BEYOND) + rng.choice([" ", ", ", "_", "-", ""])
                       for _ in range(rng.randint(0, 25)))
        text = rng.choice([text, text.upper(), text.title()])
        terms = parse(" ".join(rng.sample(queries, rng.randint(1, 3)))).text_terms
        assert match_spans(text, terms) == word_spans._token_spans(text, terms), (text, terms)
