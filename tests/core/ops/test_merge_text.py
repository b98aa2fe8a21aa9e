"""The consolidate draft (core.ops.merge_text): each fact once, every number, name and negation kept."""

from __future__ import annotations

import re

import pytest

from core.ops.merge_text import facts_of, merge_texts

SYNC = ["The weekly sync with the team is on Wednesday at 14:00 from now on.",
        "The weekly team sync moved to Wednesday at 14:00.",
        "Team sync is now on Wednesdays at 14:00."]
DENTIST = ["The dentist appointment is on Tuesday 3 July at 09:30 with Dr Silva.",
           "Dentist appointment on Tuesday 3 July at 09:30 with Dr Silva.",
           "Dentist appointment: Tuesday 3 July, 09:30, Dr Silva."]


@pytest.mark.parametrize("texts", [SYNC, DENTIST])
def test_repeated_sentences_go(texts: list[str]) -> None:
    assert merge_texts(texts) == texts[0]


def test_a_clause_that_repeats_goes_and_the_new_one_stays() -> None:
    draft = merge_texts([
        "Backups run nightly at 02:00 on db-1; restores are tested monthly by Carol, who keeps "
        "the runbook.",
        "Backups run nightly at 02:00 on db-1. Carol keeps the runbook up to date, and restores "
        "are tested monthly."])
    assert draft == ("Backups run nightly at 02:00 on db-1; restores are tested monthly by Carol, "
                     "who keeps the runbook.\n\nCarol keeps the runbook up to date.")


def test_a_sentence_that_says_more_takes_the_place_of_the_one_it_contains() -> None:
    draft = merge_texts(["The deploy runs at 02:00 and pages Bob.",
                         "The deploy runs at 02:00, and it pages Bob on failure."])
    assert draft == "The deploy runs at 02:00, and it pages Bob on failure."


@pytest.mark.parametrize("texts", [
    ["The deploy runs at 02:00 and pages Bob.", "The deploy runs at 03:00 and pages Bob."],
    ["The deploy runs at 02:00 and pages Bob.", "The deploy runs at 02:00 and pages Alice."],
    ["Alice wants written summaries after calls.", "Alice does not want written summaries after calls."],
])
def test_a_different_number_name_or_negation_is_never_merged_away(texts: list[str]) -> None:
    assert merge_texts(texts) == "\n\n".join(texts)


def test_every_number_and_name_of_every_source_is_kept() -> None:
    themes = ["Prefers dark themes in every editor and terminal.",
              "Prefers a dark theme in the editor and in the terminal.",
              "Always wants dark themes in editors and terminals."]
    commits = ["Use conventional commit prefixes like feat and fix in the memvault repository.",
               "The memvault repository uses conventional commit prefixes such as feat and fix."]
    passport = ["Renew the passport before the trip to Japan in November.",
                "Renew the passport before the Japan trip in November!"]
    for texts in (themes, commits, passport, SYNC, DENTIST):
        ordered = sorted(texts, key=lambda t: -len(t))
        draft = merge_texts(ordered)
        wanted = set().union(*(facts_of(t) for t in texts))
        assert wanted <= facts_of(draft) | {w.lower() for w in re.findall(r"\w+", draft)}
        assert len(draft) <= len(ordered[0]) + len(ordered[1]) + 2  # not the sources pasted


def test_a_paragraph_with_nothing_taken_out_stays_as_written() -> None:
    a = "First line of a note\nwrapped by hand.\n\nSecond paragraph about taxes."
    assert merge_texts([a, "Second paragraph about taxes."]) == a


@pytest.mark.parametrize("texts", [
    ["Prefers dark themes in every editor and terminal.",
     "Always wants dark themes in editors and terminals."],
    ["Prefers a dark theme in the editor and in the terminal.",
     "Always wants dark themes in editors and terminals.",
     "Prefers dark themes in every editor and terminal."],
])
def test_a_near_identical_sentence_is_said_once(texts: list[str]) -> None:
    """Alike as the house compares texts (core.wording: *wants* and *prefers*, plurals and
    stopwords aside): the draft says it once."""
    assert merge_texts(texts) == texts[0]


@pytest.mark.parametrize("texts", [
    ["Prefers dark themes in every editor.", "Prefers light themes in every editor."],
    ["Uses tabs for indentation in every Go file here.",
     "Uses spaces for indentation in every Go file here."],
    ["The backup runs every night on the main server.",
     "The backup runs every morning on the main server."],
])
def test_another_value_of_one_kind_is_never_merged_away(texts: list[str]) -> None:
    """Two values of one kind (core.wording.conflict: dark / light, tabs / spaces) are two facts."""
    assert merge_texts(texts) == "\n\n".join(texts)
