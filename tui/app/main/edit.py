"""The main screen's edits of the highlighted memory: the form (ctrl+e / F2), ``$EDITOR`` (e: the
app suspends itself while the editor runs; the file is :mod:`core.io.edit_text`'s), a new memory
(n) and pin / unpin (F; touch and promote, which act on the marks, are in ``bulk.py``). Each
is one commit through the service (:mod:`tui.app.service_edit`), shown as any operation is, and
undone by ctrl+z."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.app import SuspendNotSupported
from textual.binding import Binding

from core import VaultError
from core.ops.edit import EditConflict

from ...editor import EditorError, run_editor
from ..messages import EditFinished, EditorReady, OperationFailed
from ..service import Change, EditSession, VaultService
from .operations import ChangeRunner, Operations
from .vault_screen import VaultScreen

#: The keys of this part, in the order help lists them.
EDIT_BINDINGS = [
    Binding("ctrl+e,f2", "edit_form", "Edit", show=False, id="memvault.edit_form"),
    Binding("e", "edit_text", "Edit in $EDITOR", show=False, id="memvault.edit_text"),
    Binding("n", "new_memory", "New memory", show=False, id="memvault.new"),
    Binding("F", "pin", "Pin / unpin", show=False, id="memvault.pin"),
]


class Edits:
    """The edits of the memory ``screen`` shows (``runner`` says which one an edit may act on,
    and runs the pin), through ``service``, in ``screen``'s workers; ``operations`` shows what
    an edit left, ``key_for`` names the screen's keys."""

    def __init__(self, screen: VaultScreen, service: VaultService, runner: ChangeRunner,
                 operations: Operations, key_for: Callable[[str], str]) -> None:
        self.screen = screen
        self.service = service
        self.runner = runner
        self.operations = operations
        self.key_for = key_for

    def done_editing(self, change: Change | None) -> None:
        if change is not None:
            self.operations.apply_change(change)

    # -- the form, a new memory ---------------------------------------------------------------
    def action_edit_form(self) -> None:
        memory_id = self.runner.need_memory()
        if memory_id is not None:
            self.screen.run_worker(partial(self.open_form, memory_id), thread=True,
                                   group="edit-form", exit_on_error=False)

    def open_form(self, memory_id: str) -> None:
        """(In a worker.) The memory as stored (never the view's copy, whose control characters
        are escaped), read off the UI thread: the service's lock may be held by an operation."""
        from ..screens.edit_form import EditFormScreen

        try:
            memory = self.service.edits.memory(memory_id)
        except VaultError as exc:
            self.screen.post_message(OperationFailed(str(exc), "edit"))
            return
        app = self.screen.app

        def show() -> None:
            app.push_screen(EditFormScreen(self.service, memory), self.done_editing)

        app.call_from_thread(show)

    def action_new_memory(self) -> None:
        from ..screens.new_memory import NewMemoryScreen

        if self.screen.view is None:
            return
        self.screen.app.push_screen(NewMemoryScreen(self.service), self.done_editing)

    # -- $EDITOR ------------------------------------------------------------------------------
    def action_edit_text(self) -> None:
        memory_id = self.runner.need_memory()
        if memory_id is not None:
            self.screen.run_worker(partial(self.start_edit, memory_id), thread=True,
                                   group="edit-text", exit_on_error=False)

    def start_edit(self, memory_id: str) -> None:
        """(In a worker.) The memory's file for the editor, posted as :class:`EditorReady`."""
        try:
            session = self.service.edits.start_edit(memory_id)
        except (VaultError, OSError) as exc:
            self.screen.post_message(EditorReady(error=str(exc)))
            return
        self.screen.post_message(EditorReady(session))

    def editor_ready(self, message: EditorReady) -> None:
        if message.error is not None:
            self.screen.notify(message.error, title="edit", severity="error", markup=False)
            return
        self.run_editor_on(message.session)

    def run_editor_on(self, session: EditSession) -> None:
        """Suspend the app, run the editor on the session's file, then read it back (a worker)."""
        before = session.path.read_bytes()
        try:
            with self.screen.app.suspend():
                run_editor(session.path)
        except SuspendNotSupported:
            self.service.edits.drop_edit(session)
            self.screen.notify("This terminal cannot hand itself to an editor: use the form "
                               f"({self.key_for('edit_form')}).", title="edit", severity="error")
            return
        except EditorError as exc:
            if session.path.read_bytes() == before:
                self.service.edits.drop_edit(session)
                self.screen.notify(f"{exc}; nothing written", title="edit", severity="warning",
                                   markup=False)
            else:
                self.screen.post_message(EditFinished(session, error=f"{exc}; what you saved "
                                                      "was not read", retry=True))
            return
        self.screen.run_worker(partial(self.finish_edit, session), thread=True,
                               group="edit-text", exit_on_error=False)

    def finish_edit(self, session: EditSession) -> None:
        """(In a worker.) Read the edited file back: one commit, posted as :class:`EditFinished`."""
        try:
            change = self.service.edits.finish_edit(session)
        except EditConflict as exc:
            self.screen.post_message(EditFinished(session, error=str(exc), retry=False))
            return
        except (VaultError, OSError) as exc:  # EditTextError, a secret refused...: fix and retry
            self.screen.post_message(EditFinished(session, error=str(exc)))
            return
        self.screen.post_message(EditFinished(session, change))

    def edit_finished(self, message: EditFinished) -> None:
        from ..screens.edit_failed import EditFailedScreen

        session = message.session
        if message.error is None:
            if message.change is None:
                self.screen.notify("No changes: nothing written", title="edit", timeout=3)
            else:
                self.operations.apply_change(message.change)
            return

        def chosen(what: str | None) -> None:
            if what == "again" and message.retry:
                self.run_editor_on(session)
            elif what == "discard":
                self.service.edits.drop_edit(session)
                self.screen.notify("Discarded; nothing written", title="edit", timeout=3)
            else:
                self.screen.notify(f"Nothing written; your text is kept in {session.path}",
                                   title="edit", severity="warning", timeout=10, markup=False)

        self.screen.app.push_screen(EditFailedScreen(session.memory_id, message.error,
                                                     session.path, retry=message.retry), chosen)

    # -- pin (touch and promote act on the marks: bulk.py) ------------------------------
    def action_pin(self) -> None:
        memory_id = self.runner.need_memory()
        if memory_id is not None:
            self.runner.run(lambda: self.service.edits.toggle_pin(memory_id))
