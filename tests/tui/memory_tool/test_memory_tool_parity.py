"""The vault's memory tool answers as the SDK's own backend (``BetaLocalFilesystemMemoryTool``,
files in ``tmp_path``) does: the same commands through the SDK's ``execute`` dispatch, the same
answers and the same ToolError messages, word for word. Two things differ by design: a
folder's size (one on disk is its inode's 4.0K, a virtual one its files' bytes), masked here;
and a folder left empty, which stays on disk but is gone from the vault (a folder is its files'
path segments), so the test removes those from disk after each command."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from anthropic.lib.tools._beta_builtin_memory_tool import BetaLocalFilesystemMemoryTool
from memory_tool_support import answer

from tui.memory_tool import VaultMemoryTool

#: a listing's line of a folder: its size, a tab, the folder's path (ending in /, or the folder
#: listed, on the line after the header)
_FOLDER_LINE = re.compile(r"^[0-9.]+[BKMG]\t(/memories\S*/)$", re.MULTILINE)
_LISTED = re.compile(r"(excluding hidden items:\n)[0-9.]+[BKMG]\t")

NOTES = "Likes coffee\nblack, no sugar\nLikes tea too\n"
REPEATS = "tea at 9\ncoffee at 10\ntea at 4\n"

#: (command, fields): every answer and every refusal the SDK's backend gives, in one story
SCRIPT: list[tuple[str, dict[str, object]]] = [
    ("view", {"path": "/memories"}),
    ("create", {"path": "/memories/notes/coffee.md", "file_text": NOTES}),
    ("create", {"path": "/memories/notes/coffee.md", "file_text": "again"}),
    ("create", {"path": "/memories/notes/deep/er/day.md", "file_text": REPEATS}),
    ("create", {"path": "/memories/.hidden.md", "file_text": "not listed"}),
    ("create", {"path": "/memories/crlf.txt", "file_text": "one\r\ntwo\r\n"}),
    ("create", {"path": "/memories/x/./y/../z.md", "file_text": "settled in the text"}),
    ("view", {"path": "/memories"}),
    ("view", {"path": "/memories/notes"}),
    ("view", {"path": "/memories/notes/coffee.md"}),
    ("view", {"path": "/memories/notes/coffee.md", "view_range": [2, -1]}),
    ("view", {"path": "/memories/notes/coffee.md", "view_range": [0, 1]}),
    ("view", {"path": "/memories/notes/coffee.md", "view_range": [3, 9]}),
    ("view", {"path": "/memories/x/z.md"}),
    ("view", {"path": "/memories/nowhere.md"}),
    ("view", {"path": "/etc/passwd"}),
    ("view", {"path": "/memories/../secrets"}),
    ("view", {"path": "memories/notes"}),
    ("str_replace", {"path": "/memories/notes/coffee.md", "old_str": "milk", "new_str": "x"}),
    ("str_replace", {"path": "/memories/notes/coffee.md", "old_str": "Likes", "new_str": "x"}),
    ("str_replace", {"path": "/memories/notes/deep/er/day.md", "old_str": "tea", "new_str": "x"}),
    ("str_replace", {"path": "/memories/notes/coffee.md", "old_str": "black", "new_str": "white"}),
    ("str_replace", {"path": "/memories/notes", "old_str": "a", "new_str": "b"}),
    ("str_replace", {"path": "/memories/gone.md", "old_str": "a", "new_str": "b"}),
    ("str_replace", {"path": "/tmp/x", "old_str": "a", "new_str": "b"}),
    ("insert", {"path": "/memories/notes/coffee.md", "insert_line": 0, "insert_text": "# Drinks\n"}),
    ("insert", {"path": "/memories/notes/coffee.md", "insert_line": 4, "insert_text": "the end"}),
    ("insert", {"path": "/memories/notes/coffee.md", "insert_line": 9, "insert_text": "past"}),
    ("insert", {"path": "/memories/notes/coffee.md", "insert_line": -1, "insert_text": "before"}),
    ("insert", {"path": "/memories/crlf.txt", "insert_line": 1, "insert_text": "middle"}),
    ("insert", {"path": "/memories/notes", "insert_line": 0, "insert_text": "x"}),
    ("insert", {"path": "/memories/gone.md", "insert_line": 0, "insert_text": "x"}),
    ("view", {"path": "/memories/notes/coffee.md"}),
    ("view", {"path": "/memories/crlf.txt"}),
    ("rename", {"old_path": "/memories/notes/coffee.md", "new_path": "/memories/drinks/coffee.md"}),
    ("rename", {"old_path": "/memories/drinks/coffee.md", "new_path": "/memories/crlf.txt"}),
    ("rename", {"old_path": "/memories/gone.md", "new_path": "/memories/here.md"}),
    ("rename", {"old_path": "/memories", "new_path": "/memories/all"}),
    ("rename", {"old_path": "/memories/notes", "new_path": "/memories/archive/notes"}),
    ("rename", {"old_path": "/memories/crlf.txt", "new_path": "/elsewhere/crlf.txt"}),
    ("view", {"path": "/memories"}),
    ("delete", {"path": "/memories"}),
    ("delete", {"path": "/memories/gone.md"}),
    ("delete", {"path": "/memories/drinks/coffee.md"}),
    ("delete", {"path": "/memories/archive"}),
    ("delete", {"path": "/outside"}),
    ("view", {"path": "/memories"}),
    ("view", {"path": "/memories/archive/notes/deep/er/day.md"}),
]


def _masked(text: str) -> str:
    text = _LISTED.sub(lambda m: f"{m.group(1)}<size>\t", text)
    return _FOLDER_LINE.sub(lambda m: f"<size>\t{m.group(1)}", text)


def _without_empty_folders(root: Path) -> None:
    for here, folders, files in os.walk(root, topdown=False):
        if Path(here) != root and not os.listdir(here):
            os.rmdir(here)


def test_every_answer_and_refusal_is_the_sdk_backends_own(tmp_path, vault):
    on_disk = BetaLocalFilesystemMemoryTool(str(tmp_path / "fs"))
    on_vault = VaultMemoryTool(vault)
    for name, fields in SCRIPT:
        expected = _masked(answer(on_disk, name, **fields))
        _without_empty_folders(on_disk.memory_root)
        assert _masked(answer(on_vault, name, **fields)) == expected, (name, fields)


@pytest.mark.parametrize("size", [0, 1, 1023, 1024, 1536, 10 * 1024 * 1024 + 1, 5 * 1024**3])
def test_sizes_are_written_as_the_sdk_writes_them(size):
    from anthropic.lib.tools._beta_builtin_memory_tool import _format_file_size

    from tui.memory_tool.answers import file_size

    assert file_size(size) == _format_file_size(size)
