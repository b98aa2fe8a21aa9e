"""The one-line words a report, a commit subject and a row show of a memory's text."""

from core.vault import first_words


def test_a_word_that_ends_where_the_mark_goes_is_kept_whole():
    assert first_words("alpha beta gamma delta", limit=11) == "alpha beta…"


def test_a_word_cut_by_the_limit_is_left_out():
    assert first_words("alpha betamax gamma", limit=10) == "alpha…"


def test_the_words_and_the_mark_fit_the_limit():
    text = "The balcony plants need water every second day in summer"
    assert all(len(first_words(text, limit=n)) <= n for n in range(2, 60))


def test_one_word_longer_than_the_limit_is_cut_inside():
    assert first_words("supercalifragilistic", limit=6) == "super…"


def test_a_short_text_is_whole_on_one_line():
    assert first_words("alpha\n  beta", limit=48) == "alpha beta"
