"""A question asking *when* lifts the memories that say a time (:mod:`core.search.answer_type`):
which questions ask it, which memories say one, the lift, and a search that finds the memory
saying when first."""

from __future__ import annotations

import pytest

from core import Memory
from core.search import Searcher
from core.search.answer_type import (READ_CHARS, TIME_WEIGHT, asks_when, lifted_as_asked,
                                     lifted_by_time_asked, says_a_time)

DAY = 86400
AT = 1_690_000_000  # (July 2023)


@pytest.mark.parametrize("question", [
    "When did Caroline go to the LGBTQ support group?", "  when is the deploy?",
    "Since when did we pin the lock?", "How long has Melanie been painting?",
    "What year did John move?", "Which month did the release ship?", "what date was it set"])
def test_a_question_asking_for_a_time_asks_when(question):
    assert asks_when(question)


@pytest.mark.parametrize("question", [
    "What did Melanie paint?", "deploy lock", "What did Nate say when he won?",
    "Whenever the build breaks", "How did Evan get into painting?", ""])
def test_a_question_asking_for_something_else_does_not(question):
    assert not asks_when(question)


@pytest.mark.parametrize("text", [
    "Melanie painted a sunset last week", "moved in 2019", "shipped on Friday",
    "the call is at 3 pm", "set on 2023-07-07", "two days ago", "back in March",
    "Yesterday the lock broke"])
def test_a_memory_with_a_word_of_time_a_year_a_clock_time_or_a_date_says_a_time(text):
    assert says_a_time(Memory(id="m", content=text))
    assert says_a_time(Memory(id="m", content="the lock", gist=text))  # (its gist says it)


@pytest.mark.parametrize("text", [
    "Melanie painted a sunset with her kids", "port 8080 is open", "version 3.12",
    "memvault 1.2.3 is out", "the daily standup notes"])
def test_a_memory_without_one_does_not(text):
    assert not says_a_time(Memory(id="m", content=text))


def test_a_time_said_past_the_characters_read_is_not_looked_for():
    assert says_a_time(Memory(id="m", content="x " * (READ_CHARS // 2 - 10) + "yesterday"))
    assert not says_a_time(Memory(id="m", content="x " * (READ_CHARS // 2) + "yesterday"))


def test_a_memory_saying_a_time_gains_when_asked_when_and_all_are_over_the_best_again():
    relevance = {"a": 1.0, "b": 0.9, "c": 0.5}
    memories = {"a": Memory(id="a", content="the lock"),
                "b": Memory(id="b", content="the lock, last Friday"),
                "c": Memory(id="c", content="the lock in 2022")}
    lifted = lifted_by_time_asked(relevance, {"a", "b"}, "When was the lock set?",
                                  memories.__getitem__)
    top = 0.9 + TIME_WEIGHT  # (c says a time but is not among those lifted)
    assert lifted == pytest.approx({"a": 1.0 / top, "b": 1.0, "c": 0.5 / top})
    assert lifted_by_time_asked(relevance, relevance, "What lock?", memories.__getitem__) == \
        relevance
    assert lifted_by_time_asked(relevance, {"a"}, "When was the lock set?",
                                memories.__getitem__) == relevance  # (none says a time)


def test_the_days_a_question_names_lift_first_then_the_time_it_asks_for():
    relevance = {"old": 1.0, "that-day": 0.8, "timed": 0.9}
    memories = {"old": Memory(id="old", content="x", created_at=AT - 30 * DAY),
                "that-day": Memory(id="that-day", content="x", created_at=AT),
                "timed": Memory(id="timed", content="x last week", created_at=AT - 30 * DAY)}
    assert lifted_as_asked(relevance, relevance, "What did Maria share about x?",
                           memories.__getitem__) == relevance
    when = lifted_as_asked(relevance, relevance, "When did Maria share x on 22 July 2023?",
                           memories.__getitem__)
    assert max(when, key=when.__getitem__) == "that-day" and when["timed"] > when["old"]


@pytest.mark.parametrize("limit", [1, None])
def test_a_search_asking_when_finds_the_memory_that_says_when_first(vault, limit):
    """Two memories hold the question's words, written weeks apart (no episode, no neighbour);
    the better text match does not say when, the other does."""
    for memory_id, content, created in [
            ("plain", "Melanie painted a sunset: Melanie loves to paint sunsets", AT),
            ("timed", "Melanie painted a sunset last week", AT + 30 * DAY)]:
        vault.save(Memory(id=memory_id, content=content, created_at=created, last_used=created))
    with Searcher(vault, mode="bm25") as s:
        plain = [h.memory.id for h in s.search("What did Melanie paint, a sunset?",
                                                now=AT + 31 * DAY, limit=None).hits]
        when = s.search("When did Melanie paint a sunset?", now=AT + 31 * DAY, limit=limit).hits
    assert plain == ["plain", "timed"]
    assert when[0].memory.id == "timed" and when[0].relevance == 1.0
