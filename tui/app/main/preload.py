"""What the app's first paint does without, imported ahead by a worker once the open vault is
painted: the screens a first key press would wait for (the wizards, the review inbox) and the
parts of core they run.

Imported on first use, they would cost that press its import on the UI thread;
:meth:`~tui.app.main.opening.VaultOpening.after_open_painted` runs :func:`preload` instead.
``tests/tui/app/main/test_main_preload.py`` checks that importing the app imports none of them."""

from __future__ import annotations

import importlib
import sys

#: the modules imported ahead: the ones a first key press would wait for (tens of ms each; the
#: other screens take a few ms, imported by their key as before, and help's ``?`` imports none)
DEFERRED: tuple[str, ...] = (
    "tui.app.screens.consolidate_wizard",  # M (core.ops.consolidate)
    "tui.app.screens.split_wizard",  # v (core.ops.split)
    "core.ops.split_repeats",  # what the parts of a split repeat
    "tui.app.screens.inbox",  # I (core.ops.inbox)
    "tui.app.duplicates",  # the "possible duplicates" grouping
    "core.ops.revert",  # undo, redo, the undo list
    "core.ops.provenance",  # the provenance tab
    "core.sync.engine",  # the last sync, told after the open
    "tui.app.search_rank",  # a filter with words
)


def preload(names: tuple[str, ...] = DEFERRED) -> list[str]:
    """(In a worker.) Import ``names`` not imported yet, in order; the ones it imported."""
    imported = []
    for name in names:
        if name not in sys.modules:
            importlib.import_module(name)
            imported.append(name)
    return imported
