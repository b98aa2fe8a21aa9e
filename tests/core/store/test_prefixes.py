"""core.store.prefixes: one rule for an id or its prefix, with refusals a person can act on."""

from __future__ import annotations

import pytest

from core import AmbiguousIdError, UnknownIdError
from core.store.prefixes import MIN_PREFIX, resolve_prefix

IDS = ["f8c10000-aaaa", "f8c90000-bbbb", "0123abcd-cccc"]


def test_an_exact_id_or_a_unique_prefix_names_one():
    assert resolve_prefix("0123abcd-cccc", IDS) == "0123abcd-cccc"
    assert resolve_prefix("f8c1", IDS) == "f8c10000-aaaa"


def test_a_short_prefix_says_how_long_and_how_many_start_with_it():
    with pytest.raises(UnknownIdError) as caught:
        resolve_prefix("f8c", IDS)
    assert str(caught.value) == (f"no memory with id 'f8c' (a prefix needs at least {MIN_PREFIX} "
                                 "characters; 2 memories start with it)")
    with pytest.raises(UnknownIdError, match=r"characters\)$"):
        resolve_prefix("zz", IDS)  # none starts with it: nothing more to say
    with pytest.raises(UnknownIdError, match="1 relation starts with it"):
        resolve_prefix("012", IDS, kind="relation")


def test_none_or_several_are_refused_by_name():
    with pytest.raises(UnknownIdError, match="no memory with id or prefix 'abcd' in the inbox"):
        resolve_prefix("abcd", IDS, where=" in the inbox")
    with pytest.raises(AmbiguousIdError) as caught:
        resolve_prefix("f8c1", ["f8c10000-aaaa", "f8c1ffff-dddd"])
    assert caught.value.candidates == ["f8c10000-aaaa", "f8c1ffff-dddd"]
