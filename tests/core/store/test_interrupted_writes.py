"""Ctrl+C in the middle of an atomic write (core.store.files): the temp file's name is known
before the file is made, so an interrupt that lands just after the ``open`` that made it
(Python raises KeyboardInterrupt when the call returns) leaves no ``.tmp-*`` behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.store.files import TEMP_PREFIX, write_atomic, write_atomic_many


def interrupt_after_making(monkeypatch, nth: int) -> None:
    """``os.open`` makes the ``nth`` temp file, then KeyboardInterrupt (as a Ctrl+C that
    arrived during the call)."""
    real = os.open
    made = []

    def fake(path, flags, mode=0o777, *args, **kwargs):
        fd = real(path, flags, mode, *args, **kwargs)
        if os.path.basename(os.fspath(path)).startswith(TEMP_PREFIX):
            made.append(path)
            if len(made) == nth:
                os.close(fd)
                raise KeyboardInterrupt
        return fd

    monkeypatch.setattr(os, "open", fake)


def temps_in(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob(f"{TEMP_PREFIX}*")]


def test_an_interrupt_while_many_files_are_written_leaves_no_temp_file(tmp_path, monkeypatch):
    folder = tmp_path / "memories"
    folder.mkdir()
    interrupt_after_making(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        write_atomic_many([(folder / f"{n}.json", b"{}") for n in range(5)])
    monkeypatch.undo()
    assert list(folder.iterdir()) == []


def test_an_interrupt_while_one_file_is_written_leaves_no_temp_file(tmp_path, monkeypatch):
    (tmp_path / "m.json").write_bytes(b"old")
    interrupt_after_making(monkeypatch, 1)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "m.json", b"new")
    monkeypatch.undo()
    assert temps_in(tmp_path) == [] and (tmp_path / "m.json").read_bytes() == b"old"
