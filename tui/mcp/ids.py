"""Memory ids as the tools take them: a full id or a unique prefix (at least 4 characters; the
8 the answers and commit messages show always do), as on the command line. An unknown or
ambiguous id is core's UnknownIdError / AmbiguousIdError, which the server returns as a tool
error naming the candidates; nothing is written."""

from __future__ import annotations

from collections.abc import Iterable

from core import Vault

from .access import ToolRefusal


def resolve(vault: Vault, key: str) -> str:
    """The full id of the living memory ``key`` names."""
    if not key.strip():
        raise ToolRefusal("refused: an empty memory id")
    return vault.resolve(key.strip())


def resolve_many(vault: Vault, keys: Iterable[str]) -> list[str]:
    """Full ids, each once, in the order given; the first bad one refuses them all."""
    return list(dict.fromkeys(resolve(vault, k) for k in keys))
