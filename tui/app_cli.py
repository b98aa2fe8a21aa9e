"""The app's verbs of ``memvault``: ``tui`` (also what ``memvault`` alone runs on a terminal)
and ``demo``. :func:`register` adds them to the parser of :mod:`tui.cli`; textual is imported only
when the app really starts."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

Verb = Callable[[str, Callable[[argparse.Namespace], int]], argparse.ArgumentParser]


def interactive() -> bool:
    """Both ends are a terminal: the app can run (otherwise ``memvault`` prints the overview)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def launch(path: Path) -> int:
    from .app import parse_keymap, run_app

    return run_app(path, keymap=parse_keymap(os.environ.get("MEMVAULT_KEYMAP")))


def cmd_tui(args: argparse.Namespace) -> int:
    from .cli import _require_vault, vault_path

    path = vault_path(args)
    _require_vault(path)
    return launch(path)


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import build_demo

    path = Path(args.dir).expanduser() if args.dir else Path(
        tempfile.mkdtemp(prefix="memvault-demo-"))
    print(f"building a demo vault in {path} …", file=sys.stderr, flush=True)
    report = build_demo(path)
    print(f"{report.memories} memories ({report.archived} archived, {report.promoted} promoted), "
          f"{report.splits} splits and {report.consolidations} merges, all in git: "
          f"{report.path}")
    print(f"open it again with: memvault --vault {report.path}")
    if args.no_open or not interactive():
        return 0
    return launch(report.path)


def register(verb: Verb) -> None:
    verb("tui", cmd_tui)
    p = verb("demo", cmd_demo)
    p.add_argument("dir", nargs="?", metavar="DIR",
                   help="a new or empty folder for the demo vault (default: a new temporary "
                        "folder)")
    p.add_argument("--no-open", action="store_true", help="build it, do not open the app")
