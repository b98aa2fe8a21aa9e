"""The terminal app (Textual): :class:`MemvaultApp` (``app.py``), its screens (``screens/``, one
modal per file) and widgets (``widgets/``, styles beside them), the one door to core it reaches
the vault through (``service.py`` and its parts, ``inbox_service.py``), and what it shows
(``view.py``, ``grouping.py``, ``graph.py``, ``query.py``, ``search_rank.py``). The command line
imports this package only to launch the app (``tui/cli/app.py``).

The names below come from ``app.py`` on first use (:func:`__getattr__`): importing a module of
the package (``tui.app.settings``...) imports no other."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import MemvaultApp, parse_keymap, run_app

__all__ = ["MemvaultApp", "parse_keymap", "run_app"]


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, from ``app.py``, imported on first use."""
    if name not in __all__:
        raise AttributeError(f"module 'tui.app' has no attribute {name!r}")
    from . import app

    return getattr(app, name)
