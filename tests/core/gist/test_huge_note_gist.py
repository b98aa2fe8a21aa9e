"""A huge note's gist: the pipeline reads only its start (``core.gist.levels.read_part``), so
the gist of a 2.6 MB note costs what a 20 KB note's does and stays short; an ordinary note is
read whole, as before. (Speed is measured in ``bench/huge_note.py``, never timed here.)"""

from __future__ import annotations

from core.gist import generate_gist
from core.gist.levels import READ_CHARS, read_part

PARAGRAPH = ("The deploy pipeline runs on Fridays after the review. Alice approves every "
             "release to production, and the rollback script lives in ops/rollback.sh. "
             "Nobody merges without a green build on the main branch.\n\n")


def numbered(size: int) -> str:
    """About ``size`` characters of paragraphs, each naming its own release (no two alike)."""
    count = size // (len(PARAGRAPH) + 12)
    return "".join(f"Release {n} is out. {PARAGRAPH}" for n in range(count))


def test_a_huge_note_gist_is_made_from_its_start_only():
    huge = numbered(400_000)
    gist = generate_gist(huge)
    assert gist is not None
    assert len(gist) < READ_CHARS  # the old pipeline's gist was most of the 400 KB note
    assert gist == generate_gist(read_part(huge))
    assert gist.startswith("Release 0 is out.")


def test_read_part_cuts_at_the_last_paragraph_break_before_the_limit():
    huge = numbered(3 * READ_CHARS)
    part = read_part(huge)
    assert len(part) <= READ_CHARS and huge.startswith(part)
    assert part.endswith("main branch.")  # a whole paragraph, not a sentence cut in half
    assert len(part) > READ_CHARS - len(PARAGRAPH)


def test_read_part_without_breaks_cuts_at_a_sentence_then_a_word_then_the_limit():
    sentences = "Word after word in one long paragraph. " * (2 * READ_CHARS // 39)
    assert read_part(sentences).endswith("paragraph.")
    words = "word " * (2 * READ_CHARS // 5)
    assert read_part(words).endswith("word") and len(read_part(words)) <= READ_CHARS
    solid = "x" * (2 * READ_CHARS)
    assert read_part(solid) == "x" * READ_CHARS


def test_an_ordinary_note_is_read_whole():
    note = PARAGRAPH * 3
    assert read_part(note) is note
    edge = "w " * (READ_CHARS // 2)
    assert read_part(edge) is edge


def test_a_huge_note_added_to_a_vault_gets_the_short_gist(vault):
    """``Vault.add``, which ``memvault add``, MCP ``save_memory`` and the app's add all go
    through: the gist of a 400 KB note is that of its start (it was 38 KB of it)."""
    huge = numbered(400_000)
    memory = vault.add(huge)
    assert memory.content == huge  # stored byte-exact, whole
    assert memory.gist == generate_gist(read_part(huge)) and len(memory.gist) < READ_CHARS
