"""The vault as Anthropic's memory tool (``memory_20250818``): Claude's ``/memories`` folder, each
file a memory, each write one commit in the review inbox (docs/anthropic-memory-tool.md).

    from tui.memory_tool import VaultMemoryTool
    memory = VaultMemoryTool("~/memvault")
    runner = client.beta.messages.tool_runner(model=..., max_tokens=..., tools=[memory], messages=...)

Needs the ``anthropic`` package (``pip install 'memvault[anthropic]'``); imported only by a
program that uses it: core, the command line, the app and the MCP server never import it.
``paths.py`` reads a path, ``tree.py`` lays the vault out as files, ``answers.py`` words the
answers as the SDK's own backend does, ``backend.py`` runs the commands on the vault and
``tools.py`` is the SDK's seam."""

from .backend import DEFAULT_VIA, VaultMemory
from .paths import PATH_KEY
from .tools import AsyncVaultMemoryTool, VaultMemoryTool

__all__ = ["DEFAULT_VIA", "PATH_KEY", "AsyncVaultMemoryTool", "VaultMemory", "VaultMemoryTool"]
