"""Messages the workers post back to the UI thread with the service's results."""

from __future__ import annotations

import threading
from typing import Any

from textual.message import Message

from .service import Change
from .view import VaultView


class VaultOpened(Message):
    def __init__(self, view: VaultView, notes: list[str]) -> None:
        super().__init__()
        self.view = view
        self.notes = notes


class VaultPreviewed(Message):
    """A first look at the vault from its derived index (``VaultView.preview``), while the open
    goes on; a :class:`VaultOpened` follows."""

    def __init__(self, view: VaultView, painted: threading.Event) -> None:
        super().__init__()
        self.view = view
        #: set once the tree has drawn it: the open waits for that, so that the two do not
        #: share the interpreter while the first paint is being made
        self.painted = painted


class VaultGlanced(Message):
    """Before the first look, a glance at the vault (``VaultView.glanced``: the index's counts,
    no memory); a :class:`VaultPreviewed` or a :class:`VaultOpened` follows."""

    def __init__(self, view: VaultView, painted: threading.Event) -> None:
        super().__init__()
        self.view = view
        self.painted = painted  # set once the tree has drawn it (as for VaultPreviewed)


class VaultReloaded(Message):
    """The vault changed underneath (or the person asked for a reload)."""

    def __init__(self, view: VaultView, reason: str, notes: list[str] | None = None) -> None:
        super().__init__()
        self.view = view
        self.reason = reason
        self.notes = notes or []


class MemoriesChanged(Message):
    """An operation of ours changed memories (``change.ids``)."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change

    @property
    def ids(self) -> list[str]:
        return self.change.ids


class Filtered(Message):
    """A big vault's filter, worked out in a worker: the ids of the memories it keeps, and the
    tree's top level for them in ``mode`` and ``sort`` (``tui.app.grouping.prepare``)."""

    def __init__(self, view: VaultView, query: Any, matched: list[str], focus: str | None,
                 groups: list[Any], mode: str, sort: str) -> None:
        super().__init__()
        self.view = view
        self.query = query  # the app's Query it was worked out for
        self.matched = matched
        self.focus = focus
        self.groups = groups
        self.mode = mode
        self.sort = sort


class Ranked(Message):
    """The filter's words searched (``scores``: id -> search score of the hits; ``matched``: the
    ids the filter keeps, those hits and the memories holding every word, in the view's order;
    ``notes``: what the search said, e.g. that it read every memory itself while the index's
    first build runs)."""

    def __init__(self, view: VaultView, query_text: str, scores: dict[str, float],
                 matched: list[str], notes: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.view = view
        self.query_text = query_text
        self.scores = scores
        self.matched = matched
        self.notes = notes


class SearchIndexProgress(Message):
    """The search index's first build moved on (``phase``: core.search.first_build's)."""

    def __init__(self, phase: str, done: int, total: int) -> None:
        super().__init__()
        self.phase, self.done, self.total = phase, done, total


class SearchIndexBuilt(Message):
    """The search index is level with the view (``built``: it was built from nothing now)."""

    def __init__(self, view: VaultView, built: bool) -> None:
        super().__init__()
        self.view = view
        self.built = built


class DuplicatesFound(Message):
    """The possible duplicates of a view were found (tui/app/duplicates.py)."""

    def __init__(self, found: Any) -> None:
        super().__init__()
        self.found = found


class OperationFailed(Message):
    def __init__(self, message: str, title: str = "") -> None:
        super().__init__()
        self.message = message
        self.title = title


class JumpTo(Message):
    """A pane asks the main screen to show a memory (living or only in history)."""

    def __init__(self, memory_id: str) -> None:
        super().__init__()
        self.memory_id = memory_id


# -- the split and consolidate wizards ---------------------------------------------------------
class WizardLoaded(Message):
    """A wizard's worker read something (``what``: "candidates", "draft", "clusters"):
    ``result`` is the service's answer, or ``error`` says why there is none."""

    def __init__(self, what: str, result: Any = None, error: str | None = None,
                 key: Any = None) -> None:
        super().__init__()
        self.what = what
        self.result = result
        self.error = error
        self.key = key


class WizardChecked(Message):
    """The service validated a wizard step with core's rules (a plan: nothing written):
    ``preview`` when it passes, else ``error`` (core's message). ``serial`` tells a stale answer
    from the latest one."""

    def __init__(self, serial: int, step: str, preview: Any = None,
                 error: str | None = None) -> None:
        super().__init__()
        self.serial = serial
        self.step = step
        self.preview = preview
        self.error = error


class SyncChecked(Message):
    """The last sync's record (core.sync.engine), read when the vault opens or reloads."""

    def __init__(self, info: dict[str, Any] | None) -> None:
        super().__init__()
        self.info = info


# -- the review inbox (tui/app/inbox_service.py) ---------------------------------------------------
class InboxLoaded(Message):
    """The inbox's entries (``view``: core's InboxView, texts neutralised), or ``error``; and
    ``likely``: memory id -> the (id, similarity) of the memories it likely duplicates."""

    def __init__(self, view: Any = None, error: str | None = None,
                 likely: dict[str, list[tuple[str, float]]] | None = None) -> None:
        super().__init__()
        self.view = view
        self.error = error
        self.likely = likely or {}


class InboxCounted(Message):
    """How many entries wait for review (for the main screen's header)."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class InboxActed(Message):
    """An accept or reject finished: ``result`` (an InboxResult) or ``error`` (core's refusal)."""

    def __init__(self, result: Any = None, error: str | None = None, title: str = "") -> None:
        super().__init__()
        self.result = result
        self.error = error
        self.title = title


# -- editing one memory (tui/app/screens/edit_form.py, new_memory.py) ---------------------------
class EditSaved(Message):
    """A form's save (or add) finished: ``change`` (None: nothing changed, nothing written), or
    ``error`` (core's refusal: the form stays open with what was typed)."""

    def __init__(self, change: Change | None, error: str | None = None,
                 secrets: list[tuple[str, str, int, int]] | None = None) -> None:
        super().__init__()
        self.change = change
        self.error = error
        #: what looked like a secret when the write was refused for it: (kind, field, start, end)
        self.secrets = secrets or []


class LikelyDuplicatesFound(Message):
    """The memories a new one would likely duplicate (``found``: (memory, similarity)), for the
    new memory ``key`` they were looked up for (its content, tags and entities)."""

    def __init__(self, key: tuple[str, tuple[str, ...], tuple[str, ...]],
                 found: list[Any]) -> None:
        super().__init__()
        self.key = key
        self.found = found


class EditorReady(Message):
    """The service wrote the memory's file for ``$EDITOR`` (``session``: an EditSession), or
    ``error`` says why it could not."""

    def __init__(self, session: Any = None, error: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error


class EditFinished(Message):
    """An ``$EDITOR`` edit was read back: ``change`` (None and no error: unchanged, nothing
    written), or ``error`` (nothing written; the file stays): ``retry`` says whether editing the
    same file again can fix it (a parse error can; a later change by another writer cannot)."""

    def __init__(self, session: Any, change: Change | None = None, error: str | None = None,
                 retry: bool = True) -> None:
        super().__init__()
        self.session = session
        self.change = change
        self.error = error
        self.retry = retry
