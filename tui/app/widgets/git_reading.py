"""How a pane that reads git (provenance, history) loads itself: :class:`GitReading`, the part
each such pane is built with. The pane owns a reactive ``memory_id``; set, the part reads that
memory's record (through the reader the pane was given: the service's) in a worker of the
pane's own, and hands what it read back to the pane, unless a later memory was asked for since."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, cast

from textual.message import Message
from textual.widget import Widget

from core import VaultError


class GitRead(Message, bubble=False):
    """(To the pane itself.) What a reading worker read for ``memory_id``, or why it could not."""

    def __init__(self, memory_id: str, found: Any, error: str | None = None) -> None:
        super().__init__()
        self.memory_id = memory_id
        self.found = found
        self.error = error


class ReadingPane(Protocol):
    """What :class:`GitReading` asks of its pane (a widget with a reactive ``memory_id``)."""

    memory_id: str | None

    def show_message(self, message: str) -> None: ...
    def show_loading(self, memory_id: str) -> None: ...


class GitReading:
    """Reads for ``pane`` (whose ``memory_id`` says what it wants) with ``read`` in a worker
    (``group``: a newer read replaces an older one). Owns whether what the pane shows is stale
    (the vault changed since it was read); ``empty``: what the pane says with no memory."""

    def __init__(self, pane: Widget, read: Callable[[str], Any] | None, group: str,
                 empty: str) -> None:
        self.pane = pane
        self.read = read
        self.group = group
        self.empty = empty
        self.stale = False

    def follow(self, memory_id: str | None) -> None:
        """The pane's ``memory_id`` became ``memory_id``: say there is none, or read it."""
        pane = cast(ReadingPane, self.pane)
        if memory_id is None:
            pane.show_message(self.empty)
        else:
            pane.show_loading(memory_id)
            self.start(memory_id)

    def want(self, memory_id: str | None) -> None:
        """Show ``memory_id``: read it when it is another memory, or the vault changed."""
        pane = cast(ReadingPane, self.pane)
        if memory_id != pane.memory_id:
            pane.memory_id = memory_id  # (its watcher calls :meth:`follow`)
        elif memory_id is not None and self.stale:
            self.follow(memory_id)

    def start(self, memory_id: str) -> None:
        """Read ``memory_id`` in a worker; :class:`GitRead` comes back to the pane."""
        self.stale = False
        if self.read is None:  # (a pane made without a reader shows what it is handed)
            return
        self.pane.run_worker(partial(self.run, memory_id), thread=True, group=self.group,
                             exclusive=True, exit_on_error=False)

    def run(self, memory_id: str) -> None:
        """(In a worker.)"""
        assert self.read is not None
        try:
            found = self.read(memory_id)
        except VaultError as exc:
            self.pane.post_message(GitRead(memory_id, None, str(exc)))
            return
        self.pane.post_message(GitRead(memory_id, found))

    def current(self, message: GitRead) -> bool:
        """Is ``message`` what the pane wants now (not an older memory's read)?"""
        return message.memory_id == getattr(self.pane, "memory_id", None)
