"""tui/text.py's labels of operations (the undo notices and the undo list): a commit subject made
by core (``op_message``) read back as ``verb of <id>`` or ``verb of N memories (<ids>)``."""

from __future__ import annotations

from tui.text import operation_label, operation_parts, preview, size_text


def test_one_memory_many_memories_and_other_subjects():
    assert operation_label("archive: 3f2a1b2c Never deploy on Fridays") == "archive of 3f2a1b2c"
    assert operation_parts("tag: 2 memories (3f2a1b2c, 1a2b3c4d) (+work)") == (
        "tag of 2 memories (3f2a1b2c, 1a2b3c4d)", "(+work)")
    assert operation_parts("archive: 10 memories (3f2a1b2c, +9)") == (
        "archive of 10 memories (3f2a1b2c, +9)", "")
    assert operation_label("gc: prune 2 memories below 0.05") == "gc: prune 2 memories below 0.05"
    assert operation_label("external: 1 file changed outside memvault") == \
        "external: 1 file changed outside memvault"
    assert operation_label("no verb here") == "no verb here"


def test_a_redo_is_named_by_its_operation():
    assert operation_label("redo: archive: 3f2a1b2c x") == "archive of 3f2a1b2c"
    assert operation_label("redo: redo: tag: 3f2a1b2c x (+a)") == "tag of 3f2a1b2c"


def test_control_characters_never_come_through():
    label, words = operation_parts("delete: 3f2a1b2c \x1b[31mred\x07")
    assert label == "delete of 3f2a1b2c" and "\x1b" not in words and "\x07" not in words
    assert "\x1b" not in operation_label("\x1b]0;title\x07: x")


def test_a_long_text_is_previewed_with_its_size():
    assert [size_text(n) for n in (980, 9_800, 700_000, 999_999, 2_666_111)] == \
        ["980 B", "9.8 KB", "700 KB", "1.0 MB", "2.7 MB"]
    assert preview("short", 10) == "short"
    text = "word " * 1000
    assert preview(text, 100) == "word " * 19 + "word… (5.0 KB)"
    assert preview("x" * 5000, 100) == "x" * 100 + "… (5.0 KB)"
    assert preview("é" * 600, 100) == "é" * 100 + "… (1.2 KB)"
