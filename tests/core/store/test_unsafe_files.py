"""Vault files memvault must not trust: symbolic links (never followed, never committed), files
hard-linked from outside, fifos, a record folder that is a link, a garbage ``.meta.json``
(quarantined, then replaced), outside edits that are not valid records (reported, never
committed), and records larger than the reader accepts (refused before anything is written)."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys

import pytest

from core import Memory, Relation, Vault, VaultError
from core.store.layout import (
    MAX_FILE_BYTES,
    RecordTooLargeError,
    RefusedFileError,
    UnsafeFolderError,
    read_vault_file,
)
from core.store.quarantine import quarantine
from core.vault import Plan


def _memory_json(memory_id: str, content: str = "hand written") -> bytes:
    return json.dumps({"id": memory_id, "content": content}).encode()


def _quarantined(vault: Vault) -> list:
    base = vault.journal.state_dir / "quarantine"
    return sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []


def _head_paths(git_tools, vault: Vault) -> dict[str, str]:
    return git_tools.head_tree(vault)


def _write_meta(vault: Vault, **changes) -> Plan:
    return vault.apply(lambda v: Plan("test: set meta", meta=changes))


# -- reading ---------------------------------------------------------------------------------
def test_read_vault_file_refuses_what_is_not_a_plain_file(tmp_path):
    regular = tmp_path / "ok.json"
    regular.write_bytes(b"{}")
    assert read_vault_file(regular)[0] == b"{}"
    outside = tmp_path / "outside.json"
    outside.write_bytes(b'{"secret": 1}')
    (tmp_path / "link.json").symlink_to(outside)
    os.link(outside, tmp_path / "hard.json")
    os.mkfifo(tmp_path / "fifo.json")  # opened without blocking: no writer needed
    (tmp_path / "big.json").write_bytes(b"x" * 11)
    cases = {"link.json": "symbolic link", "hard.json": "hard links",
             "fifo.json": "not a regular file"}
    for name, words in cases.items():
        with pytest.raises(RefusedFileError) as info:
            read_vault_file(tmp_path / name)
        assert words in info.value.reason
    with pytest.raises(RefusedFileError, match="larger than"):
        read_vault_file(tmp_path / "big.json", limit=10)
    with pytest.raises(FileNotFoundError):
        read_vault_file(tmp_path / "absent.json")


def test_symlinked_meta_is_never_read_or_committed(vault_path, tmp_path, git_tools):
    v = Vault.open(vault_path)
    v.add("x")
    v.close()
    outside = tmp_path / "outside.json"
    outside.write_bytes(json.dumps({"secret": "leaks on push", "storage_version": 2}).encode())
    meta = vault_path / ".meta.json"
    meta.unlink()
    meta.symlink_to(outside)

    v = Vault.open(vault_path)
    assert "secret" not in v.meta
    assert [p.path for p in v.report.refused_external] == [meta]
    assert meta.is_symlink()  # left as it is at open...
    mode = git_tools.run(vault_path, "ls-tree", "HEAD", ".meta.json").split()[0]
    assert mode == "100644"  # ...and not committed as a link

    _write_meta(v, last_gc_at=7)  # ...until memvault must write the metadata
    committed = json.loads(git_tools.run(vault_path, "show", "HEAD:.meta.json"))
    assert committed["last_gc_at"] == 7 and "secret" not in committed
    assert not meta.is_symlink() and "secret" not in meta.read_text()
    assert outside.read_bytes() == json.dumps(
        {"secret": "leaks on push", "storage_version": 2}).encode()
    copies = [p for p in _quarantined(v) if p.name == ".meta.json"]
    assert [c.read_bytes() for c in copies] == [str(outside).encode()]  # the link's text
    assert any(".meta.json" in n and "symbolic link" in n for n in v.notices)


def _garbage_meta(kind: str, meta, tmp_path) -> bytes:
    if kind == "invalid-json":
        meta.write_bytes(b"\xff not json")
    elif kind == "json-list":
        meta.write_bytes(b"[1, 2]")
    elif kind == "too-big":
        meta.write_bytes(b'{"pad": "' + b"x" * MAX_FILE_BYTES + b'"}')
    elif kind == "dangling-symlink":
        meta.unlink()
        meta.symlink_to(tmp_path / "nowhere.json")
        return str(tmp_path / "nowhere.json").encode()
    return meta.read_bytes()


@pytest.mark.parametrize("kind", ["invalid-json", "json-list", "too-big", "dangling-symlink"])
def test_garbage_meta_is_quarantined_before_it_is_replaced(vault_path, tmp_path, kind):
    v = Vault.open(vault_path)
    v.add("x")
    v.close()
    meta = vault_path / ".meta.json"
    kept = _garbage_meta(kind, meta, tmp_path)

    v = Vault.open(vault_path)  # (a dangling link counts as no metadata: replaced at open)
    assert v.meta == {} or kind == "dangling-symlink"
    _write_meta(v, last_gc_at=5)
    fresh = json.loads(meta.read_bytes())
    assert fresh["last_gc_at"] == 5 and fresh["storage_version"] == 2
    copies = [p for p in _quarantined(v) if p.name == ".meta.json"]
    assert len(copies) == 1 and copies[0].read_bytes() == kept
    reason = (copies[0].parent / "reason.txt").read_text()
    assert str(meta) in reason and "reason:" in reason
    assert stat.S_IMODE(copies[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(copies[0].parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((v.journal.state_dir / "quarantine").stat().st_mode) == 0o700
    assert len(v.notices) == 1 and ".meta.json" in v.notices[0]
    _write_meta(v, last_gc_at=6)  # a valid meta is not quarantined again
    assert len(_quarantined(v)) == 2 and len(v.notices) == 1


def test_quarantine_keeps_link_text_and_skips_fifos(tmp_path):
    state, root = tmp_path / "state", tmp_path / "root"
    (root / "memories").mkdir(parents=True)
    state.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"never copied")
    link = root / "memories" / "a.json"
    link.symlink_to(secret)
    copy = quarantine(state, root, link, "a link")
    assert copy.relative_to(state).parts[0] == "quarantine"
    assert copy.relative_to(state).parts[2:] == ("memories", "a.json")
    assert copy.read_bytes() == str(secret).encode()
    fifo = root / "memories" / "f.json"
    os.mkfifo(fifo)
    noted = quarantine(state, root, fifo, "a fifo")  # must not block
    assert "a fifo" in noted.read_text()
    plain = tmp_path / "elsewhere.json"
    plain.write_bytes(b"bytes")
    other = quarantine(state, root, plain, "outside the root")
    assert other.name == "elsewhere.json" and other.read_bytes() == b"bytes"
    assert len({copy.parent.parent, noted.parent, other.parent}) == 3  # a folder per call
    with pytest.raises(FileNotFoundError):
        quarantine(state, root, root / "absent.json", "gone")


# -- outside edits ---------------------------------------------------------------------------
def _unreadable(kind: str, folder, outside):
    if kind == "invalid-json":
        (folder / "broken.json").write_bytes(b'{"id": "broken", ')
        return folder / "broken.json"
    if kind == "symlink":
        target = outside / "t.json"
        target.write_bytes(_memory_json("linked"))
        (folder / "linked.json").symlink_to(target)
        return folder / "linked.json"
    if kind == "hard-link":
        target = outside / "h.json"
        target.write_bytes(_memory_json("hard"))
        os.link(target, folder / "hard.json")
        return folder / "hard.json"
    if kind == "bad-id":
        (folder / "bad\x01id.json").write_bytes(_memory_json("bad\x01id"))
        return folder / "bad\x01id.json"
    if kind == "name-differs":
        (folder / "alias.json").write_bytes(_memory_json("other"))
        return folder / "alias.json"
    if kind == "permission-denied":
        (folder / "secret.json").write_bytes(_memory_json("secret"))
        return folder / "secret.json"  # made unreadable by the test (root reads any mode)
    raise AssertionError(kind)


KINDS = ["invalid-json", "symlink", "hard-link", "bad-id", "name-differs", "permission-denied"]


def _deny(monkeypatch, path) -> None:
    """Opening ``path`` fails with EACCES, as for a file of another user (the tests run as
    root too, who can read any mode)."""
    real_open = os.open

    def refusing_open(file, flags, *args, **kwargs):
        if os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)


@pytest.mark.parametrize("kind", KINDS)
def test_outside_edit_that_is_not_a_valid_record_is_not_committed(vault_path, tmp_path,
                                                                  git_tools, monkeypatch, kind):
    v = Vault.open(vault_path)
    keep = v.add("keep")
    v.close()
    outside = tmp_path / "outside"
    outside.mkdir()
    bad = _unreadable(kind, vault_path / "memories", outside)
    if kind == "permission-denied":
        _deny(monkeypatch, bad)
    valid = vault_path / "memories" / "valid.json"
    valid.write_bytes(_memory_json("valid"))
    commits = git_tools.commit_count(vault_path)

    v = Vault.open(vault_path)
    assert git_tools.commit_count(vault_path) == commits + 1  # the valid one only
    head = _head_paths(git_tools, v)
    assert "memories/valid.json" in head and f"memories/{bad.name}" not in head
    assert [p.path for p in v.report.refused_external] == [bad]
    assert bad in [p.path for p in v.problems]
    assert set(v.memories) == {keep.id, "valid"}
    v.touch(keep.id)  # later commits leave it out too
    assert f"memories/{bad.name}" not in _head_paths(git_tools, v)
    assert os.path.lexists(bad)


def test_garbage_over_a_tracked_memory_is_not_committed(vault_path, git_tools):
    v = Vault.open(vault_path)
    m = v.add("the person's memory")
    v.close()
    path = vault_path / "memories" / f"{m.id}.json"
    path.write_bytes(b"{ half an edit")
    v = Vault.open(vault_path)
    assert v.report.external_commit is None
    assert git_tools.run(vault_path, "show", f"HEAD:memories/{m.id}.json") != "{ half an edit"
    assert path.read_bytes() == b"{ half an edit"


def test_deleting_a_memory_outside_is_still_committed(vault_path, git_tools):
    v = Vault.open(vault_path)
    m = v.add("going")
    v.close()
    (vault_path / "memories" / f"{m.id}.json").unlink()
    v = Vault.open(vault_path)
    assert v.report.external_paths == [f"memories/{m.id}.json"]
    assert f"memories/{m.id}.json" not in _head_paths(git_tools, v)


def test_unreadable_edit_while_open_is_set_aside_not_committed(vault_path, git_tools):
    v = Vault.open(vault_path)
    m = v.add("first words")
    path = vault_path / "memories" / f"{m.id}.json"
    path.write_bytes(b"{ a person's half edit")  # while the vault is open
    v.update(m.id, content="second words")
    subjects = git_tools.run(vault_path, "log", "--format=%s").splitlines()
    assert not any(s.startswith("external:") for s in subjects)
    blobs = git_tools.run(vault_path, "log", "-p", "--format=", "--", f"memories/{m.id}.json")
    assert "half edit" not in blobs
    copies = [p for p in _quarantined(v) if p.name == path.name]
    assert [c.read_bytes() for c in copies] == [b"{ a person's half edit"]
    assert len(v.notices) == 1 and "not valid JSON" in v.notices[0]
    assert v.get(m.id).content == "second words"


# -- folders that are links ------------------------------------------------------------------
def test_memories_folder_that_is_a_link_is_refused(vault_path, tmp_path):
    v = Vault.open(vault_path)
    v.add("x")
    v.close()
    elsewhere = tmp_path / "elsewhere"
    (vault_path / "memories").rename(elsewhere)
    (vault_path / "memories").symlink_to(elsewhere)
    before = sorted(p.name for p in elsewhere.iterdir())
    with pytest.raises(UnsafeFolderError, match="symbolic link"):
        Vault.open(vault_path)
    ro = Vault.open(vault_path, readonly=True)
    assert ro.memories == {}
    assert [p.path for p in ro.problems] == [vault_path / "memories"]
    assert sorted(p.name for p in elsewhere.iterdir()) == before


def test_folder_swapped_for_a_link_while_open_is_not_written_through(vault_path, tmp_path):
    v = Vault.open(vault_path)
    m = v.add("x")
    r = v.relate(m.id, m.id, "related")
    v.close()
    path = vault_path / "relations" / f"{r.id}.json"
    os.utime(path, ns=(10**18, 10**18))
    v = Vault.open(vault_path)
    elsewhere = tmp_path / "elsewhere"
    (vault_path / "relations").rename(elsewhere)  # the same files, now outside the vault...
    (vault_path / "relations").symlink_to(elsewhere)  # ...and a link to them in its place
    with pytest.raises(VaultError, match="symbolic link"):
        v.unrelate(r.id)
    kept = elsewhere / path.name
    assert kept.stat().st_mtime_ns == 10**18  # never removed nor put back, not for a moment
    assert json.loads(kept.read_bytes())["id"] == r.id


# -- one size limit --------------------------------------------------------------------------
def test_records_larger_than_the_reader_accepts_are_refused(vault_path, git_tools):
    v = Vault.open(vault_path)
    small = v.add("small")
    commits = git_tools.commit_count(vault_path)
    files = sorted(p.name for p in (vault_path / "memories").iterdir())
    huge = "x" * MAX_FILE_BYTES  # the JSON around it makes the file larger than the limit
    with pytest.raises(RecordTooLargeError) as info:
        v.add(huge, memory_id="huge")
    message = str(info.value)
    assert "memory huge" in message and f"{MAX_FILE_BYTES:,}" in message
    sizes = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]{6,}", message)]
    assert sizes[0] > MAX_FILE_BYTES and sizes[1] == MAX_FILE_BYTES  # both sizes named
    with pytest.raises(RecordTooLargeError):
        v.update(small.id, content=huge)
    with pytest.raises(RecordTooLargeError):
        v.apply(lambda vault: Plan("test: huge", put_memories=[
            Memory(id="huge2", content=huge)]))
    with pytest.raises(RecordTooLargeError, match="relation r-huge"):
        v.save_relations([Relation(id="r-huge", from_memory_id=small.id,
                                   to_memory_id=small.id, relation_type="related",
                                   metadata={"pad": huge})])
    with pytest.raises(RecordTooLargeError, match=".meta.json"):
        _write_meta(v, pad=huge)
    assert git_tools.commit_count(vault_path) == commits
    assert sorted(p.name for p in (vault_path / "memories").iterdir()) == files
    assert v.get(small.id).content == "small"
    git_tools.assert_consistent(v)


class _EndlessStdin(io.TextIOBase):
    """A stream that never ends; remembers the sizes asked for."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def read(self, size: int | None = -1) -> str:
        self.asked.append(-1 if size is None else size)
        if size is None or size < 0:
            raise AssertionError("read the whole of an endless stream")
        return "x" * size


def test_cli_add_stops_reading_stdin_at_the_limit(tmp_path, monkeypatch, capsys):
    from tui import cli

    stdin = _EndlessStdin()
    monkeypatch.setattr(sys, "stdin", stdin)
    code = cli.main(["--vault", str(tmp_path / "v"), "add", "-"])
    assert code == 1
    assert stdin.asked == [MAX_FILE_BYTES + 1]
    assert "16 MiB" in capsys.readouterr().err
    assert not (tmp_path / "v").exists()
