"""The long-lived hash-object processes (core/git/objects.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from core import Vault
from core.errors import JournalError
from core.git.objects import CHUNK, ObjectWriter


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True).stdout.strip()


def _starter(root: Path, started: list[list[str]]):
    def start(args: list[str]) -> subprocess.Popen:
        started.append(args)
        return subprocess.Popen(["git", *args], cwd=root, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return start


def test_one_process_writes_many_files_in_chunks(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    names = []
    for i in range(CHUNK * 2 + 3):
        (tmp_path / f"f{i}").write_text(f"file {i}\n")
        names.append(f"f{i}")
    started: list[list[str]] = []
    writer = ObjectWriter(_starter(tmp_path, started))
    ids = writer.write("blob", names)
    assert ids == [_git(tmp_path, "hash-object", name) for name in names[:3]] + ids[3:]
    assert ids[-1] == _git(tmp_path, "hash-object", names[-1])
    assert _git(tmp_path, "cat-file", "-p", ids[7]) == "file 7"
    writer.write("blob", names[:1])
    assert len(started) == 1  # the same process answered both
    writer.stop()


def test_a_failing_process_raises_and_the_next_write_starts_a_new_one(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "there").write_text("here\n")
    started: list[list[str]] = []
    writer = ObjectWriter(_starter(tmp_path, started))
    with pytest.raises(JournalError, match="hash-object"):
        writer.write("blob", ["missing-file"])
    assert writer.write("blob", ["there"]) == [_git(tmp_path, "hash-object", "there")]
    assert len(started) == 2
    with pytest.raises(JournalError):
        writer.write("blob", ["a\nb"])
    writer.stop()


def test_what_git_says_on_stderr_never_blocks_it(tmp_path):
    """A filter that talks on stderr for each file says more than a pipe holds over many
    files: read as it comes, the process keeps answering."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _git(tmp_path, "config", "filter.noisy.clean", f"sh -c 'echo {'x' * 150} >&2; cat'")
    (tmp_path / ".gitattributes").write_text("*.txt filter=noisy\n")
    names = []
    for i in range(600):  # 600 x 151 bytes: more than a 64 KiB pipe
        (tmp_path / f"{i:04d}.txt").write_bytes(b"line\n")
        names.append(f"{i:04d}.txt")
    assert "xxxx" in subprocess.run(["git", "hash-object", names[0]], cwd=tmp_path,
                                    capture_output=True, text=True).stderr
    writer = ObjectWriter(_starter(tmp_path, []))
    assert len(writer.write("blob", names)) == 600
    writer.stop()


def test_close_ends_the_vaults_git_processes(tmp_path):
    v = Vault.open(tmp_path / "vault")
    v.add("One memory.")
    running = v.journal.object_writer.running()
    assert running
    v.close()
    assert all(getattr(h, "proc", h).poll() is not None for h in running)
    v.load()
    v.add("Another memory, after the vault was opened again.")
    assert _git(tmp_path / "vault", "status", "--porcelain") == ""


def _tree_sizes(root: Path) -> tuple[int, int]:
    """(the ``memories/`` tree's size, its loose object file's size) at HEAD."""
    tree = _git(root, "rev-parse", "HEAD:memories")
    size = int(_git(root, "cat-file", "-s", tree))
    return size, (root / ".git" / "objects" / tree[:2] / tree[2:]).stat().st_size


def test_trees_are_stored_uncompressed_unless_the_person_chose_a_level(tmp_path):
    from core import Memory

    root = tmp_path / "vault"
    with Vault.open(root) as v:
        v.save_many([Memory(id=f"m{i:03d}", content=f"Memory {i}.") for i in range(100)])
    size, stored = _tree_sizes(root)
    assert stored > size  # zlib's stored blocks: the tree plus a few bytes
    _git(root, "config", "core.compression", "9")  # the person's choice, followed
    with Vault.open(root) as v:
        v.add("One more memory.")
    size, stored = _tree_sizes(root)
    assert stored < size
    assert _git(root, "fsck", "--no-dangling") == ""


def _object_id(kind: str, data: bytes) -> str:
    import hashlib

    return hashlib.sha1(b"%s %d\0" % (kind.encode(), len(data)) + data).hexdigest()


def test_objects_go_through_scratch_files_kept_for_the_writers_life(tmp_path):
    """Written over in place from one write to the next (a shorter object cut to its size),
    private, and removed when the writer stops."""
    import os
    import stat

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    private = tmp_path / ".git" / "memvault"
    private.mkdir(mode=0o700)
    started: list[list[str]] = []
    writer = ObjectWriter(_starter(tmp_path, started), scratch_parent=lambda: private)
    long = [b"long object %d " % i * 50 for i in range(3)]
    assert writer.write_objects("blob", long) == [_object_id("blob", d) for d in long]
    folders = list(private.iterdir())
    assert len(folders) == 1 and folders[0].name.startswith(f"objects-{os.getpid()}-")
    assert stat.S_IMODE(folders[0].stat().st_mode) == 0o700
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in folders[0].iterdir())
    short = [b"short", b"", b"x" * 10]
    assert writer.write_objects("blob", short) == [_object_id("blob", d) for d in short]
    assert _git(tmp_path, "cat-file", "-p", _object_id("blob", b"short")) == "short"
    assert list(private.iterdir()) == folders  # the same files, written over
    assert len(started) == 1
    writer.stop()
    assert list(private.iterdir()) == []


def test_scratch_folders_of_processes_gone_are_removed_and_the_living_ones_kept(tmp_path):
    import os

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    private = tmp_path / ".git" / "memvault"
    private.mkdir(mode=0o700)
    ended = subprocess.Popen(["true"])
    ended.wait()  # a process that has ended and been reaped
    gone = private / f"objects-{ended.pid}-abc"
    gone.mkdir()
    (gone / "0").write_bytes(b"left")
    before = private / "objects-x1y2z3"  # as they were named before they were kept
    before.mkdir()
    living = private / f"objects-{os.getppid()}-def"
    living.mkdir()
    other = private / "index.sqlite"
    other.write_bytes(b"")
    writer = ObjectWriter(_starter(tmp_path, []), scratch_parent=lambda: private)
    writer.write_objects("blob", [b"one"])
    names = {p.name for p in private.iterdir()}
    assert gone.name not in names and before.name not in names
    assert {living.name, other.name} <= names
    writer.stop()
