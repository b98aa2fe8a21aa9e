"""Where the files $EDITOR edits live (core/io/edit_files.py): private, in the git directory,
named after their memory; `purge` removes those of the memories it purges."""

from __future__ import annotations

import stat

from core.io.edit_files import edited_memory, new_edit_file, read_edit_file, remove_edit_file
from core.io.edit_text import parse
from core.secrets.purge import plan_purge, purge


def test_an_edit_file_is_private_and_reads_back(vault):
    m = vault.add("text with a \x1b control", tags=["a"])
    path = new_edit_file(vault, m)
    assert path.parent == vault.journal.state_dir / "edits"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.name.startswith(m.id[:8]) and edited_memory(path) == m.id
    assert parse(read_edit_file(path), m).content == m.content
    second = new_edit_file(vault, m)
    assert second != path
    remove_edit_file(path)
    remove_edit_file(path)  # already gone: fine
    assert not path.exists() and second.exists()


def test_purge_removes_the_kept_edit_files_of_what_it_purges(vault):
    gone, kept = vault.add("purge me"), vault.add("keep me")
    a, b = new_edit_file(vault, gone), new_edit_file(vault, kept)
    purge(vault, plan_purge(vault, [gone.id]))
    assert not a.exists() and b.exists()
