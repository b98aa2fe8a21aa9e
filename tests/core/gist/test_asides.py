"""Asides: sentences that lean on the one before them (core.gist.asides)."""

from __future__ import annotations

import pytest

from core.gist.asides import is_circumstance, leans_on_previous


@pytest.mark.parametrize("sentence", [
    "Said with obvious enthusiasm while we talked about plans for the weekend.",
    "Stated at the start of our first session, as one of a few ground rules.",
    "Mentioned casually while we planned the meals for the week.",
    "Heard in the weekly one-to-one with Alice.",
    "It came up again during the code review of the storage layer.",
])
def test_circumstances(sentence: str) -> None:
    assert is_circumstance(sentence)
    assert leans_on_previous(sentence)


@pytest.mark.parametrize("sentence", [
    "This matters for restaurant suggestions and recipes.",
    "It is a goal for this year, so gentle reminders are welcome.",
    "A steady hobby for many years that they want to make more time for again.",
    "Worth remembering before the next planning week.",
    "A correction after an earlier answer ignored it, so it should be applied every time.",
    "They asked me to apply it to generated code too.",
])
def test_sentences_that_point_back(sentence: str) -> None:
    assert leans_on_previous(sentence)
    assert not is_circumstance(sentence)


@pytest.mark.parametrize("sentence", [
    "Said Ahmed runs the billing service.",  # a name, not a participle
    "Ana, the neighbour downstairs, looks after the plants when we travel.",
    "The bike room code changed to 4711 in May.",
    "A deploy took the API down for twenty minutes.",
    "Payroll runs on the 25th.",
    "",
])
def test_sentences_that_stand_alone(sentence: str) -> None:
    assert not leans_on_previous(sentence)
    assert not is_circumstance(sentence)
