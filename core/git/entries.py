"""What the journal reads out of git: history entries, commits with their file changes, tree
changes and merge results; and the commit-message helpers (trailers, the leading verb)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    pass

VIA_TRAILER = "Memvault-Via"  # who made a commit through which door: ``mcp/<client name>``
TOOL_TRAILER = "Memvault-Tool"  # which MCP tool made it (``save_memory``...)


def with_trailer(message: str, key: str, value: str) -> str:
    """``message`` with the git trailer ``key: value`` added to its trailer block (a last
    paragraph made only of ``Key: value`` lines), or in a new one."""
    body = message.rstrip("\n")
    paragraphs = body.split("\n\n")
    last = paragraphs[-1].splitlines() if len(paragraphs) > 1 else []
    is_block = bool(last) and all(
        ":" in line and line.split(":", 1)[0].replace("-", "").isalnum() for line in last)
    return f"{body}\n{key}: {value}" if is_block else f"{body}\n\n{key}: {value}"


def commit_message(message: str, via: str | None, tool: str | None) -> str:
    """A commit's message as the journal records it: control characters neutralised, ``via``
    and ``tool`` as the trailers ``Memvault-Via`` and ``Memvault-Tool``."""
    from ..textutil import neutralise_controls, neutralise_line

    message = neutralise_controls(message, single_line=False)
    if via:
        message = with_trailer(message, VIA_TRAILER, neutralise_line(via))
    if tool:
        message = with_trailer(message, TOOL_TRAILER, neutralise_line(tool))
    return message


def trailer_of(message: str, key: str) -> str | None:
    """The value of the git trailer ``key`` in ``message`` (its last paragraph, where
    :func:`with_trailer` puts trailers; the first such line), or None."""
    paragraphs = message.strip().split("\n\n")
    if len(paragraphs) < 2:
        return None
    for line in paragraphs[-1].splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() == key:
            return value.strip()
    return None


def operation_of(message: str) -> str:
    """A commit message's leading verb (``archive: ...`` -> ``archive``), or "" if it has none."""
    head, sep, _ = message.partition(":")
    return head if sep and " " not in head else ""


@dataclass(frozen=True)
class HistoryEntry:
    """One commit in the life of a vault file."""

    commit: str
    timestamp: int
    author: str
    message: str
    action: str  # "created", "changed", "moved" (to the other layout's path) or "deleted"

    @property
    def operation(self) -> str:
        """The commit message's leading verb (``archive``, ``gc``, ...)."""
        return operation_of(self.message)


@dataclass(frozen=True)
class FileChange:
    """One vault file changed by a commit (``status`` A, M or D; blob ids None when absent)."""

    status: str
    path: str  # relative to the vault root
    old_blob: str | None
    new_blob: str | None


@dataclass(frozen=True)
class CommitChanges:
    """A commit and the vault files it changed (see
    :meth:`.reading.HistoryReader.commits_with_changes`)."""

    commit: str
    parents: tuple[str, ...]
    timestamp: int
    author: str
    message: str
    changes: tuple[FileChange, ...]

    @property
    def operation(self) -> str:
        return operation_of(self.message)



@dataclass
class TreeChange:
    """One path's change between two trees: (mode, object id) before and after (None: absent)."""

    old: tuple[str, str] | None
    new: tuple[str, str] | None
    status: str  # A, M, D, T


@dataclass
class MergeTreeResult:
    tree: str
    conflicts: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)

