"""Moving a vault's memories into the other layout (``memvault migrate-layout``): ONE commit that
renames every memory file (its bytes unchanged, so git sees pure renames and a clone that edited
a memory meanwhile merges the edit into the new path) and records the layout in ``.meta.json``.
A memory's history follows it: :meth:`History.history` reads both of its paths."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import VaultError
from ..store.layout import LoadProblem, RefusedFileError, read_vault_file
from ..store.shards import FLAT, LAYOUT_KEY, LAYOUTS, SHARD_SUGGESTED_ABOVE, SHARDED, is_shard_name
from .state import VaultState

if TYPE_CHECKING:
    from .writing import WritePath


@dataclass
class LayoutReport:
    """What ``migrate_layout`` did."""

    before: str  # the layout .meta.json named
    after: str
    moved: int = 0  # memory files renamed
    set_aside: list[str] = field(default_factory=list)  # second copies put in the quarantine
    left: list[str] = field(default_factory=list)  # unreadable files left where they are
    commit: str | None = None  # None: nothing to do


def suggested_layout(count: int) -> str:
    """The layout for a vault of ``count`` memories: sharded above
    :data:`~core.store.shards.SHARD_SUGGESTED_ABOVE`."""
    return SHARDED if count > SHARD_SUGGESTED_ABOVE else FLAT


class Relayout:
    """``migrate_layout``: every memory of the vault whose cache is ``state`` into one layout,
    one commit through ``writes``."""

    def __init__(self, state: VaultState, writes: WritePath) -> None:
        self.state = state
        self.writes = writes

    def migrate_layout(self, to: str = SHARDED) -> LayoutReport:
        """Move every memory's file to the path layout ``to`` gives it and record ``to`` in
        ``.meta.json``, as one commit (``layout: flat -> sharded (N memories moved)``). Also
        tidies a vault already in ``to``: files at the other layout's path are moved, and of
        two files for one id the one loaded stays while the other is set aside in the
        quarantine first (:meth:`~core.vault.writing.WritePath.commit`). Unreadable files stay
        where they are."""
        if to not in LAYOUTS:
            raise VaultError(f"unknown layout {to!r}: choose {' or '.join(LAYOUTS)}")
        state, writes = self.state, self.writes
        layout, root = state.layout, state.root
        with writes.transaction():
            report = LayoutReport(layout.name, to)
            files: dict[Path, bytes | None] = {}
            for memory_id in sorted(state.store.memories):
                target = layout.memory_path(memory_id, to)
                found = [p for p in layout.memory_paths(memory_id) if os.path.lexists(p)]
                if found == [target]:
                    continue
                source = self._loaded_copy(memory_id, found)
                if source is None:
                    continue  # its files changed since they were read: left for the next run
                files[target] = source[1]
                for path in found:
                    if path != target:
                        files[path] = None
                    if path != source[0]:  # a second copy: into the quarantine, then removed
                        report.set_aside.append(path.relative_to(root).as_posix())
                        if all(p.path != path for p in state.problems):
                            state.problems.append(LoadProblem(
                                path, f"a second file for memory {memory_id} (not the one loaded)"))
                report.moved += source[0] != target
            report.left = sorted(p.path.relative_to(root).as_posix() for p in state.problems
                                 if p.path not in files
                                 and p.path.is_relative_to(layout.memories_dir))
            if not files and report.before == to:
                return report
            files.update(writes.meta_write(**{LAYOUT_KEY: to}))
            noun = "memory" if report.moved == 1 else "memories"
            message = (f"layout: {report.before} -> {to} ({report.moved:,} {noun} moved)"
                       if report.before != to else
                       f"layout: {report.moved:,} {noun} moved into the {to} layout")
            report.commit = writes.commit(message, files)
        if to == FLAT:  # git keeps no folders: the emptied shard folders go
            for entry in os.scandir(layout.memories_dir):
                if is_shard_name(entry.name) and entry.is_dir(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.rmdir(entry.path)
        return report

    def _loaded_copy(self, memory_id: str, found: list[Path]) -> tuple[Path, bytes] | None:
        """The file (and its bytes, as they are) of the memory the cache holds, among ``found``."""
        cached = self.state.store.memories[memory_id]
        for path in found:
            if len(found) > 1:
                record, _ = self.state.layout.load_file(path, "memory")
                if record != cached:
                    continue
            try:
                data, _ = read_vault_file(path)
            except (FileNotFoundError, RefusedFileError):
                continue
            return path, data
        return None
