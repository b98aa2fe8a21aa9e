"""A question naming a day or a month lifts the memories written then
(:mod:`core.search.dated`): the windows it names, the lift, and a search that finds the memory
of the day named first."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from core import Memory
from core.search import Searcher
from core.search.dated import DATE_WEIGHT, MARGIN, lifted_by_date, windows_named

DAY = 86400


def _at(year: int, month: int, day: int) -> int:
    return int(datetime(year, month, day, tzinfo=timezone.utc).timestamp())


@pytest.mark.parametrize("text", [
    "What did Maria share on 7 July, 2023?", "on 7th of July 2023", "on July 7, 2023",
    "on Jul 7th 2023", "on jul. 7 2023", "what happened 2023-07-07"])
def test_a_day_written_any_usual_way_names_that_day_widened_by_the_margin(text):
    assert windows_named(text) == [(_at(2023, 7, 7) - MARGIN, _at(2023, 7, 8) + MARGIN)]


def test_a_month_is_named_only_when_no_day_is():
    assert windows_named("What did John do in August 2023?") == [
        (_at(2023, 8, 1) - MARGIN, _at(2023, 9, 1) + MARGIN)]
    assert windows_named("in December, 2023") == [(_at(2023, 12, 1) - MARGIN,
                                                    _at(2024, 1, 1) + MARGIN)]
    assert windows_named("between 11 August 2023 and 15 August 2023") == [
        (_at(2023, 8, 11) - MARGIN, _at(2023, 8, 12) + MARGIN),
        (_at(2023, 8, 15) - MARGIN, _at(2023, 8, 16) + MARGIN)]


@pytest.mark.parametrize("text", [
    "deploy lock", "in 2023", "on 7 July", "31 June 2023", "2023-13-01", "may 2 words",
    "12 mayday 2023", "version 2023-07"])
def test_no_date_a_year_alone_a_day_without_its_year_or_one_that_does_not_exist_names_nothing(text):
    assert windows_named(text) == []


def test_a_memory_of_the_window_gains_and_all_are_over_the_best_again():
    relevance = {"a": 1.0, "b": 0.8, "c": 0.3}
    created = {"a": _at(2023, 7, 1), "b": _at(2023, 7, 7) + 5, "c": _at(2023, 7, 7)}
    lifted = lifted_by_date(relevance, {"a", "b"}, windows_named("on 7 July 2023"), created.get)
    top = 0.8 + DATE_WEIGHT  # (c is of the day but not among those lifted)
    assert lifted == pytest.approx({"a": 1.0 / top, "b": 1.0, "c": 0.3 / top})
    assert lifted_by_date(relevance, relevance, [], created.get) == relevance
    assert lifted_by_date(relevance, relevance, windows_named("on 9 July 2023"), created.get) == \
        relevance  # (none in the window: unchanged)


@pytest.mark.parametrize("limit", [1, None])
def test_a_search_naming_a_day_finds_the_memory_written_that_day_first(vault, limit):
    """Two memories hold the question's words; the better text match was written a week
    earlier, the other on the day the question names."""
    day = _at(2023, 7, 7) + 15 * 3600
    for memory_id, content, created in [
            ("earlier", "Maria shared news about the shelter and the shelter dinner", day - 7 * DAY),
            ("that-day", "Maria shared news from the hike", day)]:
        vault.save(Memory(id=memory_id, content=content, created_at=created, last_used=created))
    with Searcher(vault, mode="bm25") as s:
        plain = [h.memory.id for h in s.search("What news did Maria share about the shelter?",
                                                now=day + DAY, limit=None).hits]
        dated = s.search("What news did Maria share about the shelter on 7 July, 2023?",
                         now=day + DAY, limit=limit).hits
    assert plain == ["earlier", "that-day"]
    assert dated[0].memory.id == "that-day" and dated[0].relevance == 1.0
