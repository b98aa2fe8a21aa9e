"""Parts of a split that repeat a memory the vault holds (core/ops/split_repeats.py): named with
``memvault add``'s check, never the memory being split or its own parts."""

from __future__ import annotations

from core.ops.split import execute_split, suggest_split
from core.ops.split_repeats import split_repeats

NOTE = "I moved to Lisbon in 2021 and my sister lives in Porto."


def test_a_drafted_part_that_repeats_a_memory_names_it(vault):
    sister = vault.add("My sister lives in Porto.")
    vault.add("The bike room code changed to 4711.")
    note = vault.add(NOTE)
    parts = suggest_split(note)
    found = split_repeats(vault, note.id, [(p.content, p.tags, p.entities) for p in parts])
    assert [[m.id for m, _ in f] for f in found] == [[], [sister.id]]
    assert found[1][0][1] >= 0.9  # the same words


def test_the_original_and_the_saved_parts_are_never_named(vault):
    note = vault.add(NOTE)
    result = execute_split(vault, note.id, ["I moved to Lisbon in 2021.",
                                            "My sister lives in Porto."])
    saved = tuple(m.id for m in result.parts)
    found = split_repeats(vault, note.id, [(m.content, [], []) for m in result.parts], saved)
    assert found == [[], []]
