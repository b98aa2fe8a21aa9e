"""The app's verbs of ``memvault``: ``tui`` (also what ``memvault`` alone runs on a terminal) and
``demo``. The CLI imports the app (and textual) only here, inside :func:`launch`, when it really
starts."""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path

import click

from ..text import command_name
from .common import (
    UserError,
    given_vault_path,
    json_option,
    print_json,
    require_vault,
    vault_path,
    verb,
)


def interactive() -> bool:
    """Both ends are a terminal: the app can run (otherwise ``memvault`` prints the overview)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def launch(path: Path) -> int:
    from ..app import parse_keymap, run_app

    return run_app(path, keymap=parse_keymap(os.environ.get("MEMVAULT_KEYMAP")))


@verb("tui")
@json_option
def tui(as_json: bool) -> int:
    """With --json: the vault the app would open, without opening it."""
    path = vault_path()
    require_vault(path)
    if as_json:
        print_json({"vault": str(path), "interactive": interactive()})
        return 0
    return launch(path)


@verb("demo")
@click.argument("folder", required=False, metavar="DIR")
@click.option("--no-open", is_flag=True, help="build it, do not open the app")
@json_option
def demo(folder: str | None, no_open: bool, as_json: bool) -> int:
    """DIR (or --vault DIR) is a new or empty folder for the demo vault (default: a new
    temporary folder). --json prints the report and never opens the app."""
    from ..demo import build_demo

    given = given_vault_path()
    named = Path(folder).expanduser() if folder else None
    if named is not None and given is not None and named.absolute() != given.absolute():
        raise UserError(f"two folders for the demo vault: {named} and --vault {given}; "
                        "give one")
    path = named or given or Path(tempfile.mkdtemp(prefix="memvault-demo-"))
    print(f"building a demo vault in {path} …", file=sys.stderr, flush=True)
    report = build_demo(path)
    if as_json:
        print_json({"path": str(report.path), "memories": report.memories,
                    "archived": report.archived, "promoted": report.promoted,
                    "splits": report.splits, "consolidations": report.consolidations})
        return 0
    print(f"{report.memories} memories ({report.archived} archived, {report.promoted} promoted), "
          f"{report.splits} splits and {report.consolidations} merges, all in git: "
          f"{report.path}")
    again = f"open it again with: {command_name()} --vault {shlex.quote(str(report.path))}"
    if no_open or not interactive():
        print(again)
        return 0
    code = launch(report.path)
    print(again)  # once, after the app: its screen would cover a line printed before it
    return code
