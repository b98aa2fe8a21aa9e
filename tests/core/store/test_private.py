"""Everything in a vault is kept from other local users: files 0600, folders 0700, whoever wrote
them first (a person's own ``git clone`` under umask 022, at the next open), never through a
link; ``.gitattributes`` too, whatever the umask."""

from __future__ import annotations

import os
import stat

import pytest
from vault_support import run_git

from core import Vault
from core.store.private import make_tree_private
from core.sync.engine import install


@pytest.fixture
def umask():
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_persons_own_clone_is_made_private_at_the_next_open(tmp_path, umask):
    vault = Vault.open(tmp_path / "first")
    kept = vault.add("a memory to clone")
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(tmp_path / "first"), str(clone))
    (clone / "memories" / "zz").mkdir()  # a folder a person made
    (clone / "notes.sh").write_text("echo mine\n")
    os.chmod(clone / "notes.sh", 0o755)
    assert mode(clone / "memories" / f"{kept.id}.json") == 0o644
    opened = Vault.open(clone)
    assert kept.id in opened.memories
    for folder, dirs, files in os.walk(clone):
        dirs[:] = [d for d in dirs if d != ".git"]
        assert mode(folder) == 0o700, folder
        for name in files:
            wanted = 0o700 if name == "notes.sh" else 0o600
            assert mode(os.path.join(folder, name)) == wanted, name
    assert mode(clone / ".git") == 0o700


def test_a_link_in_the_vault_and_what_it_points_at_are_left_alone(tmp_path, umask):
    outside = tmp_path / "outside.txt"
    outside.write_text("the person's file\n")
    os.chmod(outside, 0o644)
    root = tmp_path / "vault"
    (root / "memories").mkdir(parents=True)
    os.symlink(outside, root / "memories" / "link.json")
    assert make_tree_private(root)
    assert mode(outside) == 0o644 and os.path.islink(root / "memories" / "link.json")
    assert mode(root) == 0o700 and mode(root / "memories") == 0o700
    assert not make_tree_private(root)  # private already: one lstat


def test_new_folders_and_the_gitattributes_are_private_whatever_the_umask(tmp_path, umask):
    vault = Vault.open(tmp_path / "v", layout="sharded")
    vault.add("in a shard folder")
    [shard] = [p for p in (tmp_path / "v" / "memories").iterdir() if p.is_dir()]
    assert mode(shard) == 0o700 and mode(tmp_path / "v") == 0o700
    umask(0o077)
    install(vault)
    assert mode(tmp_path / "v" / ".gitattributes") == 0o600


def test_files_a_persons_git_pull_brought_are_made_private_at_the_next_open(tmp_path, umask):
    first = Vault.open(tmp_path / "first")
    first.add("before the clone")
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(tmp_path / "first"), str(clone))
    Vault.open(clone)  # private now, and its index written
    later = first.add("pulled by hand later")
    run_git(clone, "pull", "-q", "--ff-only")
    pulled = clone / "memories" / f"{later.id}.json"
    assert mode(pulled) == 0o644
    assert later.id in Vault.open(clone).memories
    assert mode(pulled) == 0o600


def test_a_repository_shared_on_purpose_keeps_its_modes(tmp_path, umask):
    first = Vault.open(tmp_path / "first")
    kept = first.add("shared with my group")
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(tmp_path / "first"), str(clone))
    run_git(clone, "config", "core.sharedRepository", "group")
    assert kept.id in Vault.open(clone).memories
    assert mode(clone / "memories" / f"{kept.id}.json") == 0o644
