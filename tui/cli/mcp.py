"""``memvault mcp``: serve the vault to an assistant over MCP (stdio), with CortexGraph's tools.
The ``mcp`` package and :mod:`tui.mcp` are imported only here, inside the command (the package
costs ~0.65 s of start-up that no other verb pays)."""

from __future__ import annotations

import sys

import click

from ..terminal import underlying
from .common import UserError, is_terminal, require_vault, stderr, vault_path, verb


@verb("mcp")
@click.option("--read-only", "read_only", is_flag=True,
              help="serve reads only: every tool that writes is refused, nothing is written")
def mcp(read_only: bool) -> int:
    """Speaks MCP on stdin/stdout until the client closes the connection; notes go to stderr.
    The vault is created at the first write if it does not exist (not with --read-only). Commits
    carry the trailer `Memvault-Via: mcp/<client name>`. Connect it, for example:
    `claude mcp add memvault -- memvault mcp --vault ~/memories`."""
    path = vault_path()
    if read_only:
        require_vault(path)
    elif path.exists() and not path.is_dir():
        raise UserError(f"{path} is not a folder")
    if is_terminal(sys.stdin):
        stderr("note", f"serving {path} over MCP on stdin/stdout: an MCP client starts this "
                       "(see docs/mcp.md); ctrl+d ends it")
    from tui.mcp.server import run

    saved = sys.stdout
    sys.stdout = underlying(saved)  # the wire itself (JSON-RPC to a client), not a terminal
    try:
        run(path, read_only=read_only)
    finally:
        sys.stdout = saved
    return 0
