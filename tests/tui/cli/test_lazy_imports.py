"""``memvault --help``, ``list``, ``search`` and ``stats`` start without what they do not use:
neither textual (the app), nor mcp (``memvault mcp``), nor wordllama (semantic search, unless
asked for), nor GitPython (they only read git); ``--help``, a typo'd verb and a usage error
without the vault's code at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from core import Vault

HEAVY = ("textual", "mcp", "wordllama", "git")
SCRIPT = """
import json, sys
from tui.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules(*argv: str, cwd) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "COLUMNS": "120"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.fixture
def small_vault(tmp_path):
    path = tmp_path / "vault"
    with Vault.open(path) as vault:
        vault.add("Prefers pytest fixtures", tags=["python"])
    return path


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["list"],
    ["list", "--query", "pytest tag:py*", "--json"],
    ["search", "pytest", "--mode", "bm25"],
    ["search", "pytest", "--mode", "bm25", "--json"],
    ["stats"],
])
def test_no_heavy_import(argv, small_vault, tmp_path):
    modules = _modules("--vault", str(small_vault), *argv, cwd=tmp_path)
    assert "tui.cli" in modules
    heavy = [m for m in modules if m.split(".")[0] in HEAVY]
    assert heavy == []
    if argv[0] == "search":
        assert "core.search.index" in modules


@pytest.mark.parametrize("argv", [["--help"], ["serach", "pytest"], ["--vault"]])
def test_help_a_typo_and_a_root_usage_error_load_none_of_the_vault(argv, tmp_path):
    """What answers before a vault is opened imports no record model (pydantic), no vault, git
    or store code: ``import core`` itself is free (its names come on first use)."""
    modules = _modules(*argv, cwd=tmp_path)
    assert "tui.cli" in modules
    loaded = [m for m in modules if m.split(".")[0] in ("pydantic", "rich", *HEAVY)
              or m.startswith(("core.vault", "core.model.records", "core.git", "core.store"))]
    assert loaded == []


def test_history_reads_git_without_gitpython(small_vault, tmp_path):
    """``history`` runs ``git log``, through the journal's own runner: no GitPython."""
    memory_id = next((small_vault / "memories").iterdir()).stem
    modules = _modules("--vault", str(small_vault), "history", memory_id, "--json", cwd=tmp_path)
    assert "core.git.runner" in modules
    assert [m for m in modules if m.split(".")[0] == "git"] == []


def test_search_without_wordllama_installed_imports_none(small_vault, tmp_path):
    if "wordllama" in {m.split(".")[0] for m in _modules("--version", cwd=tmp_path)}:
        pytest.fail("wordllama imported by --version")
    try:
        import importlib.util

        installed = importlib.util.find_spec("wordllama") is not None
    except ValueError:
        installed = False
    modules = _modules("--vault", str(small_vault), "search", "pytest", cwd=tmp_path)
    assert ("wordllama" in modules) == installed  # auto: hybrid only when it is there


@pytest.mark.parametrize("argv", [["list"], ["stats"], ["search", "pytest", "--mode", "bm25"],
                                  ["show", "PREFIX"]])
def test_reading_verbs_import_neither_the_inbox_nor_revert(argv, small_vault, tmp_path):
    """The human output's module once imported the review inbox's model (and through it
    ``core.ops.revert`` and the inbox's diffs, ~30 ms) for ``history`` alone: a reading verb
    that prints no history loads none of them."""
    memory_id = next((small_vault / "memories").iterdir()).stem
    argv = [memory_id[:8] if a == "PREFIX" else a for a in argv]
    modules = _modules("--vault", str(small_vault), *argv, cwd=tmp_path)
    assert {"tui.cli.render", "tui.cli.render_plain", "tui.cli.render_search"} & set(modules)
    assert [m for m in modules if m.startswith(("core.ops.inbox", "core.ops.revert"))] == []


#: What only a write or history reads: a reading verb imports none of it (the vault's parts and
#: the journal's are made, and their modules imported, on first use)
WRITING = ("core.vault.writing", "core.vault.records", "core.vault.history", "core.vault.opening",
           "core.git.commit", "core.git.plumbing", "core.git.reading", "core.git.recovery",
           "core.secrets")


def _piped_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}


@pytest.mark.parametrize("argv", [["list"], ["list", "--json"], ["stats"], ["stats", "--json"],
                                  ["show", "PREFIX", "--json"]])
def test_reading_verbs_import_no_writing_part(argv, small_vault, tmp_path):
    memory_id = next((small_vault / "memories").iterdir()).stem
    argv = [memory_id[:8] if a == "PREFIX" else a for a in argv]
    modules = _modules("--vault", str(small_vault), *argv, cwd=tmp_path)
    assert [m for m in modules if m.startswith(WRITING)] == []
    # a small vault is read whole: neither the derived index's code nor SQLite
    assert [m for m in modules if m.startswith(("core.search.index", "sqlite3"))] == []


