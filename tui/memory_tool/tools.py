"""The vault as Anthropic's memory tool (``memory_20250818``): :class:`VaultMemoryTool` for
``client.beta.messages.tool_runner`` and :class:`AsyncVaultMemoryTool` for the async client,
both on the SDK's own seam (``BetaAbstractMemoryTool``: its ``execute`` dispatches each command
to the method of its name) and on one :class:`~tui.memory_tool.backend.VaultMemory`."""

from __future__ import annotations

from pathlib import Path

from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
from anthropic.types.beta import (
    BetaCacheControlEphemeralParam,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from anyio import to_thread

from core import Vault

from .backend import DEFAULT_VIA, VaultMemory, open_vault


class VaultMemoryTool(BetaAbstractMemoryTool):
    """Claude's ``/memories`` folder on the vault ``vault`` (a :class:`core.Vault`, or the path
    of one, opened for writing; ``None``: ``$MEMVAULT_PATH``, else memvault's default folder).
    Every write is one commit carrying ``Memvault-Via: <via>``. A vault the tool opened is
    closed by :meth:`close` (or ``with``)."""

    def __init__(self, vault: Vault | str | Path | None = None, *, via: str = DEFAULT_VIA,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        opened, self._owned = open_vault(vault, via)
        self.memory = VaultMemory(opened, via=via)

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        """A folder's files (2 levels deep, with sizes) or a file's numbered lines."""
        return self.memory.view(command.path, command.view_range)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        """A new memory at the path (refused when one is there)."""
        return self.memory.create(command.path, command.file_text)

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        """The one occurrence of ``old_str`` replaced."""
        return self.memory.str_replace(command.path, command.old_str, command.new_str)

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        """A line inserted after line ``insert_line``."""
        return self.memory.insert(command.path, command.insert_line, command.insert_text)

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        """The file's memory (or the folder's) archived: nothing is lost."""
        return self.memory.delete(command.path)

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        """The file (or folder) at a new path; the memories keep their ids."""
        return self.memory.rename(command.old_path, command.new_path)

    def close(self) -> None:
        """Close the vault if this tool opened it."""
        if self._owned:
            self.memory.close()

    def __enter__(self) -> VaultMemoryTool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncVaultMemoryTool(BetaAsyncAbstractMemoryTool):
    """:class:`VaultMemoryTool` for ``AsyncAnthropic``: each command runs in a worker thread
    (the vault's reads and commits block), one at a time."""

    def __init__(self, vault: Vault | str | Path | None = None, *, via: str = DEFAULT_VIA,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        opened, self._owned = open_vault(vault, via)
        self.memory = VaultMemory(opened, via=via)

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        """As :meth:`VaultMemoryTool.view`."""
        return await to_thread.run_sync(self.memory.view, command.path, command.view_range)

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        """As :meth:`VaultMemoryTool.create`."""
        return await to_thread.run_sync(self.memory.create, command.path, command.file_text)

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        """As :meth:`VaultMemoryTool.str_replace`."""
        return await to_thread.run_sync(self.memory.str_replace, command.path, command.old_str,
                                        command.new_str)

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        """As :meth:`VaultMemoryTool.insert`."""
        return await to_thread.run_sync(self.memory.insert, command.path, command.insert_line,
                                        command.insert_text)

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        """As :meth:`VaultMemoryTool.delete`."""
        return await to_thread.run_sync(self.memory.delete, command.path)

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        """As :meth:`VaultMemoryTool.rename`."""
        return await to_thread.run_sync(self.memory.rename, command.old_path, command.new_path)

    def close(self) -> None:
        """Close the vault if this tool opened it."""
        if self._owned:
            self.memory.close()

    async def __aenter__(self) -> AsyncVaultMemoryTool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()
