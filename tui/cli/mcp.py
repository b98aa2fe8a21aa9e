"""``memvault mcp``: serve the vault to an assistant over MCP (stdio, or Streamable HTTP with
``--http``), with CortexGraph's tools; ``memvault mcp token [--rotate]`` shows (or replaces) the
HTTP door's bearer token. The ``mcp`` package and :mod:`tui.mcp` are imported only here, inside
the commands (its import is a start-up cost no other verb pays; the token command does not
import it)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from core.vault.creating import check_new_vault

from ..terminal import underlying
from .common import (AT_DEFAULT, CONTEXT, REGISTRY, UserError, is_terminal, json_option,
                     may_create, print_json, require_vault, stderr, vault_exists, vault_option,
                     vault_path)
from .verbs import VERB_HELP

MORE_HELP = """Speaks MCP on stdin/stdout until the client closes the connection; notes go to stderr.
A vault that does not exist yet is made at the first write (not with --read-only) at the
default folder, or at the folder --vault or MEMVAULT_PATH names only with --create (else it
refuses to start: `memvault init` makes it), never inside another git repository. Commits
carry the trailer `Memvault-Via: mcp/<client name>`. Connect it, for example:
`claude mcp add memvault -- memvault mcp --vault ~/memories` (docs/mcp-clients.md).

With --http [HOST:]PORT it serves http://HOST:PORT/mcp instead (127.0.0.1 unless HOST is given;
port 0 picks a free one), until ctrl+c: every request needs the bearer token of `memvault mcp
token`, made at the first start."""


@click.group("mcp", invoke_without_command=True, context_settings=CONTEXT,
             help=VERB_HELP["mcp"] + "\n\n" + MORE_HELP, short_help=VERB_HELP["mcp"],
             subcommand_metavar="[token [--rotate]]")
@vault_option
@click.option("--read-only", "read_only", is_flag=True,
              help="serve reads only: every tool that writes is refused, nothing is written")
@click.option("--http", "http", metavar="[HOST:]PORT",
              help="serve over Streamable HTTP at http://HOST:PORT/mcp (bearer token required)")
@click.option("--allow-remote", "allow_remote", is_flag=True,
              help="with --http: allow an address other machines can reach (needs a token made "
                   "beforehand with `memvault mcp token`)")
@click.option("--allow-origin", "allowed_origins", multiple=True, metavar="ORIGIN",
              help="with --http: a browser origin allowed to call (scheme://host[:port]); "
                   "repeatable; others get 403")
@click.pass_context
def mcp(ctx: click.Context, read_only: bool, http: str | None, allow_remote: bool,
        allowed_origins: tuple[str, ...]) -> int:
    if ctx.invoked_subcommand is not None:
        return 0
    if http is None and (allow_remote or allowed_origins):
        raise click.UsageError("--allow-remote and --allow-origin go with --http")
    path = vault_path()
    if read_only:
        require_vault(path)
    elif path.exists() and not path.is_dir():
        raise UserError(f"{path} is not a folder")
    elif not vault_exists(path):  # the first save_memory would make it: refuse a wrong path now
        if not may_create(AT_DEFAULT):
            require_vault(path, writing=True)
        check_new_vault(path.resolve(), create=True)  # (the open at that write checks again)
    if http is not None:
        return _serve_http(path, read_only, http, allow_remote, list(allowed_origins))
    if is_terminal(sys.stdin):
        stderr("note", f"serving {path} over MCP on stdin/stdout: an MCP client starts this "
                       "(see docs/mcp-clients.md); ctrl+d ends it")
    from tui.mcp.server import run

    saved = sys.stdout
    sys.stdout = underlying(saved)  # the wire itself (JSON-RPC to a client), not a terminal
    try:
        run(path, read_only=read_only)
    finally:
        sys.stdout = saved
    return 0


def _serve_http(path: Path, read_only: bool, address: str, allow_remote: bool,
                allowed_origins: list[str]) -> int:
    from tui.mcp.http import HttpSettings, check_settings, parse_address
    from tui.mcp.server import run

    settings = HttpSettings(parse_address(address), allow_remote=allow_remote,
                            allowed_origins=allowed_origins)
    if check_settings(settings):
        stderr("note", f"made the MCP bearer token ({settings.token_file}): "
                       "`memvault mcp token` shows it")
    run(path, read_only=read_only, http=settings)
    return 0


@mcp.command("token", context_settings=CONTEXT)
@click.option("--rotate", is_flag=True,
              help="replace the token: clients holding the old one are refused at once")
@json_option
def token(rotate: bool, as_json: bool) -> int:
    """Show the bearer token `memvault mcp --http` requires (made now if there is none), for
    a client's `Authorization: Bearer TOKEN` header; --rotate replaces it."""
    from tui.mcp.bearer import ensure_token, token_path, write_token

    path = token_path()
    if rotate:
        value, made = write_token(path), True
    else:
        value, made = ensure_token(path)
    if as_json:
        print_json({"token": value, "path": str(path), "made": made})
    else:
        print(value)
        if made and is_terminal(sys.stderr):
            stderr("note", f"{'new token' if rotate else 'made the token'}, kept in {path}")
    return 0


REGISTRY["mcp"] = mcp
