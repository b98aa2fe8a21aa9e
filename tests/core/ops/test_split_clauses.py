"""The split draft's cut of a sentence that holds two facts (core/ops/split_clauses.py): two
clauses with a subject each are cut apart; a list, a shared subject or a clause that points back
stays whole (the draft itself: tests/core/ops/test_split.py)."""

from __future__ import annotations

import pytest

from core.ops.split_clauses import two_facts


@pytest.mark.parametrize("sentence, parts", [
    ("The chair is fine but the desk is too low.", ["The chair is fine.", "The desk is too low."]),
    ("I work from home on Fridays, and my manager prefers written updates!",
     ["I work from home on Fridays!", "My manager prefers written updates!"]),
    ("Ana waters the tomatoes in July and Mr Costa clears the drain.",
     ["Ana waters the tomatoes in July.", "Mr Costa clears the drain."]),
    ("I speak Portuguese at home whereas my partner speaks French.",
     ["I speak Portuguese at home.", "My partner speaks French."]),
    ("He plays as a striker and he has been capped once by England.",
     ["He plays as a striker.", "He has been capped once by England."]),
])
def test_two_clauses_each_with_its_subject_are_cut_apart(sentence, parts):
    assert two_facts(sentence) == parts


@pytest.mark.parametrize("sentence", [
    "Likes salt and pepper on scrambled eggs.",  # a pair of things
    "The hotel has a pool, a gym and a rooftop bar.",  # a list
    "Moved to Lisbon in 2021 and loves the light there.",  # one subject for both verbs
    "Alice leads the platform team and she prefers decisions written down.",  # she: Alice
    "Carol owns the billing service and Dave reviews every change to it.",  # it: the service
    "Both the API monorepo and the infrastructure repository need one approval.",
    "Likes the iOS and Android apps of the bank equally.",  # a pair of names
    "The desk is too low, so a standing desk is on the wish list.",  # a reason and its fact
    'Said "the kettle is broken and the toaster works" twice.',  # inside quotes
    "I like tea and the cake she bakes.",  # an object, not a subject
])
def test_a_sentence_of_one_fact_stays_whole(sentence):
    assert two_facts(sentence) == [sentence]
