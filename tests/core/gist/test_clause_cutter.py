"""The clause cutter (core.gist.clause_cutter) on hand-written sentences: what it cuts, what it
never cuts, and how the sentence reads afterwards."""

from __future__ import annotations

import pytest

from core.gist import generate_gist
from core.gist.clause_cutter import Cut, apply_cuts, cut_candidates
from core.gist.clause_words import drops_number_or_negation, is_protected
from core.gist.masking import mask, unmask


def _cuts(sentence: str, entities: tuple[str, ...] = ()) -> dict[str, list[tuple[str, str]]]:
    """kind -> [(the span cut, the sentence after that one cut)], all unmasked."""
    table: list[str] = []
    masked = mask(sentence, table)
    assert masked is not None
    out: dict[str, list[tuple[str, str]]] = {}
    for cut in cut_candidates(masked, entities):
        span = unmask(masked[cut.start : cut.end], table)
        after = unmask(apply_cuts(masked, [cut]), table)
        out.setdefault(cut.kind, []).append((span, after))
    return out


def _afters(sentence: str, kind: str) -> list[str]:
    return [after for _span, after in _cuts(sentence).get(kind, [])]


def test_filler_and_hedges_go_but_not_after_a_negation() -> None:
    cuts = _cuts("The parser is very fast, and it is not really slow on the lexer either.")
    assert "The parser is fast, and it is not really slow on the lexer either." in [a for _, a in cuts["filler"]]
    assert all("really" in after for _, after in cuts["filler"])  # "not really" stays


def test_coordinated_adverbs_go_together_or_not_at_all() -> None:
    afters = _afters("The library lets programs quickly and easily find block devices by label.", "filler")
    assert not any("quickly and find" in a or "to and" in a or "and find" in a for a in afters)


def test_non_restrictive_relative_clause() -> None:
    assert _afters("The parser is fast, which is a pity for the old lexer team.", "relative") == [
        "The parser is fast."
    ]


def test_appositive_between_commas() -> None:
    assert "Nettle provides the algorithms for the application." in _afters(
        "Nettle, a low-level cryptographic library, provides the algorithms for the application.",
        "appositive",
    )


def test_opening_adverbial_goes_and_the_sentence_is_capitalised() -> None:
    assert _afters("For the time being, it handles trees and hashes well.", "intro") == [
        "It handles trees and hashes well."
    ]
    # a condition is never an aside
    assert "intro" not in _cuts("If the cache is cold, the first request takes longer than usual.")
    # never capitalise a name or an identifier that would then open the sentence
    assert "intro" not in _cuts("For the time being, libfoo handles trees and hashes well.")


def test_colon_elaboration() -> None:
    assert _afters(
        "This version of the driver provides two capabilities: it is capable of direct rendering.",
        "colon",
    ) == ["This version of the driver provides two capabilities."]


def test_list_trimmed_to_its_head_with_an_ellipsis() -> None:
    afters = _afters("It handles many useful things such as trees, hashes, lists, and strings.", "list")
    assert afters == ["It handles many useful things such as trees, hashes, ..."]
    # three items keep one head item
    assert _afters("The tool reads plain files, archives and pipes.", "list") == ["The tool reads plain files, ..."]


def test_trailing_example_phrase_stops_before_the_next_clause() -> None:
    assert "The tool supports many formats, and runs everywhere." in _afters(
        "The tool supports many formats, such as plain text and markup, and runs everywhere.", "tail"
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "The migration keeps 1,200 rows in the old table, which moves to the archive on 2024-05-14.",
        "The service does not retry, which keeps the queue short for the whole cluster.",
        "The data lives in /var/lib/app/data.db, which the backup job copies every night at once.",
        "The helper `load_config()` is slow, which is a pity for everyone who calls it often.",
        "See https://example.org/docs for details, which cover the setup for every platform we know.",
    ],
)
def test_never_cuts_a_number_path_identifier_url_or_negation(sentence: str) -> None:
    for kind, found in _cuts(sentence).items():
        for span, _after in found:
            assert not drops_number_or_negation(span), (kind, span)
            for fact in ("1,200", "2024-05-14", "not", "/var/lib/app/data.db", "load_config()", "https://example.org/docs"):
                assert fact not in span, (kind, span)


def test_is_protected() -> None:
    assert is_protected("zqxaxqz is the path")  # a masked number, path or identifier
    assert is_protected("in 3 ms")
    assert is_protected("which does not retry")
    assert is_protected("which won't retry")
    assert is_protected("unless asked")
    assert is_protected("for the billing team", entities=("billing team",))
    assert not is_protected("for the billing team")


def test_names_are_reported_so_the_pipeline_keeps_them() -> None:
    table: list[str] = []
    masked = mask("Alice moved the queue to the new cluster in March for the Berlin office.", table)
    assert masked is not None
    named = [c for c in cut_candidates(masked) if "March" in masked[c.start : c.end]]
    assert named and all("March" in c.names for c in named)


def test_gist_keeps_a_name_said_only_once() -> None:
    note = (
        "The ingestion service moved to a new queue with better batching support for the "
        "nightly jobs of the Berlin office, and the team is happy with the result so far. "
        "It handles the load well."
    )
    gist = generate_gist(note, "moderate")
    assert gist is not None and gist != note
    assert "Berlin" in gist


def test_apply_cuts_tidies_spaces_and_commas_and_skips_overlaps() -> None:
    text = "The tool, as you know, is fast , and small."
    cuts = [Cut(8, 22, "", "appositive"), Cut(10, 15, "", "filler")]
    assert apply_cuts(text, cuts) == "The tool is fast , and small."
    assert apply_cuts("A list of trees, hashes, lists and more.", [Cut(15, 40, ", ...", "list")]) == (
        "A list of trees, ..."
    )


def test_cuts_never_add_a_word() -> None:
    sentences = [
        "For the time being, it handles trees, hashes, lists, and strings with very little effort.",
        "Nettle, a low-level cryptographic library, simply provides algorithms for applications to use.",
        "The library is used by many programs, which depend on it for parsing command line options.",
    ]
    for sentence in sentences:
        words = {w.lower().strip(".,") for w in sentence.split()}
        for found in _cuts(sentence).values():
            for _span, after in found:
                for w in after.split():
                    assert w.lower().strip(".,") in words or w == "...", (w, after)


@pytest.mark.parametrize("sentence, kept", [
    ("Bob is the only one who knows the billing service well.", "the only one who knows"),
    ("Nobody who joined this year has access to the payroll system yet.", "Nobody who joined"),
    ("In the weekly one-to-one Alice asked that every decision of the platform team be written "
     "down in the tracker.", "asked that every decision"),
    ("The reviewer suggested that the migration runs in two steps over the weekend.",
     "suggested that the migration"),
])
def test_a_clause_the_sentence_needs_is_never_cut(sentence: str, kept: str) -> None:
    """The object of a verb of asking or saying, and the relative clause of a pronoun or of
    "the only one", are no restrictive tails (the demo's gists read "Bob is the only one." and
    "In the weekly one-to-one Alice asked, with a date and an owner.")."""
    assert all(kept in after for after in _afters(sentence, "restrictive"))
