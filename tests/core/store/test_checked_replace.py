"""A checked replace writes over a file only while it holds what the writer read: a save made
since is kept, with and without the system's exchanging rename."""

from __future__ import annotations

import os

import pytest

from core.store import checked_replace
from core.store.checked_replace import ChangedOnDiskError, file_state, replace_checked


@pytest.fixture(params=["exchange", "rename-aside"])
def renames(request, monkeypatch):
    """Both ways: ``renameat2`` (Linux), and without it (the file renamed aside, then linked)."""
    if request.param == "rename-aside":
        monkeypatch.setattr(checked_replace, "_renameat2", [None])
    return request.param


def _save(path, text: str) -> None:
    """A person's editor: a temp file renamed into place."""
    tmp = path.with_name(".editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _left_over(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_file_still_as_read_is_replaced(tmp_path, renames):
    path = tmp_path / "m.json"
    path.write_text("old")
    key = replace_checked(path, b"new", file_state(path))
    assert path.read_bytes() == b"new"
    assert key == (os.stat(path).st_mtime_ns, 3, os.stat(path).st_ino)
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.stat(path).st_nlink == 1
    assert _left_over(tmp_path) == []


def test_a_save_made_after_the_read_is_kept(tmp_path, renames):
    path = tmp_path / "m.json"
    path.write_text("old")
    before = file_state(path)
    _save(path, "the person's")
    with pytest.raises(ChangedOnDiskError):
        replace_checked(path, b"memvault's", before)
    assert path.read_text() == "the person's"
    assert _left_over(tmp_path) == []


def test_a_save_landing_right_before_the_swap_is_put_back(tmp_path, monkeypatch):
    """The person's save lands after every check a writer could make before renaming: the
    exchange displaces it, and it is exchanged back."""
    path = tmp_path / "m.json"
    path.write_text("old")
    before = file_state(path)
    real = checked_replace._rename2
    saves = []

    def rename2(src, dst, flags):
        if not saves:
            saves.append(1)
            _save(path, "the person's")
        return real(src, dst, flags)

    monkeypatch.setattr(checked_replace, "_rename2", rename2)
    with pytest.raises(ChangedOnDiskError):
        replace_checked(path, b"memvault's", before)
    assert path.read_text() == "the person's"
    assert _left_over(tmp_path) == []


def test_a_second_save_during_the_give_back_is_the_one_kept(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    path.write_text("old")
    before = file_state(path)
    real_state = checked_replace.file_state
    calls = []

    def state(name):
        calls.append(name)
        if len(calls) == 1:  # right after the exchange: a save lands over memvault's file
            _save(path, "their second save")
        return real_state(name)

    _save(path, "their first save")
    monkeypatch.setattr(checked_replace, "file_state", state)
    with pytest.raises(ChangedOnDiskError):
        replace_checked(path, b"memvault's", before)
    assert path.read_text() == "their second save"
    assert _left_over(tmp_path) == []


def test_a_new_file_never_replaces_one_made_meanwhile(tmp_path, renames):
    path = tmp_path / "m.json"
    before = file_state(path)
    assert before == ("absent", None)
    path.write_text("the person's")
    with pytest.raises(ChangedOnDiskError):
        replace_checked(path, b"memvault's", before)
    assert path.read_text() == "the person's"
    replace_checked(tmp_path / "new.json", b"memvault's", ("absent", None))
    assert (tmp_path / "new.json").read_bytes() == b"memvault's"
    assert _left_over(tmp_path) == []


def test_a_removal_keeps_a_file_saved_since(tmp_path, renames):
    path = tmp_path / "m.json"
    path.write_text("old")
    before = file_state(path)
    _save(path, "the person's")
    with pytest.raises(ChangedOnDiskError):
        replace_checked(path, None, before)
    assert path.read_text() == "the person's"
    replace_checked(path, None, file_state(path))
    assert not path.exists()
    assert _left_over(tmp_path) == []
