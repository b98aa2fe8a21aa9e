"""The split draft's headings and subjects (core.ops.split_subject): a heading is no part of its
own, and a part that does not say what the note is about gets its subject back."""

from __future__ import annotations

import pytest

from core.model.records import Memory, MemoryMetadata
from core.ops.split import suggest_split, split_reasons
from core.ops.split_subject import headed_sections, is_heading_line, lead_in, with_subject


def _parts(content: str, tags: tuple[str, ...] = ()) -> list[str]:
    memory = Memory(id="m-heading", content=content, meta=MemoryMetadata(tags=list(tags)))
    return [p.content for p in suggest_split(memory)]


@pytest.mark.parametrize("content", [
    "Trip notes for Berlin.\n\nThe hotel is near Alexanderplatz.\n\nThe museum pass costs 29 euros.",
    "Trip notes for Berlin. The hotel is near Alexanderplatz. The museum pass costs 29 euros.",
    "Trip notes for Berlin\nThe hotel is near Alexanderplatz.\n\nThe museum pass costs 29 euros.",
    "# Trip notes for Berlin\n\nThe hotel is near Alexanderplatz.\n\nThe museum pass costs 29 euros.",
])
def test_a_heading_is_no_part_and_each_part_keeps_its_subject(content: str) -> None:
    assert _parts(content) == ["Trip notes for Berlin: The hotel is near Alexanderplatz.",
                               "Trip notes for Berlin: The museum pass costs 29 euros."]


def test_a_part_that_names_the_subject_is_left_as_written() -> None:
    assert _parts("Berlin trip:\n\nThe hotel is near Alexanderplatz.\n\nBook the train to "
                  "Berlin early.") == ["Berlin trip: The hotel is near Alexanderplatz.",
                                       "Book the train to Berlin early."]


def test_a_heading_over_one_idea_leaves_the_note_whole() -> None:
    note = "Trip notes for Berlin.\n\nThe hotel is near Alexanderplatz."
    assert _parts(note) == [note]


def test_each_section_carries_its_own_heading() -> None:
    assert _parts("# Berlin\nThe hotel is near Alexanderplatz.\n\n# Lisbon\nThe hotel is in "
                  "Baixa.") == ["Berlin: The hotel is near Alexanderplatz.",
                                "Lisbon: The hotel is in Baixa."]


def test_a_lead_in_is_carried_into_the_parts_after_the_first() -> None:
    parts = _parts("Lisbon trip planning: the conference hotel is in Baixa.\n\nThe talk slides "
                   "must be exported to PDF as a backup.")
    assert parts == ["Lisbon trip planning: the conference hotel is in Baixa.",
                     "Lisbon trip planning: The talk slides must be exported to PDF as a backup."]


@pytest.mark.parametrize("line, after", [
    ("Python uses indentation.", "It is readable."),
    ("First line of a note", "wrapped by hand."),
    ("The hotel is near the station", "Book early."),
    ("Book early.", "The hotel is near the station."),
])
def test_a_sentence_or_a_wrapped_line_is_no_heading(line: str, after: str) -> None:
    assert not is_heading_line(line, after)
    assert headed_sections(f"{line}\n{after}") == [(None, f"{line}\n{after}")]


def test_a_lead_in_needs_a_short_verbless_phrase() -> None:
    assert lead_in("Home office setup: the arm wobbles.") == "Home office setup"
    assert lead_in("The deploy is at 02:00 on Fridays.") is None
    assert lead_in("Note: the deploy moved.") == "Note"
    assert with_subject("The deploy moved.", "Note") == "The deploy moved."  # says nothing


def test_a_heading_paragraph_is_not_counted_as_an_idea() -> None:
    note = "Trip notes for Berlin.\n\n" + "The hotel is near Alexanderplatz and " * 15 + "fine."
    assert split_reasons(Memory(id="m", content=note)) == []


def test_each_part_gets_the_tags_its_own_words_mention_plurals_aside() -> None:
    memory = Memory(id="m", content="Ana, the neighbour downstairs, waters the plants.\n\n"
                    "The bike needs new brake pads.", meta=MemoryMetadata(tags=["neighbours", "bikes"]))
    assert [p.tags for p in suggest_split(memory)] == [["neighbours"], ["bikes"]]


def test_a_tag_of_the_carried_subject_goes_to_each_part_and_claims_nothing() -> None:
    memory = Memory(id="m", content="Work notes.\n\nThe laptop is a MacBook.\n\nPayroll runs on "
                    "the 25th.\n\nThe desk plant needs water.",
                    meta=MemoryMetadata(tags=["work", "laptop", "payroll", "office"]))
    assert [p.tags for p in suggest_split(memory)] == [
        ["work", "laptop"], ["work", "payroll"], ["work", "office"]]


def test_a_heading_with_nothing_under_it_stays_as_written() -> None:
    assert headed_sections("# Berlin\nThe hotel is near Alexanderplatz.\n\n# Lisbon") == [
        ("Berlin", "The hotel is near Alexanderplatz."), (None, "# Lisbon")]


def test_a_memorys_sentence_opened_by_its_verb_is_no_heading() -> None:
    text = ("Wants end-to-end encryption before sharing notes with anyone. The keys must never "
            "leave the person's own devices, and a server only ever sees encrypted notes.")
    assert headed_sections(text) == [(None, text)]
    parts = [p.content for p in suggest_split(Memory(id="m", content=text))]
    assert parts[-1] == "A server only ever sees encrypted notes."  # no title carried into it
