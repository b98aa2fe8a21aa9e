"""The command line's layout promises (tui/cli/): piped output is never cut to a width, and the
CLI loads the app, rich and the other verbs' modules only when they are needed; the app never
imports the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)


def test_piped_list_is_not_cut_at_80_columns(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = ("a long memory about the deploy pipeline " * 6).strip()  # 240 characters
    a = run.add(text, "--tag", "ops")
    out = run.ok("list")
    [line] = [ln for ln in out.splitlines() if a[:8] in ln]
    assert text in line and len(line) > 80 and "…" not in line
    assert out.splitlines()[0].split()[:2] == ["id", "status"]  # the header, then the rows


def test_piped_list_names_its_text_column_and_reads_line_breaks_as_spaces(run):
    a = run.add("Trip to Berlin.\nThe hotel is near Alexanderplatz.\tBook early.")
    out = run.ok("list")
    assert out.splitlines()[0].split()[-3:] == ["gist", "or", "content"]
    [line] = [ln for ln in out.splitlines() if a[:8] in ln]
    assert "Trip to Berlin. The hotel is near Alexanderplatz. Book early." in line
    assert "\\n" not in line and "\\t" not in line


def _modules_after(code: str) -> set[str]:
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], package: str) -> bool:
    return any(m == package or m.startswith(package + ".") for m in modules)


def test_help_and_add_load_neither_the_app_nor_rich(tmp_path):
    modules = _modules_after("import contextlib, io\nfrom tui.cli import main\n"
                             "with contextlib.redirect_stdout(io.StringIO()):\n"
                             "    main(['--help'])\n"
                             f"main(['--vault', {str(tmp_path / 'v')!r}, 'add', 'x'])")
    for package in ("textual", "rich", "tui.app", "tui.cli.lifecycle", "tui.cli.migrate",
                    "tui.cli.sync", "tui.cli.app", "tui.cli.render"):
        assert not _loaded(modules, package), package
    assert "tui.cli.records" in modules


def test_version_answers_before_click_or_core_is_imported(capsys):
    modules = _modules_after("import sys\nsys.argv = ['memvault', '--version']\n"
                             "from tui.launch import main\nmain()")
    for package in ("click", "core", "tui.cli", "pydantic", "git"):
        assert not _loaded(modules, package), package
    from tui import cli
    from tui.launch import main as launch

    assert cli.main(["--version"]) == 0
    by_click = capsys.readouterr().out
    import sys

    argv, sys.argv = sys.argv, ["memvault", "--version"]
    try:
        assert launch() == 0
    finally:
        sys.argv = argv
    assert capsys.readouterr().out == by_click and by_click.startswith("memvault ")


def test_the_app_never_imports_the_cli():
    modules = _modules_after("import tui.app, tui.app.service, tui.app.main.screen, tui.demo")
    assert not _loaded(modules, "tui.cli")


def test_piped_list_is_not_cut_with_forced_colour(run, monkeypatch):
    """FORCE_COLOR (or TTY_COMPATIBLE) makes rich style a pipe as a terminal of $COLUMNS (or 80)
    columns: the lines were cut there. Styled or not, piped output keeps every character."""
    import re

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    text = ("a long memory about the deploy pipeline " * 6).strip()  # 240 characters
    a = run.add(text, "--tag", "ops")
    out = re.sub(r"\x1b\[[0-9;]*m", "", run.ok("list"))
    [line] = [ln for ln in out.splitlines() if a[:8] in ln]
    assert text in line and len(line) > 80 and "…" not in line
