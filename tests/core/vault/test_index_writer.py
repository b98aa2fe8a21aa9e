"""A first open (no derived index) reads each file once: the open index's rows are made from the
bytes the open read, never read again from git, and for many files they are written in a thread
while the vault is already usable (core.vault.index_writer); the rows are those a write from
git's blobs makes."""

from __future__ import annotations

import pytest

from core import Vault
from core.git.blobs import ObjectStore
from core.search.index import index_path
from core.search.indexed_files import IndexedFiles, blob_id
from core.vault import index_writer, indexed_open


def _drop_index(root) -> None:
    for leftover in index_path(root).parent.glob("index.sqlite*"):
        leftover.unlink()


def _rows(root) -> tuple[str | None, list]:
    files = IndexedFiles.for_root(root, ".")
    try:
        return files.commit(), sorted(files.rows())
    finally:
        files.close()


@pytest.fixture
def vault_root(tmp_path):
    vault = Vault.open(tmp_path / "v")
    made = [vault.add(f"note {i} about the garden", tags=["garden"]) for i in range(6)]
    vault.relate(made[0].id, made[1].id, "related")
    vault.close()
    return tmp_path / "v"


@pytest.mark.parametrize("background", [True, False])
def test_a_first_open_writes_the_rows_from_the_bytes_it_read(vault_root, monkeypatch,
                                                             background):
    Vault.open(vault_root).close()
    expected = _rows(vault_root)  # (written from git's blobs by the opens above)
    assert expected[0] is not None and len(expected[1]) == 7
    _drop_index(vault_root)

    def no_blobs(*args, **kwargs):
        raise AssertionError("a first open reads no blob from git")

    monkeypatch.setattr(indexed_open, "BACKGROUND_FROM", 1 if background else 10**9)
    monkeypatch.setattr(ObjectStore, "read_blobs", no_blobs)
    vault = Vault.open(vault_root)
    assert (vault.open_index.writer is not None) is background
    assert len(vault.memories) == 6  # usable at once
    vault.wait_for_open_index()
    assert _rows(vault_root) == expected
    vault.close()
    monkeypatch.undo()
    again = Vault.open(vault_root)
    assert again.state.opened_from_index and again.memories == vault.memories


def test_close_waits_for_the_rows(vault_root, monkeypatch):
    _drop_index(vault_root)
    monkeypatch.setattr(indexed_open, "BACKGROUND_FROM", 1)
    vault = Vault.open(vault_root)
    writer = vault.open_index.writer
    vault.close()
    assert writer is not None and writer.written is True
    assert _rows(vault_root)[0] == vault.head


def test_bytes_that_are_not_gits_blob_keep_no_row_body(tmp_path):
    sha = blob_id(b"what git holds\n")
    wanted = {"memories/a.json": (sha, "memory", "a"), "memories/b.json": (sha, "memory", "b")}
    writer = index_writer.OpenIndexWriter(
        tmp_path / "index.sqlite", ".", "0" * 40,
        {"memories/a.json": b"what git holds\n", "memories/b.json": b"edited since\n"},
        blob_id, lambda: (None, {}, wanted))
    writer.fill()
    assert writer.rows["memories/a.json"] == (sha, "memory", "a", b"what git holds\n")
    assert writer.rows["memories/b.json"] == (sha, "memory", "b", None)
