"""The terminal app (Textual): :class:`MemvaultApp` (``app.py``), its screens (``screens/``, one
modal per file) and widgets (``widgets/``, styles beside them), the one door to core it reaches
the vault through (``service.py`` and its parts, ``inbox_service.py``), and what it shows
(``view.py``, ``grouping.py``, ``graph.py``, ``query.py``, ``search_rank.py``). The command line
imports this package only to launch the app (``tui/cli/app.py``)."""

from .app import MemvaultApp, parse_keymap, run_app

__all__ = ["MemvaultApp", "parse_keymap", "run_app"]
