"""The relations of a big vault loaded by a child process while the open loads the memories,
on the second core (at 100k memories, half a second of an open that reads every file): for a
read-only open that keeps the bytes it reads (``memvault reindex``); one that keeps none leaves
a big relations folder unread until relations are used (:mod:`core.vault.loading`).

The child runs :meth:`core.store.layout.Layout.load_folder`, the very loader an open runs, and
sends back what it found (``marshal`` on its standard output): each record that loaded, as its
id and its file's bytes; the files it could not load, with the reason; the ``(mtime, size)`` it
saw of each. The open then holds those records as their bytes, each parsed when first read
(:meth:`core.store.cache.Store.fill_loaded`: bytes the same model found valid), and reports the
problems as its own. Anything else (no child, a child that fails, output that is not what it
sends) means the open loads the folder itself, as without a child.

The child is a fork of the opening process (:mod:`.forked`: it starts in milliseconds, memvault
already loaded), made only where that is safe: on Linux, from a process with one thread (the
command line's opens; the app and the MCP server open with threads running and load the folder
themselves).
"""

from __future__ import annotations

import marshal
import os
from dataclasses import dataclass
from pathlib import Path

from . import forked
from .record_loading import LoadProblem

#: A relations folder with at least this many entries is loaded by a child (below, starting
#: Python takes longer than loading it).
CHILD_FROM = 10_000


def is_big(folder: Path) -> bool:
    """Whether the relations folder has :data:`CHILD_FROM` entries or more (reading it costs a
    big vault's open a noticeable part of its time: loaded by a child, or left unread by a
    read-only open until relations are used, :mod:`core.vault.loading`)."""
    try:
        with os.scandir(folder) as entries:
            return sum(1 for _ in entries) >= CHILD_FROM
    except OSError:
        return False


@dataclass
class LoadedElsewhere:
    """What the child loaded: id -> bytes of each valid record, the problems, and the files'
    ``(mtime_ns, size)`` by path."""

    records: dict[str, bytes]
    problems: list[LoadProblem]
    seen: dict[str, tuple[int, int]]

    def kept(self) -> dict[str, bytes]:
        """The same bytes by vault path (as an open's ``keep``)."""
        from .layout import RELATIONS_DIR, SUFFIX

        return {f"{RELATIONS_DIR}/{i}{SUFFIX}": data for i, data in self.records.items()}


class RelationsInChild:
    """The relations folder ``folder`` of the vault at ``root``, loaded by a child forked here
    when ``enabled``, it has :data:`CHILD_FROM` entries or more and forking is safe
    (:attr:`started`)."""

    def __init__(self, root: Path, folder: Path, *, enabled: bool = True):
        self._work: forked.ForkedWork | None = None
        if not enabled or not forked.fork_is_safe() or not is_big(folder):
            return
        work = forked.ForkedWork(lambda: load(root))
        self._work = work if work.started else None

    @property
    def started(self) -> bool:
        return self._work is not None and self._work.started

    @property
    def pid(self) -> int | None:
        """The child's process id until it is reaped."""
        return None if self._work is None else self._work.pid

    def result(self) -> LoadedElsewhere | None:
        """What the child loaded, once it is done; None when it failed (the caller loads the
        folder itself)."""
        work, self._work = self._work, None
        output = None if work is None else work.result()
        if not output:
            return None
        try:
            records, problems, seen = marshal.loads(output)
            return LoadedElsewhere(records,
                                   [LoadProblem(Path(path), reason) for path, reason in problems],
                                   seen)
        except (ValueError, TypeError, EOFError):
            return None

    def stop(self) -> None:
        """End the child, its result unused (nothing when it was reaped)."""
        work, self._work = self._work, None
        if work is not None:
            work.stop()


def load(root: Path) -> bytes:
    """The child's work: the relations folder loaded as an open loads it, as ``marshal``
    bytes."""
    from .layout import RELATIONS_DIR, SUFFIX, Layout

    layout = Layout(root)
    kept: dict[str, bytes] = {}
    records, problems = layout.load_folder("relation", kept)
    raw = {r.id: kept[f"{RELATIONS_DIR}/{r.id}{SUFFIX}"] for r in records}
    return marshal.dumps((raw, [(str(p.path), p.reason) for p in problems],
                          dict(layout.seen)))