@pytest.mark.parametrize("argv", [["list"], ["stats"], ["list", "--query", "pytest"]])
def test_piped_list_and_stats_import_no_rich_and_build_no_record_model(argv, small_vault,
                                                                     tmp_path):
    """Piped, ``list`` and ``stats`` print their plain lines without rich, and make the
    records memvault wrote without building pydantic's validators (core.model.exact_records)."""
    script = SCRIPT.replace("print(json.dumps(sorted(sys.modules)), file=sys.stderr)", (
        "from core.model.records import Memory, MemoryMetadata\n"
        "print(json.dumps([sorted(sys.modules), Memory.__pydantic_complete__, "
        "MemoryMetadata.__pydantic_complete__]), file=sys.stderr)"))
    proc = subprocess.run([sys.executable, "-c", script, "--vault", str(small_vault), *argv],
                          capture_output=True, text=True, cwd=tmp_path, env=_piped_env())
    assert proc.returncode == 0, proc.stderr
    modules, built, meta_built = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "Prefers pytest fixtures" in proc.stdout or argv[0] == "stats"
    assert [m for m in modules if m.split(".")[0] == "rich"] == []
    assert (built, meta_built) == (False, False)


def test_piped_show_imports_no_rich(small_vault, tmp_path):
    """Piped, ``show`` prints its fields, texts and relations without rich (render_plain)."""
    memory_id = next((small_vault / "memories").iterdir()).stem
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "--vault", str(small_vault), "show",
                           memory_id[:8]], capture_output=True, text=True, cwd=tmp_path,
                          env=_piped_env())
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "Prefers pytest fixtures" in proc.stdout
    assert [m for m in modules if m.split(".")[0] == "rich" or m == "tui.cli.render"] == []


@pytest.mark.parametrize("argv", [["search", "pytest"], ["search", "pytest", "--json"]])
def test_a_search_of_a_small_vault_imports_no_rich_nor_pydantics_plugins(argv, small_vault,
                                                                          tmp_path):
    """Piped, ``search`` prints its plain lines without rich; on a small vault it builds no
    pydantic model of its own (the pool's is built on first use: pydantic's plugin loader), and
    imports neither rensa (no near-duplicate keys made: the index is level from the first
    search) nor the bounded top-k reader."""
    _modules("--vault", str(small_vault), "search", "fixtures", cwd=tmp_path)  # the index made
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "--vault", str(small_vault), *argv],
                          capture_output=True, text=True, cwd=tmp_path, env=_piped_env())
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "Prefers pytest fixtures" in proc.stdout
    assert "core.search.rank" in modules
    loaded = [m for m in modules if m.split(".")[0] == "rich"
              or m.startswith(("pydantic.plugin._loader", "rensa",
                               "core.search.topk", "core.search.holdings"))]
    assert loaded == []


@pytest.mark.parametrize("where", ["--vault", "inside"])
def test_finding_the_vault_the_app_opens_imports_no_record_model(where, small_vault, tmp_path):
    """``memvault`` on a terminal launches the app, whose first frame is painted before the
    vault's code is imported: finding the vault (``--vault``, or the one the current folder is
    in, ``tui --json`` says which) must not import it first (pydantic, the vault's API)."""
    argv = ("--vault", str(small_vault), "tui", "--json") if where == "--vault" else ("tui", "--json")
    modules = _modules(*argv, cwd=small_vault if where == "inside" else tmp_path)
    assert not [name for name in modules
                if name == "pydantic" or name.startswith(("core.vault.api", "core.model.records",
                                                          "core.store.layout"))]


@pytest.mark.parametrize("argv", [["list"], ["list", "--query", "pytest"], ["stats"],
                                  ["show", "PREFIX"], ["search", "pytest"],
                                  ["search", "pytest", "--mode", "bm25"]])
def test_a_reading_verb_on_a_small_vault_imports_no_pydantic(argv, small_vault, tmp_path):
    """Piped, a reading verb makes its records without the models (core.model.plain_records):
    pydantic and the record models, ~1x the floor of a click program, are never imported."""
    _modules("--vault", str(small_vault), "search", "fixtures", cwd=tmp_path)  # the index made
    memory_id = next((small_vault / "memories").iterdir()).stem
    argv = [memory_id[:8] if a == "PREFIX" else a for a in argv]
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "--vault", str(small_vault), *argv],
                          capture_output=True, text=True, cwd=tmp_path, env=_piped_env())
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "Prefers pytest fixtures" in proc.stdout or argv[0] == "stats"
    loaded = [m for m in modules if m.split(".")[0] in ("pydantic", "pydantic_core")
              or m == "core.model.records"]
    assert loaded == []


def test_a_search_of_a_level_index_does_not_read_rensas_version(small_vault, tmp_path):
    """A search reads no near-duplicate row: it does not ask which rensa made them
    (importlib.metadata, with email, zipfile and csv: ~a tenth of a search's start)."""
    _modules("--vault", str(small_vault), "search", "fixtures", cwd=tmp_path)  # the index made
    modules = _modules("--vault", str(small_vault), "search", "pytest", cwd=tmp_path)
    assert "core.search.rank" in modules
    assert [m for m in modules if m.startswith(("importlib.metadata", "email"))] == []
