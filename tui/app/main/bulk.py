"""The main screen's operations on the marked memories, or on the highlighted one when nothing
is marked: archive (``a``; all archived already: unarchive), delete (``x``, asks first, listing
them), tag and untag (``T``, asks for the tag), promote (``P``), touch (``t``). Each is ONE
commit (the service's list-taking methods, :mod:`tui.app.service_bulk`); the marks of the
memories it acted on are cleared once it succeeded. (Consolidate, ``M``, takes the marked
memories as its members: operations.py.)"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

from textual.binding import Binding

from core import MemoryStatus, VaultError

from ..messages import MemoriesChanged, OperationFailed
from ..service import Change, VaultService
from .operations import ChangeRunner
from .tree import MainTree
from .vault_screen import VaultScreen

#: The keys of this part (``a`` and ``x`` are the screen's first bindings)
BULK_BINDINGS = [
    Binding("u", "undo_list", "Undo list", show=False, id="memvault.undo_list"),
    Binding("t", "touch", "Touch", show=False, id="memvault.touch"),
    Binding("P", "promote", "Promote", show=False, id="memvault.promote"),
    Binding("T", "tag", "Tag / untag", show=False, id="memvault.tag"),
]


class BulkOperations:
    """The operations on the marked memories of ``screen``'s tree (else on the one ``runner``
    says an operation may act on), through ``service``, in the screen's workers; their rows
    are dimmed at once (the runner's ``pending``), and once one succeeded, the memories it
    acted on lose their marks."""

    def __init__(self, screen: VaultScreen, service: VaultService, runner: ChangeRunner) -> None:
        self.screen = screen
        self.service = service
        self.runner = runner

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    def targets(self) -> list[str] | None:
        """The marked memories still in the vault (in the order they were marked), else the
        highlighted one; None (and a warning) when there is neither."""
        view = self.screen.view
        marked = [i for i in self.tree.marks if view is not None and i in view.rows]
        if marked:
            return marked
        memory_id = self.runner.need_memory()
        return [memory_id] if memory_id is not None else None

    def run(self, operation: Callable[[], Change], ids: list[str],
            stay_key: str | None = None, doing: str = "saving") -> None:
        """Run ``operation`` (a service call) in a worker, started once their rows are drawn
        dimmed; once it succeeded, unmark ``ids``.
        ``stay_key``: the tree row the cursor goes to afterwards (instead of following the
        memory). Until then their rows are dimmed and the tree's title says ``doing``."""
        self.runner.pending.start(doing, ids)
        self.runner.pending.then(partial(self.screen.run_worker,
                                         partial(self.change, operation, ids, stay_key),
                                         thread=True, group="write", exit_on_error=False))

    def change(self, operation: Callable[[], Change], ids: list[str],
               stay_key: str | None) -> None:
        """(In a worker.)"""
        try:
            change = operation()
        except VaultError as exc:
            self.screen.app.call_from_thread(self.runner.pending.refused)
            self.screen.post_message(OperationFailed(str(exc)))
            return
        if stay_key is not None:
            change = dataclasses.replace(change, focus=None, stay_key=stay_key)
        self.screen.app.call_from_thread(self.unmark, ids)
        self.screen.post_message(MemoriesChanged(change))

    def unmark(self, ids: list[str]) -> None:
        """The memories an operation acted on lose their marks (the titles follow the tree)."""
        self.tree.clear_marks(ids)

    def next_row_key(self, leaving: list[str]) -> str | None:
        """The tree row that takes the highlighted one's place when ``leaving`` leave its group
        (archived, deleted): the next memory row of the same group, else the one before, else
        the group itself. The cursor stays there, as in lazygit and Anki, rather than following
        the memory into another group far away."""
        tree = self.tree
        cursor = tree.cursor_node
        if cursor is None or cursor.data is None or cursor.data.memory_id is None:
            return None
        gone = set(leaving)
        parent = cursor.parent
        siblings = list(parent.children) if parent is not None else []
        index = siblings.index(cursor) if cursor in siblings else -1
        for node in [*siblings[index + 1:], *reversed(siblings[:max(index, 0)])]:
            data = node.data
            if data is not None and data.kind == "memory" and data.memory_id not in gone:
                return data.key
        if parent is not None and parent.data is not None:
            return parent.data.key
        return None

    def action_archive(self) -> None:
        ids = self.targets()
        if ids is not None:
            stay = self.next_row_key(ids) if self.tree.display else None
            view = self.screen.view
            again = view is not None and all(
                i in view.rows and view.rows[i].brief.status == MemoryStatus.ARCHIVED for i in ids)
            self.run(lambda: self.service.bulk.archive_many(ids), ids, stay,
                     "unarchiving" if again else "archiving")

    def action_touch(self) -> None:
        ids = self.targets()
        if ids is not None:
            self.run(lambda: self.service.bulk.touch_many(ids), ids, doing="touching")

    def action_promote(self) -> None:
        ids = self.targets()
        if ids is not None:
            self.run(lambda: self.service.bulk.promote_many(ids), ids, doing="promoting")

    def action_delete(self) -> None:
        """Asks first (the delete modal): one memory with what goes with it, or the list of the
        marked ones with the relations that go with them all."""
        from ..screens.delete import DeleteScreen

        ids = self.targets()
        if ids is None:
            return
        try:
            preview = (self.service.delete_preview(ids[0]) if len(ids) == 1
                       else self.service.bulk.delete_many_preview(ids))
        except VaultError as exc:
            self.screen.notify(str(exc), title="refused", severity="error", markup=False)
            return

        stay = self.next_row_key(ids) if self.tree.display else None

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self.run(lambda: self.service.bulk.delete_many(ids), ids, stay, "deleting")

        self.screen.app.push_screen(DeleteScreen(preview), done)

    def action_tag(self) -> None:
        """``T``: ask for a tag (``-tag`` takes it off) and put it on (or take it off) them."""
        from ..screens.tag import TagScreen

        ids = self.targets()
        view = self.screen.view
        if ids is None or view is None:
            return
        rows = [view.rows[i] for i in ids]
        present = sorted({t for r in rows for t in r.memory.meta.tags})
        # (the prompt's suggestions: each row's brief, no memory of a big vault parsed for them)
        every = sorted({t for r in view.rows.values() for t in r.brief.meta.tags})

        def done(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            verb, tag = answer
            run = self.service.bulk.tag_many if verb == "tag" else self.service.bulk.untag_many
            self.run(lambda: run(ids, tag), ids, doing=f"{verb}ging")

        self.screen.app.push_screen(TagScreen(len(ids), present, every), done)
