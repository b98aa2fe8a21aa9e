"""The last check on a gist: a number, path or identifier it says must be in the content."""

from __future__ import annotations

from core.gist.guards import is_corrupted


def test_a_number_the_content_does_not_say_is_caught():
    content = "The cache holds 512 entries and is flushed by flush_cache() every night."
    assert is_corrupted("The cache holds 256 entries.", content) is True
    assert is_corrupted("flush_all() runs nightly.", content) is True


def test_what_the_content_says_passes():
    content = "The cache holds 512 entries and is flushed by flush_cache() every night."
    assert is_corrupted("The cache holds 512 entries, flushed by flush_cache() nightly.",
                        content) is False
    assert is_corrupted("A cache, flushed every night.", content) is False
