"""The main screen's edits of the highlighted memory: the form (ctrl+e / F2), ``$EDITOR`` (e: the
app suspends itself while the editor runs; the file is :mod:`core.io.edit_text`'s), a new memory
(n) and pin / unpin (F; touch and promote, which act on the marks, are in ``main_bulk``). Each
is one commit through the service (:mod:`tui.app.service_edit`), shown as any operation is, and
undone by ctrl+z."""

from __future__ import annotations

from textual import work
from textual.app import SuspendNotSupported
from textual.binding import Binding

from core import VaultError
from core.ops.edit import EditConflict

from ...editor import EditorError, run_editor
from ..messages import EditFinished, EditorReady, OperationFailed
from ..service import Change, EditSession

#: The keys of this part, in the order help lists them.
EDIT_BINDINGS = [
    Binding("ctrl+e,f2", "edit_form", "Edit", show=False, id="memvault.edit_form"),
    Binding("e", "edit_text", "Edit in $EDITOR", show=False, id="memvault.edit_text"),
    Binding("n", "new_memory", "New memory", show=False, id="memvault.new"),
    Binding("F", "pin", "Pin / unpin", show=False, id="memvault.pin"),
]


class MainEdit:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its service, view and current
    memory): actions, workers and the handlers of their own two messages."""

    def _done_editing(self, change: Change | None) -> None:
        if change is not None:
            self.apply_change(change)

    # -- the form, a new memory ---------------------------------------------------------------
    def action_edit_form(self) -> None:
        memory_id = self._need_memory()
        if memory_id is not None:
            self.open_form(memory_id)

    @work(thread=True, group="edit-form", exit_on_error=False)
    def open_form(self, memory_id: str) -> None:
        """The memory as stored (never the view's copy, whose control characters are escaped),
        read off the UI thread: the service's lock may be held by an operation."""
        from .edit_form import EditFormScreen

        try:
            memory = self.service.edits.memory(memory_id)
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc), "edit"))
            return
        self.app.call_from_thread(
            lambda: self.app.push_screen(EditFormScreen(self.service, memory),
                                         self._done_editing))

    def action_new_memory(self) -> None:
        from .new_memory import NewMemoryScreen

        if self.view is None:
            return
        self.app.push_screen(NewMemoryScreen(self.service), self._done_editing)

    # -- $EDITOR ------------------------------------------------------------------------------
    def action_edit_text(self) -> None:
        memory_id = self._need_memory()
        if memory_id is not None:
            self.start_edit(memory_id)

    @work(thread=True, group="edit-text", exit_on_error=False)
    def start_edit(self, memory_id: str) -> None:
        try:
            session = self.service.edits.start_edit(memory_id)
        except (VaultError, OSError) as exc:
            self.post_message(EditorReady(error=str(exc)))
            return
        self.post_message(EditorReady(session))

    # (named handlers: Textual collects @on handlers only from the screen's own class body)
    def on_editor_ready(self, message: EditorReady) -> None:
        if message.error is not None:
            self.notify(message.error, title="edit", severity="error", markup=False)
            return
        self.run_editor_on(message.session)

    def run_editor_on(self, session: EditSession) -> None:
        """Suspend the app, run the editor on the session's file, then read it back (a worker)."""
        before = session.path.read_bytes()
        try:
            with self.app.suspend():
                run_editor(session.path)
        except SuspendNotSupported:
            self.service.edits.drop_edit(session)
            self.notify("This terminal cannot hand itself to an editor: use the form "
                        f"({self.key_for('edit_form')}).", title="edit", severity="error")
            return
        except EditorError as exc:
            if session.path.read_bytes() == before:
                self.service.edits.drop_edit(session)
                self.notify(f"{exc}; nothing written", title="edit", severity="warning",
                            markup=False)
            else:
                self.post_message(EditFinished(session, error=f"{exc}; what you saved was not "
                                               "read", retry=True))
            return
        self.finish_edit(session)

    @work(thread=True, group="edit-text", exit_on_error=False)
    def finish_edit(self, session: EditSession) -> None:
        try:
            change = self.service.edits.finish_edit(session)
        except EditConflict as exc:
            self.post_message(EditFinished(session, error=str(exc), retry=False))
            return
        except (VaultError, OSError) as exc:  # EditTextError, a secret refused...: fix and retry
            self.post_message(EditFinished(session, error=str(exc)))
            return
        self.post_message(EditFinished(session, change))

    def on_edit_finished(self, message: EditFinished) -> None:
        from .edit_failed import EditFailedScreen

        session = message.session
        if message.error is None:
            if message.change is None:
                self.notify("No changes: nothing written", title="edit", timeout=3)
            else:
                self.apply_change(message.change)
            return

        def chosen(what: str | None) -> None:
            if what == "again" and message.retry:
                self.run_editor_on(session)
            elif what == "discard":
                self.service.edits.drop_edit(session)
                self.notify("Discarded; nothing written", title="edit", timeout=3)
            else:
                self.notify(f"Nothing written; your text is kept in {session.path}",
                            title="edit", severity="warning", timeout=10, markup=False)

        self.app.push_screen(EditFailedScreen(session.memory_id, message.error, session.path,
                                              retry=message.retry), chosen)

    # -- pin (touch and promote act on the marks: main_bulk.py) ------------------------------
    def action_pin(self) -> None:
        memory_id = self._need_memory()
        if memory_id is not None:
            self.run_change(lambda: self.service.edits.toggle_pin(memory_id))
