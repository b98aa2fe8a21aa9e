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
