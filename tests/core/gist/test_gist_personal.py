"""Personal facts (core.gist.personal): what a gist keeps before the asides around it."""

from __future__ import annotations

import pytest

from core.gist import generate_gist
from core.gist.personal import is_personal_fact


@pytest.mark.parametrize("sentence", [
    "The user is vegetarian.", "Prefers oat milk in coffee.", "Sam prefers short pull requests.",
    "Is allergic to peanuts.", "Her name is Margarethe but she goes by Grete.", "I like tea.",
    "Eats halal only.", "Favourite author is Ursula K. Le Guin.",
])
def test_a_personal_fact_is_recognised(sentence: str) -> None:
    assert is_personal_fact(sentence)


@pytest.mark.parametrize("sentence", [
    "It prefers either JSON::XS or JSON::PP.", "They are created by the constructor.",
    "Libraries like libxcb rely on pthread stubs.", "Like its identity, the type is fixed.",
    "To avoid this, copy the dictionary.", "Use this library in preference to the older one.",
])
def test_a_sentence_about_a_thing_is_no_personal_fact(sentence: str) -> None:
    assert not is_personal_fact(sentence)


def test_a_gist_keeps_the_personal_fact_before_the_topic_sentence() -> None:
    note = ("Asked for restaurant ideas for the weekend trip to Porto with a group of six friends "
            "from the old football club, most of whom have not seen each other since the wedding "
            "last spring. The user is vegetarian. Places with a view of the river would be nice "
            "if the weather holds.")
    gist = generate_gist(note, "moderate")
    assert gist is not None and "The user is vegetarian." in gist
