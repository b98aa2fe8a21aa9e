"""``memvault mcp`` as a verb: in the help from the table, the ``mcp`` package imported only
when the verb runs (``--help``, ``list`` and ``add`` never pay its start-up), and refusals before
any server starts."""

from __future__ import annotations

import json
import subprocess
import sys

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)


def _modules_after(code: str) -> set[str]:
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], package: str) -> bool:
    return any(m == package or m.startswith(package + ".") for m in modules)


def test_help_list_and_add_never_import_mcp(tmp_path):
    vault = str(tmp_path / "v")
    modules = _modules_after("import contextlib, io\nfrom tui.cli import main\n"
                             "with contextlib.redirect_stdout(io.StringIO()):\n"
                             "    main(['--help'])\n"
                             f"    main(['--vault', {vault!r}, '--create', 'add', 'x'])\n"
                             f"    main(['--vault', {vault!r}, 'list'])\n"
                             f"    main(['--vault', {vault!r}, 'mcp', '--help'])")
    for package in ("mcp", "tui.mcp", "mcp_types"):
        assert not _loaded(modules, package), package
    assert "tui.cli.mcp" in modules  # its --help ran, from the verb's own small module


def test_the_verb_is_in_the_help(run):
    out = run.ok("--help")
    assert "mcp" in out and "MCP" in out
    assert "--read-only" in run.ok("mcp", "--help")


def test_read_only_needs_an_existing_vault(run, tmp_path):
    code, _out, err = run("--vault", str(tmp_path / "missing"), "mcp", "--read-only", vault=False)
    assert code == 1 and "no vault at" in err
    assert not (tmp_path / "missing").exists()


def test_a_vault_path_that_is_a_file_is_refused(run, tmp_path):
    (tmp_path / "file").write_text("")
    code, _out, err = run("--vault", str(tmp_path / "file"), "mcp", vault=False)
    assert code == 1 and "is not a folder" in err


def test_the_token_command_shows_one_token_and_never_imports_mcp(tmp_path, monkeypatch):
    config = tmp_path / "config"
    monkeypatch.setenv("MEMVAULT_CONFIG_DIR", str(config))
    modules = _modules_after("import contextlib, io\nfrom tui.cli import main\n"
                             "with contextlib.redirect_stdout(io.StringIO()):\n"
                             "    main(['mcp', 'token'])")
    for package in ("mcp", "mcp_types", "uvicorn", "tui.mcp.server"):
        assert not _loaded(modules, package), package
    first = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "token"], capture_output=True,
                           text=True, check=True).stdout.strip()
    assert first == (config / "mcp-token").read_text().strip() and len(first) >= 40
    again = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "token", "--json"],
                           capture_output=True, text=True, check=True)
    assert json.loads(again.stdout) == {"token": first, "path": str(config / "mcp-token"),
                                        "made": False}
    rotated = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "token", "--rotate"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert rotated != first and rotated == (config / "mcp-token").read_text().strip()


def test_http_options_are_refused_without_http_and_a_bad_address_is_clear(run, tmp_path):
    code, _out, err = run("mcp", "--allow-origin", "https://a.example")
    assert code == 2 and "go with --http" in err
    run.ok("init")
    code, _out, err = run("mcp", "--http", "localhost:port")
    assert code == 1 and "expected [HOST:]PORT" in err
