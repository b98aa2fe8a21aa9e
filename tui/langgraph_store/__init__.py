"""LangGraph's ``BaseStore`` on the vault (``pip install 'memvault[langgraph]'``)::

    from tui.langgraph_store import VaultStore
    store = VaultStore("~/memvault")

Imported only by a program that uses it: core never imports langgraph. The rules (namespace =
tag path, key = stable id, text = content, the rest in metadata, ``value=None`` archives) are in
:mod:`.items` and ``docs/langgraph.md``."""

from .checks import InvalidValueError
from .store import VaultStore

__all__ = ["InvalidValueError", "VaultStore"]
