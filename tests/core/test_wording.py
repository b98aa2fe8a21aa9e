"""Content terms and their likeness (core/wording.py): paraphrases alike, distinct values not."""

from __future__ import annotations

import pytest

from core.wording import NEGATION, conflict, likeness, terms

PARAPHRASES = [
    ("The user prefers dark mode in every editor and terminal",
     "User prefers dark mode in all editors and terminals"),
    ("Prefers pytest with plain assert",
     "Prefers pytest with plain assert statements over unittest"),
    ("Always uses tabs for indentation", "Uses tabs for indentation"),
]
DISTINCT = [
    ("Prefers dark mode", "Prefers light mode in the terminal"),
    ("Uses tabs for indentation", "Does not use tabs for indentation"),
    ("The deploy runs on Fridays at 5pm", "The deploy runs on Mondays at 5pm"),
    ("The API listens on port 8080", "The API listens on port 3000"),
]


def test_terms_drop_stopwords_and_stem_inflections():
    assert terms("The user prefers dark mode in every editor and terminal") == terms(
        "User prefers dark mode in all editors and terminals")
    assert terms("preferred") == terms("prefers") == terms("preference") == terms("prefer")
    assert NEGATION in terms("She doesn't use tabs") and NEGATION in terms("never tabs")


@pytest.mark.parametrize(("a", "b"), PARAPHRASES)
def test_paraphrases_are_alike(a, b):
    assert likeness(terms(a), terms(b)) >= 0.85


@pytest.mark.parametrize(("a", "b"), DISTINCT)
def test_distinct_values_and_negations_conflict_and_weigh_little(a, b):
    assert conflict(terms(a), terms(b))
    assert likeness(terms(a), terms(b)) < 0.3


def test_likeness_never_exceeds_the_share_of_the_smaller_set_held():
    small, large = terms("alpha beta gamma delta"), terms("alpha beta gamma zeta eta theta")
    assert likeness(small, large) <= 3 / 4
    assert likeness(frozenset(), large) == 0.0


def test_a_long_texts_terms_are_read_once_for_the_checks_that_ask_again(monkeypatch):
    import core.wording as wording

    reads = []
    real = wording._terms

    def counting(text):
        """_terms, counting the texts it reads."""
        reads.append(len(text))
        return real(text)

    monkeypatch.setattr(wording, "_terms", counting)
    huge = "the user prefers dark mode in every editor " * 4000
    assert wording.terms(huge) == wording.terms(huge) == wording.terms("prefers dark mode editor")
    assert reads == [len(huge), len("prefers dark mode editor")]


def test_a_long_texts_words_are_those_the_word_pattern_finds():
    import random

    import core.wording as wording

    rng = random.Random(41)
    pieces = ["a", "B", "'", "_", " ", "\n", "\x1c", "\u00a0", "\u2028", "\u3000", "é", "1", "-",
              "'x", "don't", "prefers"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) * 3000
        assert wording._words(text) == set(wording._WORD.findall(text)), text[:40]
