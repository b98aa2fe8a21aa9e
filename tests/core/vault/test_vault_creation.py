"""Where an open may make a new vault (core/vault/creating.py): only when asked, and never
inside another git repository unless asked for that too; an existing vault opens wherever it is.
Every refusal writes nothing: no folder, no commit, no change to the other repository."""

from __future__ import annotations

import pytest

from core import Vault, VaultError
from vault_support import run_git


def _repo(path, *, commit: bool = True):
    path.mkdir(parents=True)
    run_git(path, "init", "-q")
    if commit:
        (path / "main.py").write_text("print('hi')\n")
        run_git(path, "add", "main.py")
        run_git(path, "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-q",
                "-m", "code")
    return path


def test_create_false_refuses_a_folder_without_a_vault(tmp_path):
    missing = tmp_path / "memorys" / "deeper"
    with pytest.raises(VaultError, match=f"no vault at {missing}: nothing was created"):
        Vault.open(missing, create=False)
    assert not (tmp_path / "memorys").exists()
    Vault.open(tmp_path / "made").add("asked for (the default)")
    assert len(Vault.open(tmp_path / "made", create=False).memories) == 1  # it exists now


@pytest.mark.parametrize("where", [".", "docs/memories"], ids=["top", "subfolder"])
def test_no_vault_is_made_inside_another_repository(tmp_path, where):
    repo = _repo(tmp_path / "project")
    head = run_git(repo, "rev-parse", "HEAD")
    with pytest.raises(VaultError, match=f"git repository at {repo}.*--inside-repo"):
        Vault.open(repo / where)
    assert run_git(repo, "rev-parse", "HEAD") == head
    assert run_git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_folder_inside_another_vault_is_another_repository(tmp_path):
    Vault.open(tmp_path / "vault").add("the outer vault")
    with pytest.raises(VaultError, match="--inside-repo"):
        Vault.open(tmp_path / "vault" / "nested")
    assert not (tmp_path / "vault" / "nested").exists()


def test_inside_repo_makes_it_and_it_then_opens_like_any_vault(tmp_path):
    repo = _repo(tmp_path / "notes")
    Vault.open(repo / "memvault", inside_repo=True).add("with my notes")
    again = Vault.open(repo / "memvault")  # an existing vault: no question asked
    assert len(again.memories) == 1
    assert run_git(repo, "log", "-1", "--format=%s").startswith("add: ")


def test_a_new_empty_repository_may_become_the_vault(tmp_path):
    """``git init`` (or a clone of an empty remote) made for the vault: nothing to commit into."""
    repo = _repo(tmp_path / "fresh", commit=False)
    Vault.open(repo).add("the first memory")
    assert run_git(repo, "log", "--format=%s").splitlines()[-1] == "init: create memvault vault"


def test_a_file_where_the_vault_would_be_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(VaultError, match="is not a folder"):
        Vault.open(tmp_path / "file" / "vault")


def test_the_enclosing_vault_is_found_up_to_the_top_of_its_repository(tmp_path):
    from core.vault.finding import enclosing_vault

    vault = Vault.open(tmp_path / "notes", create=True)
    assert enclosing_vault(vault.root / "memories") == vault.root
    assert enclosing_vault(vault.root) == vault.root
    assert enclosing_vault(tmp_path) is None  # in no repository
    link = tmp_path / "linked"
    link.mkdir()
    (link / ".git").mkdir()
    (link / ".meta.json").symlink_to(vault.root / ".meta.json")
    assert enclosing_vault(link) is None  # never through a link
