"""The scanner's keyword search (core.secrets.keywords): the literal text a pattern's every
match holds, read from the pattern, and keywords found in a lower-cased copy of the text."""

from __future__ import annotations

import re

import pytest
from secrets_support import PLANTED

from core.secrets import scanner
from core.secrets.keywords import FoldedText, required_literals


@pytest.mark.parametrize("pattern, literals", [
    (r"abc[0-9]+defg", {"defg"}),
    (r"(?:foo|barbaz)\d", {"foo", "barbaz"}),
    (r"(?:foo|\d+)x", {"x"}),
    (r"AKIA[0-9A-Z]{16}", {"akia"}),
    (r"(?:xy)+z?", {"xy"}),
    (r"x?[a-z]+", None),
    (r"(?:ab)*", None),
    (r"(?i)(?:secret|token)[ :]", {"secret", "token"}),
])
def test_the_text_every_match_holds_is_read_from_the_pattern(pattern, literals):
    found = required_literals(re.compile(pattern))
    assert (set(found) if found is not None else None) == literals


def test_every_detector_match_in_the_planted_secrets_holds_one_of_its_literals():
    checked = 0
    for kind, pattern, literals in scanner._detectors()[0]:
        for _kind, text, _secret in PLANTED:
            for match in pattern.finditer(text):
                assert literals is None or any(lit in match.group().lower() for lit in literals)
                checked += 1
    assert checked >= 5


def test_keywords_are_found_in_any_case_overlapping_ones_too():
    folded = FoldedText("KeY keykey aaaa")
    assert folded.places("key") == [0, 4, 7]
    assert folded.places("aa") == [11, 12, 13]
    assert folded.places_of_any(["key", "aa"]) == [0, 4, 7, 11, 12, 13]


@pytest.mark.parametrize("odd", ["\u017f", "\u0131", "\u0130"], ids=["long-s", "dotless-i", "dotted-I"])
def test_a_text_with_a_letter_lower_does_not_fold_like_re_has_no_folded_copy(odd):
    assert FoldedText(f"{odd}ecret and key").fold is None
    assert FoldedText("plain \u212a text").fold == "plain k text"
