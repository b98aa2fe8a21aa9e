"""What the memory tool's tests share: the SDK's own command objects, and running one through a
tool's ``execute`` dispatch to its answer or its ToolError's message."""

from __future__ import annotations

from typing import Any

from anthropic.lib.tools import ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

_COMMANDS: dict[str, Any] = {
    "view": BetaMemoryTool20250818ViewCommand,
    "create": BetaMemoryTool20250818CreateCommand,
    "str_replace": BetaMemoryTool20250818StrReplaceCommand,
    "insert": BetaMemoryTool20250818InsertCommand,
    "delete": BetaMemoryTool20250818DeleteCommand,
    "rename": BetaMemoryTool20250818RenameCommand,
}


def command(name: str, **fields: Any) -> Any:
    """The SDK's command object (validated, as the SDK builds it from Claude's tool use)."""
    return _COMMANDS[name](command=name, **fields)


def answer(tool: Any, name: str, **fields: Any) -> str:
    """``tool.execute`` of the command: its answer, or ``"ToolError: <message>"``."""
    try:
        return tool.execute(command(name, **fields))
    except ToolError as exc:
        return f"ToolError: {exc}"


async def answer_async(tool: Any, name: str, **fields: Any) -> str:
    """:func:`answer` for an async tool."""
    try:
        return await tool.execute(command(name, **fields))
    except ToolError as exc:
        return f"ToolError: {exc}"
