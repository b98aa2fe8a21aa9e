"""core.textutil's entity guesses: names, not sentence openers or dates."""

from __future__ import annotations

from core.textutil import guess_entities


def test_month_and_weekday_names_are_not_entities() -> None:
    text = ("The bike room code changed to 4711 in May. Dentist on Tuesday 3 July with Dr Silva. "
            "The drain must be cleared before October; Ana has the key since Monday.")
    assert guess_entities(text) == ["Dr Silva", "Ana"]


def test_names_around_a_date_stay() -> None:
    assert guess_entities("We meet at Kyoto Station on Friday with Lisbon colleagues.") == [
        "Kyoto Station", "Lisbon"]


def test_a_nationality_or_a_letter_with_digits_is_no_entity() -> None:
    text = ("Cooks Italian food on Sundays with Ana, takes vitamin B12 daily, prints on A4 paper "
            "and speaks French at home. Drove along the Italian Riviera with USB3 and GPT4 notes.")
    assert guess_entities(text) == ["Ana", "Italian Riviera", "USB3", "GPT4"]
