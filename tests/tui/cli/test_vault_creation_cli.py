"""A vault is made only when asked (issue 40): a folder named by ``--vault`` or ``MEMVAULT_PATH``
that holds no vault is refused by every verb and by ``mcp`` (the path named, how to make one,
exit 1, nothing written, no folder made) unless ``init`` or ``--create`` asks; the default
folder is made on first use; and no verb makes a vault inside another git repository."""

from __future__ import annotations

import pytest
from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)
from migrate_support import memory_line, write_store
from vault_support import run_git


@pytest.fixture
def typo(tmp_path):
    """A mistyped vault folder, two levels below one that exists."""
    return tmp_path / "memorys" / "deeper"


def _sources(tmp_path):
    cg = write_store(tmp_path / "cg", [memory_line("m1", "from cortexgraph")])
    md = tmp_path / "md"
    md.mkdir()
    (md / "MEMORY.md").write_text("## Preferences\n\nDark mode.\n")
    mcp_file = tmp_path / "memory.jsonl"
    mcp_file.write_text('{"type": "entity", "name": "Ada", "entityType": "person", '
                        '"observations": ["likes tea"]}\n')
    return cg, md, mcp_file


def _writing_verbs(tmp_path):
    cg, md, mcp_file = _sources(tmp_path)
    return [["add", "hello"], ["migrate", str(cg)], ["import-markdown", str(md)],
            ["import", "--from", "mcp-memory", str(mcp_file)], ["touch", "abcd"],
            ["archive", "abcd"], ["secrets-policy", "redact"], ["undo"]]


def test_a_named_folder_without_a_vault_is_refused_by_every_verb(run, tmp_path, typo):
    for argv in _writing_verbs(tmp_path) + [["history", "abcd"], ["list"]]:
        code, out, err = run("--vault", str(typo), *argv, vault=False)
        assert code == 1, (argv, out, err)
        assert f"no vault at {typo}" in err and f"memvault init --vault {typo}" in err
        assert ("--create" in err) == (argv != ["list"])  # a reading verb makes none
        assert not (tmp_path / "memorys").exists(), argv  # no folder made, nested or not


def test_memvault_path_naming_a_missing_folder_is_refused_too(run, typo, monkeypatch):
    monkeypatch.setenv("MEMVAULT_PATH", str(typo))
    code, _out, err = run("add", "hello", vault=False)
    assert code == 1 and f"no vault at {typo}" in err
    assert not typo.parent.exists()


def test_init_or_create_makes_the_named_vault(run, tmp_path, typo):
    cg, _md, _mcp = _sources(tmp_path)
    assert run("--vault", str(typo), "add", "hello", "--create", vault=False)[0] == 0
    assert len(list((typo / "memories").glob("*.json"))) == 1
    other = tmp_path / "other" / "v"
    assert run("--vault", str(other), "--create", "migrate", str(cg), vault=False)[0] == 0
    third = tmp_path / "third"
    assert run("--vault", str(third), "init", vault=False)[0] == 0
    assert run("--vault", str(third), "add", "now it exists", vault=False)[0] == 0


def test_the_default_folder_is_made_on_first_use(run, cli_env):
    code, out, err = run("add", "a first memory", vault=False)
    assert code == 0 and "created a new vault" in err
    assert list(cli_env.glob("xdg_data_home/memvault/vault/memories/*.json"))


@pytest.fixture
def code_repo(tmp_path):
    """A clone of a code repository: one commit, a file of code."""
    repo = tmp_path / "project"
    repo.mkdir()
    run_git(repo, "init", "-q")
    (repo / "main.py").write_text("print('hi')\n")
    run_git(repo, "add", "main.py")
    run_git(repo, "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-q",
            "-m", "code")
    return repo


@pytest.mark.parametrize("where", [".", "notes/memvault"], ids=["top", "subfolder"])
def test_no_vault_is_made_inside_another_repository(run, tmp_path, code_repo, where):
    target = code_repo / where
    head = run_git(code_repo, "rev-parse", "HEAD")
    cg, _md, _mcp = _sources(tmp_path)
    code, _out, err = run("--vault", str(target), "add", "hello", vault=False)
    assert code == 1 and f"no vault at {target.resolve()}" in err  # a named folder, no vault
    for argv in (["init"], ["--create", "add", "hello"], ["--create", "migrate", str(cg)]):
        code, _out, err = run("--vault", str(target), *argv, vault=False)
        assert code == 1, argv
        assert f"git repository at {code_repo}" in err and "--inside-repo" in err
        assert run_git(code_repo, "rev-parse", "HEAD") == head  # no init:, no add: commit
        assert run_git(code_repo, "status", "--porcelain") == ""
        assert not (code_repo / "memories").exists() and not (code_repo / "notes").exists()


def test_init_inside_repo_asks_for_it_on_purpose(run, code_repo):
    target = code_repo / "notes" / "memvault"
    assert run("--vault", str(target), "init", "--inside-repo", vault=False)[0] == 0
    assert run("--vault", str(target), "add", "kept with the notes", vault=False)[0] == 0
    subjects = run_git(code_repo, "log", "--format=%s").splitlines()
    assert subjects[0].startswith("add: ") and subjects[1] == "init: create memvault vault"


@pytest.fixture
def served(monkeypatch):
    """The MCP server's ``run``, replaced: the paths it was started on."""
    import tui.mcp.server as server

    started = []
    monkeypatch.setattr(server, "run", lambda path, **kwargs: started.append(path))
    return started


def test_mcp_refuses_a_named_folder_without_a_vault(run, typo, served):
    code, _out, err = run("--vault", str(typo), "mcp", vault=False)
    assert code == 1 and f"no vault at {typo}" in err and served == []
    assert not typo.parent.exists()
    assert run("--vault", str(typo), "mcp", "--create", vault=False)[0] == 0
    assert served == [typo]  # made at the first write, as before


def test_mcp_refuses_a_new_vault_inside_another_repository(run, code_repo, served):
    code, _out, err = run("--vault", str(code_repo), "mcp", "--create", vault=False)
    assert code == 1 and "--inside-repo" in err and served == []


def test_the_default_folder_is_served_before_it_exists(run, served):
    assert run("mcp", vault=False)[0] == 0 and len(served) == 1

