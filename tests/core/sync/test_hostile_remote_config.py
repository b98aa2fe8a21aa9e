"""A remote that wants to pick where this machine writes, or to read what it wrote: a ``.env`` at
the root, a ``.git``/``.GIT`` folder in its tree, a ``.meta.json`` with a layout no memvault
knows, and files checked out readable by other local users. Each is refused (or made private)
before anything is taken, and the repository stays ``git fsck --strict`` clean."""

from __future__ import annotations

import json
import os
import stat

import pytest
from vault_support import run_git
from sync_support import LAYOUTS, Attacker, make_world, new

from core import VaultError
from core.sync.engine import last_sync


@pytest.fixture(params=LAYOUTS)
def world(request, tmp_path):
    w = make_world(tmp_path, request.param, second=False)
    new(w.a, "mine", "the victim's own memory")
    assert w.a.sync().pushed
    w.evil = Attacker(w, tmp_path)
    return w


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def refused_and_clean(a, head: str, match: str) -> VaultError:
    with pytest.raises(VaultError, match=match) as refused:
        a.sync()
    assert "nothing was brought in" in str(refused.value)
    assert a.head() == head
    assert last_sync(a.vault)["outcome"] == "error"
    run_git(a.repo, "fsck", "--strict", "--no-progress")
    a.reopen().add("the vault keeps working")
    return refused.value


def test_files_sync_brings_in_are_private_whatever_the_umask(world, umask_022):
    a, evil = world.a, world.evil
    evil.memory("theirs", "a memory from the other machine")
    (evil.vault / "memories" / "ab").mkdir()
    evil.memory("abcdef", "in a shard folder", name="ab/abcdef.json")
    evil.push("two memories")
    assert a.sync().ok
    for path in (a.vault_dir / "memories" / "theirs.json",
                 a.vault_dir / "memories" / "ab" / "abcdef.json"):
        assert mode(path) == 0o600, path
    assert mode(a.vault_dir / "memories" / "ab") == 0o700
    assert mode(a.vault_dir / "memories") == 0o700
    assert mode(a.vault_dir) == 0o700


def test_a_remote_env_file_at_the_root_is_refused(world):
    a, evil = world.a, world.evil
    head = a.head()
    (evil.repo / ".env").write_text(f"CORTEXGRAPH_STORAGE_PATH={evil.repo}/elsewhere\n")
    evil.push("a .env at the repository's root")
    error = refused_and_clean(a, head, r"adds or changes \.env")
    assert not (a.repo / ".env").exists()
    assert "forgotten" in str(error)
    assert run_git(a.repo, "rev-parse", "refs/remotes/origin/main") == head
    if world.sub is not None:  # at the vault's own root too
        evil.git("rm", "-q", ".env")
        (evil.vault / ".env").write_text("MEMVAULT_PATH=/tmp/elsewhere\n")
        evil.push("a .env at the vault's root")
        refused_and_clean(a, a.head(), r"notes/vault/\.env")


@pytest.mark.parametrize("name", [".GIT", ".git"])
def test_a_remote_tree_holding_a_git_folder_is_refused_and_forgotten(world, name):
    a, evil = world.a, world.evil
    head = a.head()
    blob = run_git(evil.repo, "hash-object", "-w", "--stdin",
                   input=b"[core]\n\tfsmonitor = evil\n")
    inner = run_git(evil.repo, "mktree", input=f"100644 blob {blob}\tconfig\n".encode())
    listing = evil.git("ls-tree", "HEAD") + f"\n040000 tree {inner}\t{name}\n"
    tree = run_git(evil.repo, "mktree", input=listing.encode())
    commit = evil.git("commit-tree", tree, "-p", "HEAD", "-m", "a git folder in the tree")
    evil.git("push", "-q", "origin", f"{commit}:refs/heads/main")
    error = refused_and_clean(a, head, rf"holds {name}/config")
    assert "changes that are not committed" not in str(error)
    assert run_git(a.repo, "cat-file", "-t", commit, check=False) != "commit"


@pytest.mark.parametrize("layout", ["../../elsewhere", "hexagonal", 7])
def test_a_remote_meta_with_a_layout_no_memvault_knows_is_refused(world, layout):
    a, evil = world.a, world.evil
    head = a.head()
    meta_path = evil.vault / ".meta.json"
    meta = json.loads(meta_path.read_text())
    meta["layout"] = layout
    meta_path.write_text(json.dumps(meta, indent=2))
    evil.push("a layout from nowhere")
    refused_and_clean(a, head, "names the layout .*does not know")
    assert a.vault.layout.name == "flat"
