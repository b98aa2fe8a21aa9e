"""Likely duplicates of a memory about to be added (core/ops/duplicates.py)."""

from __future__ import annotations

import pytest

from core import Memory, Vault
from core.ops.duplicates import DUPLICATE_HINT, duplicates_of, likely_duplicates
from core.ops.near_duplicates import forget

TEXTS = ["The dentist appointment is on Tuesday 3 July at 09:30 with Dr Silva.",
         "Dentist appointment: Tuesday 3 July, 09:30, Dr Silva.",
         "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12.",
         "Dentist on Tuesday at 10"]


def test_similar_memories_are_found_most_similar_first():
    pool = [Memory(id=f"m{i}", content=t) for i, t in enumerate(TEXTS)]
    found = likely_duplicates(pool, "Dentist appointment on Tuesday 3 July at 09:30 with Dr Silva.")
    assert [m.id for m, _ in found] == ["m0", "m1"]
    assert found[0][1] >= found[1][1] >= DUPLICATE_HINT  # (the same terms: both 1.0)


def test_nothing_similar_finds_nothing_and_limit_holds():
    pool = [Memory(id=f"m{i}", content=TEXTS[0]) for i in range(9)]
    assert likely_duplicates(pool, "Payroll runs on the 25th.") == []
    assert len(likely_duplicates(pool, TEXTS[0], limit=3)) == 3


def test_tags_and_entities_count():
    pool = [Memory(id="a", content="release notes for the web app", entities=["Ana"])]
    plain = likely_duplicates(pool, "release notes for the mobile app", threshold=0.0)[0][1]
    named = likely_duplicates(pool, "release notes for the mobile app", entities=["Ana"],
                              threshold=0.0)[0][1]
    assert named > plain


def test_a_new_text_that_only_repeats_part_of_a_longer_memory_is_found():
    long = Memory(id="long", content="Prefers paperless statements for every account. A "
                  "deadline that repeats every year, so a reminder a month ahead is the right "
                  "time to start.")
    found = likely_duplicates([long], "Prefers paperless statements for every account.")
    assert [m.id for m, _ in found] == ["long"] and found[0][1] >= DUPLICATE_HINT
    assert likely_duplicates([long], "every account") == []  # too few words to tell


@pytest.fixture
def vault(tmp_path):
    v = Vault.open(tmp_path / "v")
    yield v
    forget(v.root)


@pytest.mark.parametrize(("saved", "new"), [
    ("The user prefers dark mode in every editor and terminal",
     "User prefers dark mode in all editors and terminals"),
    ("Prefers pytest with plain assert",
     "Prefers pytest with plain assert statements over unittest"),
])
def test_a_saved_paraphrase_names_the_memory_it_rewords(vault, saved, new):
    """Issue 41: what ``memvault add``, MCP ``save_memory`` and the inbox ask after a save."""
    first = vault.add(saved)
    vault.add("Deploys go out on Tuesdays after the standup")
    second = vault.add(new)
    assert [m.id for m, _ in duplicates_of(vault, second.id)] == [first.id]


@pytest.mark.parametrize(("saved", "new"), [
    ("Prefers dark mode", "Prefers light mode in the terminal"),
    ("Uses tabs for indentation in Python files",
     "Does not use tabs for indentation in Python files"),
])
def test_a_related_but_distinct_memory_is_not_named(vault, saved, new):
    vault.add(saved)
    second = vault.add(new)
    assert duplicates_of(vault, second.id) == []
