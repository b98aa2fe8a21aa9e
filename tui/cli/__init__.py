"""The ``memvault`` command line, on click: a root group whose verbs live one group a module
(:mod:`.records`, :mod:`.undo`, :mod:`.lifecycle`, :mod:`.gists`, :mod:`.migrate`, :mod:`.sync`,
:mod:`.app`), listed in :mod:`.verbs` and imported only when that verb runs. ``memvault`` alone
opens the app on a terminal and prints an overview elsewhere.

Exit status: 0 on success, 1 on a refusal (unknown id, ambiguous prefix, refused input, lock
timeout; one line on stderr, ``memvault: error: ...``), 2 on a usage error; ``scan`` exits 1
when it finds a secret.

Nothing from a vault reaches the terminal as a control sequence: :func:`main` runs every command
with ``sys.stdout``/``sys.stderr`` behind :func:`tui.terminal.neutralised_output` (ESC shown as
``\\x1b``...), rich consoles neutralise what they print, and JSON has DEL and C1 escaped
(:func:`tui.terminal.json_text`). The vault's files keep the exact text.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from core import UnknownIdError, VaultError

from ..terminal import neutralised_output
from .common import (CONTEXT, PROG, REGISTRY, UserError, allow_secret_option, print_notices,
                     stderr, vault_option)
from .verbs import VERB_HELP, VERBS

__all__ = ["VERB_HELP", "main", "memvault"]


class VerbGroup(click.Group):
    """The root group: verbs from :data:`~tui.cli.verbs.VERBS`, each module imported on use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(VERBS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in VERBS:
            return None
        importlib.import_module(f"{__name__}.{VERBS[name][0]}")
        return REGISTRY[name]

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """click's own, with the verbs a typo was likely meant to be (``serach``: search)."""
        name = click.utils.make_str(args[0])
        if name not in VERBS and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, list(VERBS), n=3, cutoff=0.6)
            if close:
                meant = " or ".join(repr(c) for c in close)
                ctx.fail(f"no verb {name!r}; did you mean {meant}? (memvault -h lists the verbs)")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Verbs"):  # from the table: no verb module is imported
            formatter.write_dl(list(VERB_HELP.items()))


@click.group(cls=VerbGroup, invoke_without_command=True, context_settings=CONTEXT,
             subcommand_metavar="[VERB] [ARGS]...",
             epilog="The vault is --vault DIR, else $MEMVAULT_PATH, else "
                    "CortexGraph's storage path ($CORTEXGRAPH_STORAGE_PATH, or in its .env "
                    "file), else a per-user data folder "
                    "($XDG_DATA_HOME/memvault/vault). `memvault VERB -h` explains a verb.")
@vault_option
@allow_secret_option
@click.version_option(version=None, package_name="memvault", prog_name=PROG,
                      message="%(prog)s %(version)s")
@click.pass_context
def memvault(ctx: click.Context) -> int:
    """A git-backed per-file memory vault: every change is one git commit."""
    if ctx.invoked_subcommand is not None:
        return 0
    return run_default()


def run_default() -> int:
    """``memvault`` with no verb: the app on a terminal (when the vault exists), else an
    overview of the vault and the verbs."""
    from . import app, common

    path = common.vault_path()
    if app.interactive() and common.vault_exists(path):
        return app.launch(path)
    if common.vault_exists(path):
        from .overview import print_overview

        print_overview(path)
    else:
        print(f"no vault at {path} yet (`memvault init` makes it)")
    print()
    print("verbs:")
    for name, help_text in VERB_HELP.items():
        print(f"  {name:<16} {help_text}")
    print()
    print(f"`{PROG} VERB -h` explains a verb; `{PROG} --vault DIR VERB` picks another vault.")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one ``memvault`` command; returns the exit status (2 on a usage error). Everything
    it prints goes through :func:`tui.terminal.neutralised_output`."""
    with neutralised_output():
        try:
            return _run(sys.argv[1:] if argv is None else list(argv))
        finally:
            print_notices()


def _usage_error(exc: click.UsageError) -> int:
    usage = exc.ctx.get_usage() if exc.ctx is not None else f"Usage: {PROG} [OPTIONS] VERB"
    print("usage:" + usage.split(":", 1)[1] if usage.startswith("Usage:") else usage,
          file=sys.stderr)
    command = exc.ctx.command_path if exc.ctx is not None else PROG
    print(f"Try '{command} -h' for help.", file=sys.stderr)
    stderr("error", exc.format_message())
    return 2


def _run(argv: list[str]) -> int:
    from .common import deleted_hint, read_plainly, say_deferred_notes, start_command

    start_command()
    error: str | None = None
    try:
        return _run_verb(argv)
    except (VaultError, UserError) as exc:
        error = str(exc)
        if isinstance(exc, UnknownIdError):
            error += deleted_hint(exc)
        stderr("error", error)
        return 1
    finally:
        say_deferred_notes(error)
        read_plainly(False)  # (records are models again: a caller may write next)


def _run_verb(argv: list[str]) -> int:
    try:
        code = memvault.main(argv, prog_name=PROG, standalone_mode=False)
    except click.UsageError as exc:
        return _usage_error(exc)
    except click.ClickException as exc:  # a bad file argument...
        stderr("error", exc.format_message())
        return exc.exit_code
    except BrokenPipeError:  # `memvault list | head`
        try:  # keep Python's exit-time flush from raising again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except OSError as exc:
        stderr("error", str(exc))
        return 1
    except (KeyboardInterrupt, click.Abort):
        print(file=sys.stderr)
        return 130
    return code if isinstance(code, int) else 0
