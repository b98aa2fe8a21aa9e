"""What the LangGraph store's tests share: ``store``, a :class:`~tui.langgraph_store.VaultStore`
on a fresh vault, closed after the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def store(vault_path: Path) -> Iterator[Any]:
    from tui.langgraph_store import VaultStore  # (langgraph: imported by the tests that ask)

    s = VaultStore(vault_path)
    yield s
    s.close()
