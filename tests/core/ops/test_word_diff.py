"""core.ops.word_diff and core.ops.version_diff: exact word diffs of two texts, and the fields
that changed between two versions of a memory."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core import Memory, MemoryMetadata, MemoryStatus
from core.ops.version_diff import version_changes
from core.ops.word_diff import Piece, changed, new_text, old_text, tokens, word_diff


def test_a_changed_word_is_one_deletion_and_one_insertion():
    pieces = word_diff("Never deploy on Fridays.", "Never deploy on Mondays.")
    assert pieces == [Piece("same", "Never deploy on "), Piece("delete", "Fridays"),
                      Piece("insert", "Mondays"), Piece("same", ".")]


def test_words_added_and_removed_keep_the_rest_whole():
    pieces = word_diff("the rota is thin", "the on-call rota is very thin")
    assert pieces == [Piece("same", "the"), Piece("insert", " on-call"),
                      Piece("same", " rota is "), Piece("insert", "very "), Piece("same", "thin")]


def test_punctuation_and_whitespace_are_their_own_tokens_except_inside_a_word():
    assert tokens("a,  b\n\nc") == ["a", ",", "  ", "b", "\n\n", "c"]
    assert tokens("Python 3.11, on-call (don't)") == [
        "Python", " ", "3.11", ",", " ", "on-call", " ", "(", "don't", ")"]
    pieces = word_diff("pytest,", "pytest.")
    assert pieces == [Piece("same", "pytest"), Piece("delete", ","), Piece("insert", ".")]


def test_a_version_number_changes_as_one_word():
    pieces = word_diff("on Python 3.11 and 3.12.", "on Python 3.12 only.")
    assert pieces == [Piece("same", "on Python "), Piece("delete", "3.11"),
                      Piece("insert", "3.12"), Piece("same", " "), Piece("delete", "and 3.12"),
                      Piece("insert", "only"), Piece("same", ".")]


def test_equal_texts_have_no_change_and_empty_sides_are_all_insert_or_delete():
    assert not changed(word_diff("same text", "same text"))
    assert word_diff("", "") == []
    assert word_diff("", "new words") == [Piece("insert", "new words")]
    assert word_diff("old words", "") == [Piece("delete", "old words")]


def test_a_common_word_is_not_junk():
    """difflib's autojunk would treat a word present in over 1% of a long text as junk and
    report it changed: it is off."""
    old = " ".join(["the"] * 300 + ["cat"])
    new = " ".join(["the"] * 300 + ["dog"])
    pieces = word_diff(old, new)
    assert [p for p in pieces if p.kind != "same"] == [Piece("delete", "cat"),
                                                        Piece("insert", "dog")]


texts = st.text(alphabet=st.sampled_from(list("ab c,.\n\t\x1bé_-")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_the_pieces_rebuild_both_texts_exactly(old, new):
    pieces = word_diff(old, new)
    assert old_text(pieces) == old
    assert new_text(pieces) == new
    assert all(p.text for p in pieces)
    assert all(a.kind != b.kind for a, b in zip(pieces, pieces[1:]))  # neighbours joined
    assert changed(pieces) == (old != new)


def _memory(**update) -> Memory:
    base = Memory(id="m1", content="The staging database is Postgres 16.", gist=None,
                  meta=MemoryMetadata(tags=["ci"], source="chat"), created_at=100,
                  last_used=200, use_count=1, strength=1.0)
    return base.model_copy(update=update)


def test_version_changes_lists_only_what_changed():
    old = _memory()
    new = _memory(content="The staging database is Postgres 17.", gist="Staging: PG 17",
                  status=MemoryStatus.ARCHIVED,
                  meta=MemoryMetadata(tags=["ci", "db"], source="chat"))
    changes = {c.name: c for c in version_changes(old, new)}
    assert list(changes) == ["content", "gist", "tags", "status"]
    content = changes["content"]
    assert [p.text for p in content.pieces if p.kind != "same"] == ["16", "17"]
    assert changes["gist"].old == "" and changes["gist"].new == "Staging: PG 17"
    assert changes["tags"].new == "ci, db"
    assert (changes["status"].old, changes["status"].new, changes["status"].pieces) == \
        ("active", "archived", [])


def test_version_changes_against_nothing_is_every_field_new():
    changes = version_changes(None, _memory())
    names = [c.name for c in changes]
    assert names[:2] == ["content", "tags"] and "status" in names
    assert all(p.kind == "insert" for c in changes for p in c.pieces)
    assert version_changes(_memory(), _memory()) == []
