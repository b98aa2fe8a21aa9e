"""The panes that read git load themselves (tui/app/widgets/git_reading.py): a history pane given
a ``memory_id`` reads it through the reader it was made with, in a worker of its own; a read
that lands after the pane was asked for another memory is dropped; an error is said."""

from __future__ import annotations

import threading

import pytest
from textual.app import App, ComposeResult

from core import HistoryEntry, VaultError
from tui.app.messages import OperationFailed
from tui.app.service import HistoryInfo
from tui.app.widgets.history import HistoryPane

from tui_support import text_of, until

pytestmark = pytest.mark.asyncio

A, B = "a" * 32, "b" * 32


def info(memory_id: str) -> HistoryInfo:
    entry = HistoryEntry("c0ffee" * 6 + "ab", 1_750_000_000, "person", "add: one", "created")
    return HistoryInfo(memory_id, True, [entry])


class PaneApp(App[None]):
    """The pane alone, with the reader under test; the failures it says, kept."""

    def __init__(self, read) -> None:
        super().__init__()
        self.read = read
        self.failed: list[str] = []

    def compose(self) -> ComposeResult:
        yield HistoryPane(read=self.read, id="history")

    def on_operation_failed(self, message: OperationFailed) -> None:
        self.failed.append(message.message)


def title(app) -> str:
    return text_of(app.query_one("#history-title"))


async def test_a_pane_given_a_memory_reads_its_history_itself():
    app = PaneApp(info)
    async with app.run_test() as pilot:
        pane = app.query_one(HistoryPane)
        assert "Highlight a memory" in title(app)
        pane.memory_id = A
        await until(pilot, lambda: "1 commit" in title(app))
        assert "history of aaaaaaaa" in title(app) and pane.info.memory_id == A
        pane.memory_id = None
        await until(pilot, lambda: "Highlight a memory" in title(app))


async def test_a_read_that_lands_after_another_memory_was_asked_is_dropped():
    slow, read_a = threading.Event(), threading.Event()

    def read(memory_id: str) -> HistoryInfo:
        if memory_id == A:
            assert slow.wait(10)
            read_a.set()
        return info(memory_id)

    app = PaneApp(read)
    async with app.run_test() as pilot:
        pane = app.query_one(HistoryPane)
        pane.memory_id = A
        await pilot.pause()
        pane.memory_id = B
        await until(pilot, lambda: "history of bbbbbbbb" in title(app))
        slow.set()
        await until(pilot, read_a.is_set)
        await until(pilot, lambda: not any(w.is_running for w in app.workers))
        await pilot.pause()
        assert "history of bbbbbbbb" in title(app) and pane.info.memory_id == B


async def test_a_failed_read_is_said_and_read_again_when_asked():
    calls: list[str] = []

    def read(memory_id: str) -> HistoryInfo:
        calls.append(memory_id)
        if len(calls) == 1:
            raise VaultError("git is busy")
        return info(memory_id)

    app = PaneApp(read)
    async with app.run_test() as pilot:
        pane = app.query_one(HistoryPane)
        pane.memory_id = A
        await until(pilot, lambda: app.failed == ["git is busy"])
        pane.want(A)  # the same memory again: read again, since the last read failed
        await until(pilot, lambda: "1 commit" in title(app))
        assert calls == [A, A]
