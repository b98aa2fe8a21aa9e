"""core.store.files: removing many files at once (remove_many)."""

from __future__ import annotations

import os

import pytest

from core.store.files import REMOVERS, UnsafeFolderError, remove_many


def _files(tmp_path, n, folders=7):
    paths = []
    for i in range(n):
        folder = tmp_path / f"f{i % folders}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{i}.json"
        path.write_bytes(b"{}")
        paths.append(path)
    return paths


@pytest.mark.parametrize("n", [3, 10 * REMOVERS])  # one by one, and by the threads
def test_remove_many_removes_every_file_and_absent_ones_are_fine(tmp_path, n):
    paths = _files(tmp_path, n)
    keep = tmp_path / "f0" / "kept.json"
    keep.write_bytes(b"{}")
    paths[1].unlink()
    remove_many(paths)
    assert not any(p.exists() for p in paths)
    assert keep.exists()


@pytest.mark.parametrize("n", [5, 10 * REMOVERS])
def test_a_failure_before_a_path_removes_those_before_and_none_after(tmp_path, n):
    """As one by one: the crash tests strike at the k-th file."""
    paths = _files(tmp_path, n)
    calls = []
    strike = n - 2

    def before_each():
        calls.append(1)
        if len(calls) == strike:
            raise KeyboardInterrupt("struck")

    with pytest.raises(KeyboardInterrupt, match="struck"):
        remove_many(paths, before_each=before_each)
    assert [p.exists() for p in paths] == [False] * (strike - 1) + [True] * (n - strike + 1)
    assert len(calls) == strike


def test_a_folder_that_is_a_link_refuses_them_all_before_any_is_removed(tmp_path):
    paths = _files(tmp_path / "vault", 40)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "39.json").write_bytes(b"theirs")
    linked = tmp_path / "vault" / "f4"
    for p in linked.iterdir():
        p.unlink()
    linked.rmdir()
    os.symlink(outside, linked)
    with pytest.raises(UnsafeFolderError, match="symbolic link"):
        remove_many(paths + [linked / "39.json"])
    assert all(p.exists() for p in paths if p.parent != linked)
    assert (outside / "39.json").read_bytes() == b"theirs"
