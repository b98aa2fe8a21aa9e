"""memvault's rules for reading a message (tui/mcp/conversation.py)."""

from __future__ import annotations

import pytest

from tui.mcp.conversation import save_signals


@pytest.mark.parametrize("message", [
    "The user prefers dark mode in every editor and terminal",
    "Prefers pytest with plain assert statements over unittest",
    "Her preferred shell is zsh",
    "His favourite editor is Helix",
    "Likes reviews within a day",
])
def test_a_text_that_says_prefers_is_a_preference(message):
    """Issue 41: before, only first-person phrases ("I prefer") counted."""
    assert "preference" in save_signals(message).scores


def test_like_as_a_preposition_is_no_preference():
    assert "preference" not in save_signals("Tools like pytest run the suite").scores
