"""The named points of a write where a failure can strike (``write``, ``commit-tree``,
``update-ref``, ``index``, ``rollback``, ``recover``, ``advance-read-tree``...): each part of the
journal reports reaching one to the journal's :class:`FaultPoints`. Nothing listens in normal
use; the crash tests set :attr:`FaultPoints.hook` to raise (or kill the process) at a named
point and check that nothing is lost."""

from __future__ import annotations

from collections.abc import Callable


class FaultPoints:
    """Where a write has got to, told to ``hook`` when one is set."""

    def __init__(self, hook: Callable[[str], None] | None = None):
        self.hook = hook

    def reached(self, step: str) -> None:
        if self.hook is not None:
            self.hook(step)
