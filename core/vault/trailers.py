"""Who writes, on each commit of a write path: its own module, so that the vault can hold them
from the moment it is made without importing the write path (:mod:`.writing`), which a
read-only open never uses."""

from __future__ import annotations


class Trailers:
    """Who writes: ``via`` the door (``mcp/<client>``), ``tool`` which of its tools
    (``save_memory``); the commit's trailers (see :data:`core.git.journal.VIA_TRAILER`).
    Immutable: a write path made with them carries them to each of its commits. (A plain class:
    a dataclass or a NamedTuple costs every program that imports core its making.)"""

    __slots__ = ("via", "tool")
    via: str | None
    tool: str | None

    def __init__(self, via: str | None = None, tool: str | None = None) -> None:
        object.__setattr__(self, "via", via)
        object.__setattr__(self, "tool", tool)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Trailers are immutable (cannot set {name})")
