"""A gist keeps what its note is about: the instruction, not the circumstance or the aside."""

from __future__ import annotations

from core.gist import generate_gist
from gist_corpus_support import dropped_facts

RULE = (
    "Wants links to documentation when an API is mentioned. Stated at the start of our first "
    "session, as one of a few ground rules for working together. A correction after an earlier "
    "answer ignored it, so it should be applied every time without exception."
)
DRAIN = (
    "The building manager, Mr Costa, wants the balcony drain cleared before the first storms in "
    "October, or the rain water runs into the flat below and the ceiling there stains."
)


def test_the_rule_survives_and_the_circumstance_goes() -> None:
    gist = generate_gist(RULE, "moderate", ["assistant", "meta"])
    assert gist is not None
    assert "applied every time without exception" in gist
    assert "Stated at the start" not in gist
    assert gist.startswith("Wants links to documentation when an API is mentioned.")


def test_a_drain_note_keeps_the_instruction_not_the_aside() -> None:
    for entities in ((), ("Mr Costa",)):
        gist = generate_gist(DRAIN, "moderate", ["building"], entities)
        assert gist == ("The building manager, Mr Costa, wants the balcony drain cleared before "
                        "the first storms in October.")
        assert dropped_facts(gist, DRAIN) == []


def test_the_clause_with_the_verb_after_a_short_subject_never_goes() -> None:
    from core.gist.clauses import clause_candidates

    spans = [DRAIN[s:e] for s, e in clause_candidates(DRAIN)]
    assert spans == [", or the rain water runs into the flat below and the ceiling there stains"]
    # a clause that opens with "and" is a clause of its own, even after short ones
    text = ("Sam prefers short pull requests, ideally under 300 changed lines, and reviews them "
            "in the morning before standup.")
    assert [text[s:e] for s, e in clause_candidates(text)] == [
        ", and reviews them in the morning before standup"]


def test_a_circumstance_weighs_less_than_a_fact_however_placed() -> None:
    # the circumstance comes last here: position does not save it, nor sink the fact before it
    text = (
        "Prefers the 24-hour clock and ISO dates. A correction after an earlier answer ignored "
        "it, so it should be applied every time without exception. Stated at the start of our "
        "first session, as one of a few ground rules for working together."
    )
    gist = generate_gist(text, "moderate")
    assert gist is not None and "without exception" in gist and "Stated" not in gist


def test_a_clause_that_another_restricts_stays_with_it() -> None:
    # cutting ", and 'gunzip -c' writes to stdout" left ", never to a file ..." on the wrong clause
    text = ("The 'gzip' tool reads files ending in '.gz' and writes files of up to 4 GiB; it does "
            "not keep the original unless '-k' is given, and 'gunzip -c' writes to stdout, never "
            "to a file named in '$GZIP' or in '~/.gziprc'.")
    gist = generate_gist(text, "moderate")
    assert gist is None or "'gunzip -c' writes to stdout, never" in gist
    # "unless X, so that Y" lost its main clause: the gist said something else
    text = ("Note that unless a minimum field width is defined, the field width will always be "
            "the same size as the data to fill it, so that the alignment option has no meaning "
            "in this case.")
    gist = generate_gist(text, "moderate")
    assert gist is None or "unless a minimum field width is defined, so that" not in gist
